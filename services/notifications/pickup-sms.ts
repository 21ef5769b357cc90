import { formatDzd } from "../../lib/labels/label-data";

/** What `parcels.relayPoint` answers (address and city may be missing from the directory). */
export interface RelayPointInfo {
  code: string;
  name: string | null;
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

/** Directory text may hold line breaks or runs of spaces; an SMS is one paragraph. */
function oneLine(text: string | null | undefined): string {
  return (text ?? "").replace(/\s+/g, " ").trim();
}

/**
 * The pick-up SMS, in French: the tracking number, where to collect (name, code, address) and
 * the cash to bring when the parcel is cash-on-delivery, and the pick-up PIN the relay point asks
 * for. The recipient's name is left out: the
 * message goes to their own phone, and a shorter text costs fewer SMS segments.
 */
export function composePickupSms(input: PickupSmsInput): string {
  const name = oneLine(input.relay.name);
  const address = oneLine(input.relay.address);
  const city = oneLine(input.relay.city);
  const where = [name ? `${name} (${input.relay.code})` : input.relay.code];
  if (address) where.push(address);
  if (city && !address.toLowerCase().includes(city.toLowerCase())) where.push(city);
  const lines = [`Votre colis ${input.trackingNumber} est arrivé au point relais ${where.join(", ")}.`];
  if (input.codAmountDzd !== null && input.codAmountDzd > 0) lines.push(`Montant à payer: ${formatDzd(input.codAmountDzd)}.`);
  if (input.pin !== null) lines.push(`Code de retrait: ${input.pin}.`);
  lines.push(
    input.pin !== null
      ? "Donnez ce code et présentez une pièce d'identité pour le retirer."
      : "Présentez ce SMS et une pièce d'identité pour le retirer."
  );
  return lines.join(" ");
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
