import type { Database } from "../../../lib/db/database";
import type { ParcelStatus } from "../../../lib/parcel-status";
import { parcelOf } from "../../../lib/events";
import * as store from "../parcels.store";
import { appendEvent, eventOf } from "../status-change";
import { markUnreachable } from "./recipient.store";

/**
 * parcel.recipient_unreachable (issue 30), once per parcel: `notifications` asks for it when an
 * SMS it owes the recipient cannot be sent to their number. Written with its outbox row in one
 * transaction under the parcel's lock, like every event of the parcel; a second call is a no-op.
 */
export async function recordRecipientUnreachable(db: Database, parcelId: string): Promise<{ recorded: boolean }> {
  return db.transaction(async tx => {
    const parcel = await store.lockParcel(tx, parcelId);
    if (!parcel || parcel.status === "PENDING") return { recorded: false };
    const at = await markUnreachable(tx, parcel);
    if (!at) return { recorded: false };
    const event = eventOf(parcel, {
      type: "parcel.recipient_unreachable",
      sequence: at.sequence,
      occurredAt: at.occurredAt,
      reason: "RECIPIENT_PHONE_NOT_MOBILE"
    });
    event.data = { previousStatus: parcel.status as ParcelStatus, parcel: parcelOf(event)! };
    await appendEvent(tx, event);
    return { recorded: true };
  });
}
