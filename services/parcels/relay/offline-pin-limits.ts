import type { AppConfig } from "../../../lib/config";
import { MAX_PIN_FAILURES } from "../../../lib/pickup-pin";

/**
 * Where the 6-digit PIN may still hand a parcel over offline (issue 43, decision 0047). A PIN
 * verifier on a phone can be brute-forced (10^6 PINs: hours on a laptop, seconds on a GPU), so the
 * operator bounds what a cracked one is worth: no COD parcel (OFFLINE_PIN_FOR_COD), nothing declared
 * above OFFLINE_PIN_MAX_DECLARED_VALUE_DZD, no parcel already locked by wrong PINs, and a few such
 * hand-overs per device and day. A pickup pass needs none of this: it is verified, not guessed.
 */

export type OfflinePinLimits = AppConfig["offlinePin"];

export interface OfflinePinSubject {
  codStatus: string | null;
  codAmountCentimes: number | null;
  declaredValueCentimes: number | null;
  pickupPinFailures: number;
}

/**
 * Why this parcel may not be handed over offline with a PIN, or null when it may. A parcel locked
 * by wrong PINs gets no verifier either (`verifierAllowed`); at the sync its lock answers itself
 * (423 PIN_LOCKED, handover.ts).
 */
export function offlinePinRefusal(parcel: OfflinePinSubject, limits: OfflinePinLimits): string | null {
  const cod = parcel.codStatus === "PENDING" && (parcel.codAmountCentimes ?? 0) > 0;
  if (cod && !limits.forCod) return "it has cash to collect (OFFLINE_PIN_FOR_COD is off)";
  if (parcel.declaredValueCentimes !== null && parcel.declaredValueCentimes > limits.maxDeclaredValueDzd * 100) {
    return `it is declared above ${limits.maxDeclaredValueDzd} DZD (OFFLINE_PIN_MAX_DECLARED_VALUE_DZD)`;
  }
  return null;
}

/** A verifier is sent for a parcel the limits allow and no wrong PINs have locked. */
export function verifierAllowed(parcel: OfflinePinSubject, limits: OfflinePinLimits): boolean {
  return parcel.pickupPinFailures < MAX_PIN_FAILURES && offlinePinRefusal(parcel, limits) === null;
}

/** A parcel flagged for its offline tries: more than the five the server allows, counted on devices. */
export function tooManyOfflineTries(offlineFailures: number): boolean {
  return offlineFailures > MAX_PIN_FAILURES;
}
