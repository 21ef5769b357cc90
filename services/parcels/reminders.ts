import type { Database, Queryable } from "../../lib/db/database";
import { parcelOf, PickupEventType } from "../../lib/events";
import type { ParcelStatus } from "../../lib/parcel-status";
import * as holding from "./holding.store";
import * as store from "./parcels.store";
import { appendEvent, eventOf } from "./status-change";

const BATCH = 100;

/**
 * A deadline event of a parcel already updated in this transaction (reminder, extension): its line
 * in the pickup history, and its outbox row with the body of a status event whose status did not
 * change. The caller holds the parcel's row lock, as for every event of the parcel.
 */
export async function recordPickupEvent(
  tx: Queryable,
  parcel: store.ParcelRecord,
  event: { type: PickupEventType; kind: "reminder" | "extension" | "closure"; actor: string; reason: string | null }
): Promise<void> {
  const { sequence, occurredAt } = await store.recordPickupHistory(tx, {
    parcelId: parcel.id,
    kind: event.kind,
    deadline: parcel.pickupDeadline!,
    actor: event.actor
  });
  const outgoing = eventOf(parcel, { type: event.type, sequence, occurredAt, reason: event.reason });
  outgoing.data = { previousStatus: parcel.status as ParcelStatus, parcel: parcelOf(outgoing)! };
  await appendEvent(tx, outgoing);
}

/**
 * The reminders due (PICKUP_REMINDER_HOURS before the deadline): each claimed and its
 * parcel.pickup_reminder event written in one transaction, so a reminder exists exactly when its
 * claim does — once per deadline, across restarts and instances. The outbox takes it to the
 * merchant's webhook and to the recipient's SMS.
 */
export async function sendDueReminders(db: Database, reminderHours: number): Promise<number> {
  return db.transaction(async tx => {
    const due = await holding.claimDueReminders(tx, reminderHours, BATCH);
    for (const parcel of due) {
      await recordPickupEvent(tx, parcel, { type: "parcel.pickup_reminder", kind: "reminder", actor: "holding-period", reason: null });
    }
    return due.length;
  });
}
