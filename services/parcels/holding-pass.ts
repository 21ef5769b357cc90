import { expireOverdue } from "./expiry";
import { holdingPolicy } from "./holding-period";
import { sendDueReminders } from "./reminders";
import { chargePendingReturnFees, ReturnFeeDeps } from "./return-fees";

export interface HoldingPassResult {
  expired: number;
  reminded: number;
  feesCharged: number;
}

/**
 * One pass over the holding period, run every HOLDING_INTERVAL_MS by each parcels instance (and
 * at once when a return or a deadline in the past calls for it): parcels past their deadline go
 * back, the reminders due are written, then every return fee still owed is asked of the wallet.
 * Each step is safe to run on several instances at once.
 */
export async function holdingPass(deps: ReturnFeeDeps): Promise<HoldingPassResult> {
  const expired = (await expireOverdue(deps.db)).length;
  const reminded = await sendDueReminders(deps.db, holdingPolicy().pickupReminderHours);
  const feesCharged = await chargePendingReturnFees(deps);
  return { expired, reminded, feesCharged };
}
