import { call, type Caller } from "../../../lib/contract";
import type { Database } from "../../../lib/db/database";
import type { ParcelEvent } from "../../../lib/events";
import type { PickupEventData, PickupParcelRef } from "../../../lib/pickup-events";
import * as outbox from "./pickup-outbox.store";
import * as store from "./pickups.store";

/** Rows handed over per pass; a full batch asks for another pass at once. */
export const PICKUP_OUTBOX_BATCH = 100;

/** The tracking numbers of the owner's parcels among `ids` (another owner's parcel is left out: null). */
async function trackingNumbers(caller: Caller, owner: store.Owner, ids: string[]): Promise<Map<string, string>> {
  if (ids.length === 0) return new Map();
  const { parcels } = await call(caller, "parcels.networkParcels", { parcelIds: ids, owner });
  return new Map(parcels.map(p => [p.id, p.trackingNumber]));
}

/** The event of one outbox row, as the merchant receives it (lib/pickup-events.ts). */
async function eventOf(db: Database, caller: Caller, row: outbox.OutboxRow): Promise<ParcelEvent> {
  const pickup = (await store.findPickup(db, row.pickupId, null))!;
  const listed = ((await store.parcelsOf(db, [pickup.id])).get(pickup.id) ?? []).map(p => p.id);
  const numbers = await trackingNumbers(caller, { organizationId: pickup.organizationId, mode: pickup.mode }, [
    ...new Set([...listed, ...pickup.unexpected])
  ]);
  const ref = (id: string): PickupParcelRef => ({ id, trackingNumber: numbers.get(id) ?? null });
  const closed = row.type === "pickup.completed";
  const data: PickupEventData = {
    pickup: {
      id: pickup.id,
      confirmationNumber: pickup.confirmationNumber,
      status: row.status,
      readyAt: pickup.readyAt.toISOString(),
      closeAt: pickup.closeAt.toISOString()
    },
    parcels: listed.map(ref),
    missing: closed ? pickup.missing.map(ref) : [],
    unexpected: closed ? pickup.unexpected.map(ref) : []
  };
  return {
    id: row.eventId,
    type: row.type,
    createdAt: row.occurredAt.toISOString(),
    occurredAt: row.occurredAt.toISOString(),
    sequence: 0,
    organizationId: pickup.organizationId,
    mode: pickup.mode,
    sandbox: pickup.mode === "sandbox",
    reason: null,
    data
  };
}

/**
 * One pass of the logistics outbox relay (decision 0054): the oldest events, oldest first, handed
 * to webhooks in one acknowledged call, then marked dispatched. A pass that fails leaves them for
 * the next; two instances handing over the same rows store them once (webhooks is idempotent by
 * event id), so no lease is needed.
 */
export async function relayPickupEvents(deps: { db: Database; caller: Caller; isAvailable: () => boolean }): Promise<number> {
  if (!deps.isAvailable()) return 0;
  const rows = await outbox.undispatched(deps.db, PICKUP_OUTBOX_BATCH);
  if (rows.length === 0) return 0;
  const events: ParcelEvent[] = [];
  for (const row of rows) events.push(await eventOf(deps.db, deps.caller, row));
  await call(deps.caller, "webhooks.enqueueBatch", { events });
  await outbox.markDispatched(
    deps.db,
    rows.map(r => r.id)
  );
  return rows.length;
}
