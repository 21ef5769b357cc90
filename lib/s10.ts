import { randomInt } from "node:crypto";

/**
 * UPU S10 tracking numbers (DESIGN §2): two service letters, an eight-digit serial, a mod-11
 * check digit and the ISO country code of the issuing post, e.g. `RP123456785DZ`.
 */

const COUNTRY_CODE = "DZ";
const CHECK_WEIGHTS = [8, 6, 4, 2, 3, 5, 9, 7] as const;
const SHAPE = /^([A-Z]{2})(\d{8})(\d)([A-Z]{2})$/;

/**
 * The S10 check digit of an eight-digit serial. The standard maps the two impossible
 * results of `11 - (sum mod 11)`: 10 becomes 0 and 11 becomes 5.
 */
export function s10CheckDigit(eightDigits: string): number {
  if (!/^\d{8}$/.test(eightDigits)) {
    throw new RangeError(`an S10 serial is exactly 8 digits (got "${eightDigits}")`);
  }
  let sum = 0;
  for (let i = 0; i < CHECK_WEIGHTS.length; i++) sum += Number(eightDigits[i]) * CHECK_WEIGHTS[i];
  const check = 11 - (sum % 11);
  if (check === 10) return 0;
  if (check === 11) return 5;
  return check;
}

/**
 * A new tracking number. The serial comes from a CSPRNG rather than a counter so that a
 * merchant holding one number cannot enumerate its neighbours on the public tracking page.
 * Uniqueness is the caller's job (unique index, retry on collision): 10^8 serials per prefix.
 */
export function generateTrackingNumber(prefix = "RP"): string {
  if (!/^[A-Z]{2}$/.test(prefix)) {
    throw new RangeError(`an S10 service indicator is two uppercase letters (got "${prefix}")`);
  }
  const serial = String(randomInt(0, 100_000_000)).padStart(8, "0");
  return `${prefix}${serial}${s10CheckDigit(serial)}${COUNTRY_CODE}`;
}

/**
 * Shape and check digit only: any issuing country passes, so that this can also screen
 * numbers typed by people before a database lookup.
 */
export function isValidTrackingNumber(s: string): boolean {
  if (typeof s !== "string") return false;
  const match = SHAPE.exec(s);
  if (!match) return false;
  return s10CheckDigit(match[2]) === Number(match[3]);
}
