import type { ParcelStatus } from "./parcel-status";

/**
 * Cash on delivery: what became of the cash a COD parcel carries. PENDING until hand-over;
 * COLLECTED when the parcel is DELIVERED (the relay point holds the cash); REMITTED once paid to
 * the merchant in a remittance; NOT_COLLECTED when the parcel can no longer reach its recipient.
 * A parcel without COD has none (null). The status only moves forward.
 */
export const COD_STATUSES = ["PENDING", "COLLECTED", "REMITTED", "NOT_COLLECTED"] as const;
export type CodStatus = (typeof COD_STATUSES)[number];

/**
 * Issue 45 B: where a COD parcel's cash physically is, additive to codStatus (which keeps its
 * values): at the relay point's COUNTER (collected, not yet taken by a courier), with the carrier's
 * COURIER (the agent confirmed the courier's collection), at the CARRIER (a hub confirmed the
 * courier's deposit; a card or QR payment from the hand-over on), PAID (remitted). Null while not
 * collected, and without COD.
 */
export const COD_CASH_PLACES = ["COUNTER", "COURIER", "CARRIER", "PAID"] as const;
export type CodCashPlace = (typeof COD_CASH_PLACES)[number];

/** The place the merchant reads: REMITTED is PAID whatever the hand-offs say; COLLECTED with none recorded is the counter. */
export function codCashPlaceOf(codStatus: CodStatus | null, recorded: string | null): CodCashPlace | null {
  if (codStatus === "REMITTED") return "PAID";
  if (codStatus !== "COLLECTED") return null;
  return recorded === "COURIER" || recorded === "CARRIER" ? recorded : "COUNTER";
}

/** How remitted COD reaches the merchant: a payout (bank transfer, cash) or a wallet credit. */
export const COD_PAYOUTS = ["TRANSFER", "WALLET"] as const;
export type CodPayout = (typeof COD_PAYOUTS)[number];

/**
 * cod.collected and cod.remitted change codStatus; the cash events of issue 45 B (additive) keep it
 * COLLECTED and say where the cash went: taken by the carrier's courier, handed in at its hub.
 */
export const COD_EVENT_TYPES = ["cod.collected", "cod.remitted", "cod.cash_collected_by_courier", "cod.cash_deposited"] as const;
export type CodEventType = (typeof COD_EVENT_TYPES)[number];

/**
 * Statuses a parcel never comes back from to its recipient (DAMAGED: no operator move leads out of
 * it; RETURN_PENDING: on its way back to the sender, expired or refused at the relay point).
 */
const UNCOLLECTABLE: readonly ParcelStatus[] = ["RETURN_PENDING", "RETURNED", "LOST", "DAMAGED", "CANCELLED"];

/** The COD status of a parcel that carries COD (`codAmountCentimes` > 0) at its creation. */
export function initialCodStatus(codAmountCentimes: number | null): CodStatus | null {
  return codAmountCentimes !== null && codAmountCentimes > 0 ? "PENDING" : null;
}

/**
 * The COD status after the parcel moves to `to`. Only PENDING moves on a status change: cash once
 * collected stays collected (a sandbox trigger may move a delivered parcel anywhere), and
 * REMITTED and NOT_COLLECTED are final for a status change.
 */
export function codStatusAfter(current: CodStatus | null, to: ParcelStatus): CodStatus | null {
  if (current !== "PENDING") return current;
  if (to === "DELIVERED") return "COLLECTED";
  return UNCOLLECTABLE.includes(to) ? "NOT_COLLECTED" : "PENDING";
}

/** Algeria keeps UTC+1 all year (no daylight saving): months and payout dates are counted there. */
const ALGIERS_OFFSET_MS = 3600_000;

/** "2026-03-14": the calendar day in Algiers at `at`. */
export function algiersDate(at: Date): string {
  return new Date(at.getTime() + ALGIERS_OFFSET_MS).toISOString().slice(0, 10);
}

/** The first day of the month of `at` in Algiers, and of the month after ("2026-03-01", "2026-04-01"). */
export function algiersMonth(at: Date): { month: string; from: string; until: string } {
  const day = algiersDate(at);
  const [year, month] = day.split("-").map(Number);
  const next = month === 12 ? `${year + 1}-01-01` : `${year}-${String(month + 1).padStart(2, "0")}-01`;
  return { month: day.slice(0, 7), from: `${day.slice(0, 7)}-01`, until: next };
}
