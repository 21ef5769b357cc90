import { call, type Caller } from "../../../lib/contract";
import type { Database } from "../../../lib/db/database";
import { AppError } from "../../../lib/errors";
import { scanIdOf } from "../../../lib/scan-ids";
import { queuePickupEvent } from "./pickup-outbox.store";
import { dueSandboxPickups } from "./sandbox-pickups.store";
import * as store from "./pickups.store";

/**
 * Issue 44 B: the sandbox has no courier. The simulator plays the courier's visit to a sandbox
 * pickup: every listed parcel but `missing` is collected (PICKED_UP, as a live scan would make it),
 * the stop is closed (COMPLETED or PARTIALLY_COMPLETED) and pickup.completed goes out, as live.
 * It acts on sandbox pickups only, so it never touches live data. A pass completes each sandbox
 * pickup whose window opened; POST /sandbox/pickups/{id}/complete does it at once.
 */
export async function simulateVisit(
  deps: { db: Database; caller: Caller },
  pickupId: string,
  owner: store.Owner | null,
  missing: string[] = []
): Promise<store.PickupRecord> {
  const pickup = await store.findPickup(deps.db, pickupId, owner);
  if (!pickup || pickup.mode !== "sandbox") throw new AppError("PICKUP_NOT_FOUND", "No such sandbox pickup");
  if (pickup.status === "COMPLETED" || pickup.status === "PARTIALLY_COMPLETED") return pickup;
  if (!["CONFIRMED", "IN_PROGRESS"].includes(pickup.status)) throw new AppError("CONFLICT", `The pickup is ${pickup.status}`);
  const listed = ((await store.parcelsOf(deps.db, [pickupId])).get(pickupId) ?? []).filter(p => p.state === "ANNOUNCED").map(p => p.id);
  const unknown = missing.filter(id => !listed.includes(id));
  if (unknown.length > 0) {
    throw new AppError("VALIDATION_FAILED", "The request is not valid", {
      details: unknown.map(id => ({ field: "missingParcelIds", message: `${id} is not a parcel still to collect in this pickup` }))
    });
  }
  const collected = listed.filter(id => !missing.includes(id));
  // Parcels first (idempotent by scan id): a retry after a stop in between finishes the visit.
  if (collected.length > 0) {
    await call(deps.caller, "parcels.applyNetworkScans", {
      owner: { organizationId: pickup.organizationId, mode: "sandbox" },
      scans: collected.map(parcelId => ({
        scanId: scanIdOf(pickupId, parcelId, "sandbox-collected"),
        parcelId,
        toStatus: "PICKED_UP" as const,
        reason: `pickup ${pickup.confirmationNumber} collected (sandbox simulator)`,
        actor: "sandbox"
      }))
    });
  }
  return deps.db.transaction(async tx => {
    const locked = await store.lockPickup(tx, pickupId);
    if (!locked || !["CONFIRMED", "IN_PROGRESS"].includes(locked.status)) return locked!;
    await store.setParcelsState(tx, pickupId, "ANNOUNCED", "COLLECTED", collected);
    await store.setParcelsState(tx, pickupId, "ANNOUNCED", "MISSING");
    const closed = await store.setPickupStatus(tx, pickupId, missing.length === 0 ? "COMPLETED" : "PARTIALLY_COMPLETED", {
      missing: listed.filter(id => missing.includes(id)),
      unexpected: []
    });
    await queuePickupEvent(tx, closed);
    return closed;
  });
}

/** One simulator pass: each due sandbox pickup visited, nothing missing. A failure leaves it for the next pass. */
export async function simulatorPass(deps: { db: Database; caller: Caller }, now = new Date()): Promise<number> {
  let done = 0;
  for (const id of await dueSandboxPickups(deps.db, now)) {
    await simulateVisit(deps, id, null);
    done++;
  }
  return done;
}
