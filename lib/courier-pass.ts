import { createHmac, timingSafeEqual } from "node:crypto";

/**
 * The courier pass (issue 44 C, decision 0057): the short-lived QR a relay point's counter app
 * shows and the courier scans to prove it stands at that counter. It names the relay point and an
 * expiry, signed with HMAC-SHA256 under a key derived from the services' shared encryption key
 * (parcels signs, logistics checks; no other secret to distribute). Text of upper case, digits,
 * dots and hyphens only, so it fits a QR's alphanumeric mode: `RC1.<relay code>.<expiry, unix s>.<MAC, hex>`.
 */

export const COURIER_PASS_TTL_SECONDS = 120;
const PASS_SHAPE = /^RC1\.(DZ-[A-Z0-9-]{3,30})\.([0-9]{10})\.([0-9A-F]{32})$/;

function macOf(encryptionKey: string, relayCode: string, expiresAt: number): string {
  const key = createHmac("sha256", encryptionKey).update("relay-parcels courier pass key 1").digest();
  return createHmac("sha256", key).update(`${relayCode}\n${expiresAt}`).digest("hex").slice(0, 32).toUpperCase();
}

export function signCourierPass(encryptionKey: string, relayCode: string, now = new Date()): { token: string; expiresAt: Date } {
  const expiresAt = Math.floor(now.getTime() / 1000) + COURIER_PASS_TTL_SECONDS;
  return { token: `RC1.${relayCode}.${expiresAt}.${macOf(encryptionKey, relayCode, expiresAt)}`, expiresAt: new Date(expiresAt * 1000) };
}

export type CourierPassCheck = { ok: true; expiresAt: Date } | { ok: false; reason: "MALFORMED" | "FORGED" | "OTHER_RELAY" | "EXPIRED" };

/** The pass is this relay point's, signed by us, and not expired. */
export function checkCourierPass(encryptionKey: string, token: string, relayCode: string, now = new Date()): CourierPassCheck {
  const match = PASS_SHAPE.exec(token.trim().toUpperCase());
  if (!match) return { ok: false, reason: "MALFORMED" };
  const [, code, expiry, mac] = match;
  const expected = Buffer.from(macOf(encryptionKey, code, Number(expiry)));
  if (!timingSafeEqual(expected, Buffer.from(mac))) return { ok: false, reason: "FORGED" };
  if (code !== relayCode) return { ok: false, reason: "OTHER_RELAY" };
  if (Number(expiry) * 1000 <= now.getTime()) return { ok: false, reason: "EXPIRED" };
  return { ok: true, expiresAt: new Date(Number(expiry) * 1000) };
}
