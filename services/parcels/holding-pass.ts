import { creditPendingClaims } from "./claims/claims";
import { expireOverdue } from "./expiry";
import { holdingPolicy } from "./holding-period";
import { sendDueReminders } from "./reminders";
import { chargePendingReturnFees, ReturnFeeDeps } from "./return-fees";
import { confirmOfflineHandovers } from "./relay/handover-confirmation";

export interface HoldingPassResult {
  expired: number;
  reminded: number;
  feesCharged: number;
  /** Approved claims whose credit the wallet acknowledged in this pass (issue 22). */
  claimsCredited: number;
  /** Offline PIN hand-overs whose recipient's confirmation SMS was stored only in this pass (issue 43). */
  handoversConfirmed: number;
}

/**
 * One pass over the holding period, run every HOLDING_INTERVAL_MS by each parcels instance (and
 * at once when a return or a deadline in the past calls for it): parcels past their deadline go
 * back, the reminders due are written, then every return fee and claim credit still owed is asked
 * of the wallet.
 * Each step is safe to run on several instances at once.
 */
export async function holdingPass(deps: ReturnFeeDeps): Promise<HoldingPassResult> {
  const expired = (await expireOverdue(deps.db)).length;
  const reminded = await sendDueReminders(deps.db, holdingPolicy().pickupReminderHours);
  const feesCharged = await chargePendingReturnFees(deps);
  const claimsCredited = await creditPendingClaims(deps);
  const handoversConfirmed = await confirmOfflineHandovers(deps);
  return { expired, reminded, feesCharged, claimsCredited, handoversConfirmed };
}
