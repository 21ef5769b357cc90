import type { Database } from "../../../lib/db/database";
import { parcelOf } from "../../../lib/events";
import type { ParcelStatus } from "../../../lib/parcel-status";
import * as store from "../parcels.store";
import * as network from "./network.store";
import { appendEvent, eventOf } from "../status-change";

export interface OutForDeliveryResult {
  parcelId: string;
  /** recorded: the event was written now; already: it was before; refused: not IN_TRANSIT to that relay point; unknown. */
  outcome: "recorded" | "already" | "refused" | "unknown";
  status: string | null;
}

/**
 * parcel.out_for_delivery (issue 44 C, decision 0057): the courier who delivers the parcel's relay
 * point took it. Once per parcel and destination (migration parcels/036), under the parcel's lock
 * with its outbox row, like every event of the parcel; only a live IN_TRANSIT parcel addressed to
 * `relayCode` gets it (a scan for another relay point is the network's mis-sort, not this event).
 */
export async function recordOutForDelivery(
  db: Database,
  request: { parcelId: string; relayCode: string; actor: string }
): Promise<OutForDeliveryResult> {
  return db.transaction(async tx => {
    const parcel = await store.lockParcel(tx, request.parcelId);
    if (!parcel || parcel.status === "PENDING" || parcel.mode !== "live")
      return { parcelId: request.parcelId, outcome: "unknown", status: null };
    const base = { parcelId: parcel.id, status: parcel.status as string };
    if (parcel.status !== "IN_TRANSIT" || parcel.destinationRelayCode !== request.relayCode) return { ...base, outcome: "refused" };
    const line = await network.insertOutForDelivery(tx, parcel.id, request.relayCode, request.actor);
    if (!line) return { ...base, outcome: "already" };
    const event = eventOf(parcel, {
      type: "parcel.out_for_delivery",
      sequence: await store.eventCount(tx, parcel.id),
      occurredAt: line.created_at,
      reason: `out for delivery to relay point ${request.relayCode}`
    });
    event.data = { previousStatus: parcel.status as ParcelStatus, parcel: parcelOf(event)! };
    await appendEvent(tx, event);
    return { ...base, outcome: "recorded" };
  });
}
