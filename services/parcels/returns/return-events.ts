import { randomUUID } from "node:crypto";
import type { Queryable } from "../../../lib/db/database";
import type { ParcelEvent } from "../../../lib/events";
import { toDzd } from "../../../lib/money";
import type { ReturnEventType, ReturnView } from "../../../lib/returns";
import { toParcelView } from "../parcel-view";
import * as parcels from "../parcels.store";
import * as store from "./returns.store";

/** A return as the merchant reads it; the collection PIN is given only while the return parcel waits at the relay point. */
export function toReturnView(r: store.ReturnRecord, collectionPin: string | null = null): ReturnView {
  return {
    id: r.id,
    parcelId: r.parcelId,
    status: r.status,
    reason: r.reason,
    items: r.items,
    returnCode: r.returnCode,
    expiresAt: r.expiresAt.toISOString(),
    feeDzd: toDzd(r.feeCentimes),
    destinationRelayCode: r.destinationRelayCode,
    returnParcelId: r.returnParcelId,
    collectionPin,
    droppedOffAt: r.droppedOffAt === null ? null : r.droppedOffAt.toISOString(),
    droppedOffRelayCode: r.droppedOffRelayCode,
    createdAt: r.createdAt.toISOString(),
    updatedAt: r.updatedAt.toISOString()
  };
}

/**
 * A return.* event, in the caller's transaction: a line of the delivered parcel's history (so the
 * event takes the next number of that parcel's sequence) and an outbox row, relayed like every
 * parcel event to webhooks and notifications. `data.parcel` is the delivered parcel; `data.return`
 * the return after the change.
 */
export async function appendReturnEvent(
  tx: Queryable,
  type: ReturnEventType,
  r: store.ReturnRecord,
  options: { reason?: string | null; collectionPin?: string | null } = {}
): Promise<ParcelEvent> {
  const parcel = await parcels.findParcel(tx, r.parcelId);
  if (!parcel) throw new Error(`return ${r.id}: parcel ${r.parcelId} is gone`);
  const occurredAt = await store.insertReturnHistory(tx, { parcelId: r.parcelId, returnId: r.id, type });
  const event: ParcelEvent = {
    id: randomUUID(),
    type,
    createdAt: r.updatedAt.toISOString(),
    occurredAt: occurredAt.toISOString(),
    sequence: await parcels.eventCount(tx, r.parcelId),
    organizationId: r.organizationId,
    mode: r.mode,
    sandbox: r.mode === "sandbox",
    reason: options.reason ?? null,
    data: { parcel: toParcelView(parcel, null), return: toReturnView(r, options.collectionPin ?? null) }
  };
  await parcels.appendOutbox(tx, {
    eventId: event.id,
    parcelId: r.parcelId,
    owner: { organizationId: r.organizationId, mode: r.mode },
    type,
    payload: event
  });
  return event;
}

/**
 * A return parcel reached its destination relay point (whatever moved it: the counter, an
 * operator, the sandbox trigger): return.ready_for_collection with its collection PIN, for the
 * merchant only (no SMS to the customer). Called by the status change, in its transaction.
 */
export async function returnParcelArrived(tx: Queryable, returnParcelId: string, collectionPin: string | null): Promise<void> {
  const r = await store.returnOfReturnParcel(tx, returnParcelId);
  if (r) await appendReturnEvent(tx, "return.ready_for_collection", r, { collectionPin });
}
