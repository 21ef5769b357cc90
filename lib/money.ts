import { AppError } from "./errors";

/**
 * Amounts are integer centimes inside the system, so sums and ledger balances are exact;
 * the API speaks DZD numbers with at most two decimals (DESIGN §2).
 */

/** Documented upper bound of declaredValueDzd and codAmountDzd: 10 million DZD. */
export const MAX_MONEY_DZD = 10_000_000;

/**
 * `dzd * 100` carries binary float noise (19.99 * 100 = 1998.9999999999998, 1.005 * 100 =
 * 100.49999999999999). Cutting it to 15 significant digits, which a double always holds
 * exactly, removes the noise before rounding, so the decimal the user wrote is what counts.
 */
function scaledToCentimes(dzd: number): number {
  return Number((dzd * 100).toPrecision(15));
}

/** DZD → integer centimes, half away from zero (1.005 → 101, -1.005 → -101). */
export function toCentimes(dzd: number): number {
  if (typeof dzd !== "number" || !Number.isFinite(dzd)) {
    throw new AppError("VALIDATION_FAILED", `amount must be a finite number (got ${String(dzd)})`);
  }
  const scaled = scaledToCentimes(dzd);
  const centimes = Math.sign(scaled) * Math.round(Math.abs(scaled));
  if (!Number.isSafeInteger(centimes)) {
    throw new AppError("VALIDATION_FAILED", `amount ${dzd} is too large`);
  }
  // Normalise -0 so it never leaks into JSON or comparisons.
  return centimes === 0 ? 0 : centimes;
}

/**
 * Integer centimes → DZD. Accepts the string and bigint forms that PostgreSQL drivers return
 * for bigint columns; anything that is not a whole number of centimes is a bug upstream.
 */
export function toDzd(centimes: number | string | bigint): number {
  let value: number;
  if (typeof centimes === "bigint") {
    value = Number(centimes);
  } else if (typeof centimes === "string") {
    if (!/^-?\d+$/.test(centimes.trim())) {
      throw new AppError("INTERNAL", `not a whole number of centimes: "${centimes}"`);
    }
    value = Number(centimes.trim());
  } else {
    value = centimes;
  }
  if (!Number.isSafeInteger(value)) {
    throw new AppError("INTERNAL", `not a whole number of centimes: ${String(centimes)}`);
  }
  const dzd = value / 100;
  return dzd === 0 ? 0 : dzd;
}

/** True for finite numbers a merchant may legitimately send as an amount: 19.99 yes, 19.999 no. */
export function hasAtMostTwoDecimals(n: number): boolean {
  if (typeof n !== "number" || !Number.isFinite(n)) return false;
  const scaled = scaledToCentimes(n);
  return Number.isSafeInteger(scaled);
}
