import type { Logger } from "moleculer";
import { call, Caller } from "../../lib/contract";
import type { Database } from "../../lib/db/database";
import * as holding from "./holding.store";
import type { ParcelRecord } from "./parcels.store";

export interface ReturnFeeDeps {
  db: Database;
  logger: Logger;
  caller: Caller;
}

const BATCH = 100;

/**
 * Asks the wallet for a returned parcel's fee, fixed and flagged in the transaction of the return
 * (status-change.ts), and clears the flag once the wallet acknowledged: a crash or a wallet away
 * in between leaves the flag, and the holding pass asks again (the charge is idempotent per
 * parcel). Answers whether it was acknowledged.
 */
export async function chargeReturnFee(deps: ReturnFeeDeps, parcel: ParcelRecord): Promise<boolean> {
  if (!parcel.returnFeePending || parcel.returnFeeCentimes === null) return true;
  try {
    await call(deps.caller, "wallet.chargeReturnFee", {
      parcelId: parcel.id,
      organizationId: parcel.organizationId,
      mode: parcel.mode,
      amountCentimes: parcel.returnFeeCentimes
    });
    await holding.clearReturnFeePending(deps.db, parcel.id);
    return true;
  } catch (err) {
    deps.logger.warn(`parcel ${parcel.id}: return fee left for the next pass (${(err as Error).message})`);
    return false;
  }
}

/** Every return fee still owed, a batch at a time; answers how many the wallet acknowledged. */
export async function chargePendingReturnFees(deps: ReturnFeeDeps): Promise<number> {
  let charged = 0;
  for (const parcel of await holding.returnFeesPending(deps.db, BATCH)) {
    if (await chargeReturnFee(deps, parcel)) charged++;
  }
  return charged;
}
