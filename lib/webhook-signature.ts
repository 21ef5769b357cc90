import { createHmac, timingSafeEqual } from "node:crypto";

/**
 * The `X-Relay-Signature` scheme of DESIGN §3: `sha256=` + hex HMAC-SHA256 of the raw request
 * body with the organisation's webhook secret. Merchants may copy this file as is, which is why it
 * depends on nothing but `node:crypto`.
 *
 * Verify the bytes exactly as received, before any JSON parsing: re-serialising a parsed body
 * changes spacing and key order and breaks the signature. Replays are recognised by the
 * `X-Relay-Delivery-Id` header, which stays the same on every retry of one delivery.
 */

const SIGNATURE_PREFIX = "sha256=";
const HEX_DIGEST_PATTERN = /^[0-9a-fA-F]{64}$/;

function hmacSha256(rawBody: string | Buffer, secret: string): Buffer {
  return createHmac("sha256", secret).update(rawBody).digest();
}

export function signWebhookBody(rawBody: string | Buffer, secret: string): string {
  return SIGNATURE_PREFIX + hmacSha256(rawBody, secret).toString("hex");
}

export function verifyWebhookSignature(rawBody: string | Buffer, header: string | undefined, secret: string): boolean {
  if (typeof header !== "string") return false;
  const value = header.trim();
  if (!value.startsWith(SIGNATURE_PREFIX)) return false;
  const hex = value.slice(SIGNATURE_PREFIX.length);
  // Checked first so that the constant-time comparison below always sees two 32-byte buffers.
  if (!HEX_DIGEST_PATTERN.test(hex)) return false;
  return timingSafeEqual(hmacSha256(rawBody, secret), Buffer.from(hex, "hex"));
}
