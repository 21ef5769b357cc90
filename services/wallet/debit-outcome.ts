import { errorCodeOf } from "../../lib/errors";
import type { DebitDone } from "./debit-group.store";
import type { DebitOutcome } from "./wallet.contract";

/**
 * One item of wallet.debitBatch as it travels back: the debit, or its refusal by code. A code other
 * than INSUFFICIENT_BALANCE or CONFLICT (the group's transaction failed) tells the caller the debit
 * is unknown, and it compensates exactly as after a failed `wallet.debit` call.
 */
export function toDebitOutcome(answer: PromiseSettledResult<DebitDone>): DebitOutcome {
  if (answer.status === "fulfilled") {
    return { debitedCentimes: answer.value.amountCentimes, balanceCentimes: answer.value.balanceAfterCentimes };
  }
  const err = answer.reason as Error;
  return { error: { code: errorCodeOf(err) ?? "UNAVAILABLE", message: err.message } };
}
