import { ApiError, call } from "./api";
import { SERVER_HAS_OFFLINE_HANDOVER } from "./features";

/**
 * Offline hand-over: for each parcel on the shelf the server gives a PIN verifier (a salted slow
 * hash, never the PIN; docs/decisions/0032), kept on the phone. With no network the PIN is checked
 * against it, with the server's own rule of 5 wrong tries then locked, counted here per parcel
 * and PIN version. The hand-over then waits in the outbox with `offline: true` and the version.
 */
export interface Verifier {
  alg: string;
  salt: string;
  iterations?: number;
  hash: string;
}

export interface OfflineVerifier {
  trackingNumber: string;
  codToCollectDzd: number | null;
  pinVersion: number;
  verifier: Verifier;
}

const VERIFIERS = "counter.verifiers";
const TRIES = "counter.offlineTries";
/** The offline PIN hand-overs this device may still record today, as the server last said (issue 43). */
const PIN_LEFT = "counter.offlinePinLeft";
export const MAX_TRIES = 5;

/** The phone's calendar day: the server's limit is per Algiers day, which is the shops'. */
const today = () => new Date().toDateString();

export async function refreshVerifiers(): Promise<void> {
  if (!SERVER_HAS_OFFLINE_HANDOVER) return;
  try {
    const answer = await call<{ items: OfflineVerifier[]; pinHandoversLeftToday?: number }>("GET", "/offline-verifiers");
    localStorage.setItem(VERIFIERS, JSON.stringify(answer.items));
    localStorage.setItem(PIN_LEFT, JSON.stringify({ day: today(), left: answer.pinHandoversLeftToday ?? 0 }));
  } catch (err) {
    // A server without offline hand-over (404) leaves none: the app then hands over online only.
    if (err instanceof ApiError && err.status === 404) localStorage.removeItem(VERIFIERS);
  }
}

/**
 * The parcel's verifier where the operator's limits still let this phone hand it over offline with
 * the PIN: the server sends none for a COD, valuable or locked parcel, and the phone counts down the
 * day's allowance it was given. Undefined: offline, only the recipient's pickup pass hands it over.
 */
export function offlinePinVerifier(trackingNumber: string): OfflineVerifier | undefined {
  const raw = localStorage.getItem(PIN_LEFT);
  const allowance = raw ? (JSON.parse(raw) as { day: string; left: number }) : null;
  if (!allowance || allowance.day !== today() || allowance.left <= 0) return undefined;
  return verifierOf(trackingNumber);
}

/** One offline PIN hand-over done: one fewer for the day. */
export function spendOfflinePin(): void {
  const raw = localStorage.getItem(PIN_LEFT);
  const allowance = raw ? (JSON.parse(raw) as { day: string; left: number }) : null;
  if (allowance) localStorage.setItem(PIN_LEFT, JSON.stringify({ ...allowance, left: Math.max(0, allowance.left - 1) }));
}

export function verifierOf(trackingNumber: string): OfflineVerifier | undefined {
  const raw = localStorage.getItem(VERIFIERS);
  const all = raw ? (JSON.parse(raw) as OfflineVerifier[]) : [];
  return all.find(v => v.trackingNumber === trackingNumber);
}

function triesKey(v: OfflineVerifier): string {
  return `${v.trackingNumber}#${v.pinVersion}`;
}

function readTries(): Record<string, number> {
  return JSON.parse(localStorage.getItem(TRIES) ?? "{}") as Record<string, number>;
}

export function wrongTries(v: OfflineVerifier): number {
  return readTries()[triesKey(v)] ?? 0;
}

function decode(text: string): Uint8Array<ArrayBuffer> {
  if (/^[0-9a-f]+$/i.test(text) && text.length % 2 === 0) return Uint8Array.from(text.match(/../g)!.map(b => parseInt(b, 16)));
  const base64 = text.replace(/-/g, "+").replace(/_/g, "/");
  return Uint8Array.from(atob(base64 + "=".repeat((4 - (base64.length % 4)) % 4)), c => c.charCodeAt(0));
}

async function derive(pin: string, v: Verifier, length: number): Promise<Uint8Array> {
  const material = await crypto.subtle.importKey("raw", new TextEncoder().encode(pin), "PBKDF2", false, ["deriveBits"]);
  const bits = await crypto.subtle.deriveBits(
    { name: "PBKDF2", hash: "SHA-256", salt: decode(v.salt), iterations: v.iterations ?? 100_000 },
    material,
    length * 8
  );
  return new Uint8Array(bits);
}

export type PinCheck = { ok: true } | { ok: false; locked: boolean; triesLeft: number };

/** Checks a PIN against the parcel's verifier; a wrong one counts, the 5th locks the parcel on this phone. */
export async function checkPin(v: OfflineVerifier, pin: string): Promise<PinCheck> {
  const tries = readTries();
  const key = triesKey(v);
  if ((tries[key] ?? 0) >= MAX_TRIES) return { ok: false, locked: true, triesLeft: 0 };
  const expected = decode(v.verifier.hash);
  const actual = await derive(pin, v.verifier, expected.length);
  let same = actual.length === expected.length;
  for (let i = 0; i < expected.length; i++) same = same && actual[i] === expected[i];
  if (same) return { ok: true };
  tries[key] = (tries[key] ?? 0) + 1;
  localStorage.setItem(TRIES, JSON.stringify(tries));
  return { ok: false, locked: tries[key] >= MAX_TRIES, triesLeft: MAX_TRIES - tries[key] };
}
