import type { Database } from "../../../lib/db/database";
import { AppError } from "../../../lib/errors";
import { queuePickupEvent } from "./pickup-outbox.store";
import * as store from "./pickups.store";

/**
 * The courier closes the pickup stop (issue 44 B): at once, each listed parcel not scanned is
 * MISSING and stays READY_FOR_PICKUP for the next pickup; parcels scanned but not listed are
 * `unexpected`. COMPLETED when nothing is missing, PARTIALLY_COMPLETED otherwise. Closing a closed
 * stop answers it again.
 */
export async function closePickup(db: Database, pickupId: string): Promise<store.PickupRecord> {
  return db.transaction(async tx => {
    const pickup = await store.lockPickup(tx, pickupId);
    if (!pickup || pickup.mode !== "live") throw new AppError("PICKUP_NOT_FOUND", "No such pickup");
    if (pickup.status === "COMPLETED" || pickup.status === "PARTIALLY_COMPLETED") return pickup;
    if (!["CONFIRMED", "IN_PROGRESS"].includes(pickup.status)) throw new AppError("CONFLICT", `The pickup is ${pickup.status}`);
    const parcels = (await store.parcelsOf(tx, [pickupId])).get(pickupId) ?? [];
    const missing = parcels.filter(p => p.state === "ANNOUNCED").map(p => p.id);
    const unexpected = await store.unexpectedOf(tx, pickupId);
    await store.setParcelsState(tx, pickupId, "ANNOUNCED", "MISSING");
    const closed = await store.setPickupStatus(tx, pickupId, missing.length === 0 ? "COMPLETED" : "PARTIALLY_COMPLETED", {
      missing,
      unexpected
    });
    await queuePickupEvent(tx, closed);
    return closed;
  });
}
