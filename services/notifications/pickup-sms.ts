/** What `parcels.relayPoint` answers (address and city may be missing from the directory). */
export interface RelayPointInfo {
  code: string;
  name: string | null;
  /** Its name in Arabic script: the name an Arabic SMS gives. */
  nameAr: string | null;
  city: string | null;
  address: string | null;
}

export interface PickupSmsInput {
  trackingNumber: string;
  relay: RelayPointInfo;
  codAmountDzd: number | null;
  /** The pick-up PIN (or its mask, for the stored copy); null for a parcel without one. */
  pin: string | null;
}

/**
 * Waits between send attempts: five attempts in all (now, 5 s, 30 s, 2 min, 10 min). An SMS
 * that is hours late is of little use to someone waiting for a parcel, so the schedule is short.
 */
export const SMS_RETRY_DELAYS_MS: readonly number[] = Object.freeze([5_000, 30_000, 120_000, 600_000]);

const JITTER_RATIO = 0.1;

/** Wait after `attemptsMade` failed attempts, or null when the message is out of attempts. */
export function smsRetryDelayMs(
  attemptsMade: number,
  delaysMs: readonly number[] = SMS_RETRY_DELAYS_MS,
  random: () => number = Math.random
): number | null {
  if (attemptsMade < 1 || attemptsMade > delaysMs.length) return null;
  const factor = 1 - JITTER_RATIO + 2 * JITTER_RATIO * random();
  return Math.round(delaysMs[attemptsMade - 1] * factor);
}

/**
 * Wait before asking `parcels` again for the RELAY_NOTIFIED transition of a sent SMS: doubling
 * from `baseMs`, capped at five minutes, and never giving up (the SMS went out; the parcel must
 * follow).
 */
export function notifyRetryDelayMs(notifyAttempts: number, baseMs: number): number {
  const exponent = Math.min(Math.max(notifyAttempts - 1, 0), 16);
  return Math.min(baseMs * 2 ** exponent, 5 * 60_000);
}
