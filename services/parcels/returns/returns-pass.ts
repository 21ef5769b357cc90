import { chargeReturnShipment, DropOffDeps } from "./drop-off";
import { appendReturnEvent } from "./return-events";
import * as store from "./returns.store";

const BATCH = 100;

export interface ReturnsPassResult {
  expired: number;
  feesCharged: number;
}

/**
 * One pass over the returns, run every RETURNS_INTERVAL_MS by each parcels instance: returns not
 * dropped off by their expiresAt become EXPIRED (nothing charged), each decided under its row lock
 * (a drop-off or another instance's pass that got there first wins: the conditional update
 * matches once, so return.expired goes once); then every shipment fee still owed is asked of the
 * wallet.
 */
export async function returnsPass(deps: Omit<DropOffDeps, "encryptionKey">): Promise<ReturnsPassResult> {
  let expired = 0;
  for (const id of await store.dueReturnIds(deps.db, BATCH)) {
    const closed = await deps.db.transaction(async tx => {
      const row = await store.lockReturn(tx, id);
      if (!row || row.status !== "AWAITING_DROP_OFF" || !(await store.isPastExpiry(tx, row))) return null;
      const after = await store.closeReturn(tx, id, "EXPIRED");
      if (after) await appendReturnEvent(tx, "return.expired", after, { reason: "RETURN_CODE_EXPIRED" });
      return after;
    });
    if (closed) expired++;
  }
  let feesCharged = 0;
  for (const owed of await store.feesPending(deps.db, BATCH)) {
    if (!(await chargeReturnShipment(deps, owed)).feePending) feesCharged++;
  }
  return { expired, feesCharged };
}
