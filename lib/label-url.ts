import { createHmac, timingSafeEqual } from "node:crypto";
import { API_BASE_PATH } from "./endpoint";

/** SPEC §8: a label URL is valid for about 30 minutes. */
export const LABEL_URL_TTL_SECONDS = 1800;

export type LabelSignatureVerdict = "valid" | "expired" | "invalid";

// Strict shapes: anything else is refused before any crypto, and `Number("1e3")`-style
// spellings of the same expiry cannot produce a second valid URL for one signature.
const EXPIRES_PATTERN = /^[1-9][0-9]{0,14}$/;
const SIGNATURE_PATTERN = /^[0-9a-f]{64}$/;

function labelSignature(parcelId: string, expires: string, secret: string): Buffer {
  // The dot cannot occur in a uuid, so "id.expires" cannot be confused with another pair.
  return createHmac("sha256", secret).update(`${parcelId}.${expires}`).digest();
}

/**
 * A download link for the label that needs no API key, so that a merchant can hand it to a
 * printer or a browser; the HMAC binds it to one parcel and one expiry.
 */
export function signLabelUrl(
  baseUrl: string,
  parcelId: string,
  secret: string,
  now: number = Date.now(),
  ttlSeconds: number = LABEL_URL_TTL_SECONDS
): string {
  const expires = String(Math.floor(now / 1000) + ttlSeconds);
  const signature = labelSignature(parcelId, expires, secret).toString("hex");
  const base = baseUrl.replace(/\/+$/, "");
  return `${base}${API_BASE_PATH.labels}/${encodeURIComponent(parcelId)}.pdf?expires=${expires}&signature=${signature}`;
}

/**
 * The signature is checked before the expiry, so that "expired" is only ever said about a URL we
 * really issued (a forged URL learns nothing), and a tampered expiry reads as "invalid".
 */
export function verifyLabelSignature(
  parcelId: string,
  expires: string | undefined,
  signature: string | undefined,
  secret: string,
  now: number = Date.now()
): LabelSignatureVerdict {
  if (!parcelId || !expires || !signature) return "invalid";
  if (!EXPIRES_PATTERN.test(expires) || !SIGNATURE_PATTERN.test(signature)) return "invalid";
  const expected = labelSignature(parcelId, expires, secret);
  if (!timingSafeEqual(expected, Buffer.from(signature, "hex"))) return "invalid";
  return Number(expires) * 1000 <= now ? "expired" : "valid";
}
