import { randomInt, timingSafeEqual } from "node:crypto";

/**
 * The pick-up PIN of a live parcel: six digits from the system's cryptographic generator, sent in
 * the pick-up SMS and asked by the relay point at hand-over (the back-office DELIVERED move). A
 * million values and five tries before the parcel locks: a guess succeeds once in 200 000.
 */
export const PIN_LENGTH = 6;
export const PIN_PATTERN = /^[0-9]{6}$/;
export const MAX_PIN_FAILURES = 5;

export function generatePickupPin(): string {
  return String(randomInt(0, 10 ** PIN_LENGTH)).padStart(PIN_LENGTH, "0");
}

/** Constant time: how many leading digits are right must not show in the answer's timing. */
export function pinMatches(expected: string, given: string): boolean {
  const a = Buffer.from(expected.padEnd(16, "\0"));
  const b = Buffer.from(given.padEnd(16, "\0").slice(0, 16));
  return a.length === b.length && timingSafeEqual(a, b) && expected.length === given.length;
}

export type PinVerdict = { ok: true } | { ok: false; reason: "missing" | "locked" | "wrong"; failures: number; attemptsLeft: number };

/**
 * What a hand-over with `given` gets, before any change: a locked parcel refuses even the right
 * PIN (only an operator's reset, which sends a new one, unlocks it), so that the fifth wrong guess
 * is the last one.
 */
export function judgePin(expected: string, given: string | null, failures: number): PinVerdict {
  if (failures >= MAX_PIN_FAILURES) return { ok: false, reason: "locked", failures, attemptsLeft: 0 };
  if (given === null) return { ok: false, reason: "missing", failures, attemptsLeft: MAX_PIN_FAILURES - failures };
  if (pinMatches(expected, given)) return { ok: true };
  const after = failures + 1;
  return { ok: false, reason: "wrong", failures: after, attemptsLeft: MAX_PIN_FAILURES - after };
}

/** The PIN as the SMS log and support see it: never the digits. */
export const MASKED_PIN = "******";
