import type { Context, Logger } from "moleculer";
import { call } from "../../../lib/contract";
import "../../logistics/runs/runs.contract";
import type { ShelfParcel } from "./relay.store";

/**
 * Decision 0057: after the arrival scan committed (AT_RELAY), parcels tells logistics so that it
 * records the relay's side of the hand-off (holder relay, giver the courier). A call made after the
 * commit and awaited, so that the trail is complete when the counter gets its answer; a failure is
 * logged, never the arrival's: the shelf does not depend on the network's bookkeeping. Logistics
 * records it idempotently (one row per parcel and relay point), so telling again is harmless; a
 * call lost to a crash between the commit and the call leaves the trail without its last row.
 */
export async function tellLogisticsOfArrival(ctx: Context, logger: Logger, shelf: ShelfParcel): Promise<void> {
  const { parcel } = shelf;
  try {
    await call(ctx, "logistics.relayArrival", {
      parcelId: parcel.id,
      relayCode: parcel.destinationRelayCode,
      occurredAt: (shelf.arrivedAt ?? new Date()).toISOString()
    });
  } catch (err) {
    logger.warn({ err, parcelId: parcel.id }, "Could not record the relay's custody scan of an arrival");
  }
}
