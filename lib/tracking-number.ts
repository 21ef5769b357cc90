import { isValidTrackingNumber } from "./s10";

/**
 * Tracking numbers as people type them: from a label, an SMS or a phone keyboard, with spaces,
 * in lower case, or with the Arabic-Indic digits of an Arabic keyboard (١٢٣ / ۱۲۳).
 */

/** Longer input is not a tracking number however it is cleaned; refuse it before any work. */
export const MAX_TRACKING_INPUT_LENGTH = 64;

const ARABIC_INDIC_ZERO = 0x0660;
const EXTENDED_ARABIC_INDIC_ZERO = 0x06f0;

function westernDigit(char: string): string {
  const code = char.charCodeAt(0);
  if (code >= ARABIC_INDIC_ZERO && code <= ARABIC_INDIC_ZERO + 9) return String(code - ARABIC_INDIC_ZERO);
  return String(code - EXTENDED_ARABIC_INDIC_ZERO);
}

/**
 * Trim, drop every kind of space (and the dashes and dots people put between groups), fold
 * full-width forms (NFKC) and Arabic-Indic digits, upper-case. `" rp 1234 5678 5dz "` →
 * `"RP123456785DZ"`.
 */
export function normaliseTrackingNumber(input: string): string {
  if (typeof input !== "string") return "";
  return input
    .slice(0, MAX_TRACKING_INPUT_LENGTH * 4)
    .normalize("NFKC")
    .replace(/[\u0660-\u0669\u06f0-\u06f9]/g, westernDigit)
    .replace(/[\s\u200b-\u200f\u2060\ufeff.\-‐‑‒–—]/g, "")
    .toUpperCase();
}

export type TrackingInput = { ok: true; trackingNumber: string } | { ok: false; reason: "empty" | "malformed"; normalised: string };

/**
 * What a person typed, cleaned and checked: the S10 shape (two letters, eight digits, the mod-11
 * check digit, the country) of lib/s10.ts. A failed check digit is a typo: no lookup needed.
 */
export function parseTrackingInput(input: string | null | undefined): TrackingInput {
  const normalised = normaliseTrackingNumber(input ?? "");
  if (normalised === "") return { ok: false, reason: "empty", normalised };
  if (normalised.length > MAX_TRACKING_INPUT_LENGTH || !isValidTrackingNumber(normalised)) {
    return { ok: false, reason: "malformed", normalised: normalised.slice(0, MAX_TRACKING_INPUT_LENGTH) };
  }
  return { ok: true, trackingNumber: normalised };
}

/** True when the input, once cleaned, has the S10 shape and a right check digit. */
export function hasTrackingNumberShape(input: string): boolean {
  return parseTrackingInput(input).ok;
}
