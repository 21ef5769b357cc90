import { createHmac, timingSafeEqual } from "node:crypto";
import { relaySignatureKeyOf } from "./secrets";

/**
 * The `X-Relay-Signature` scheme of SPEC §6, kept exactly as it is: `sha256=` + hex HMAC-SHA256 of
 * the raw request body with the organisation's webhook secret. It covers the body only, so the
 * timestamp sent beside it proves nothing; the Standard Webhooks signature (standard-signature.ts)
 * covers the delivery id and the timestamp too.
 *
 * Verify the bytes exactly as received, before any JSON parsing: re-serialising a parsed body
 * changes spacing and key order and breaks the signature.
 */

const SIGNATURE_PREFIX = "sha256=";
const HEX_DIGEST_PATTERN = /^[0-9a-fA-F]{64}$/;

function hmacSha256(rawBody: string | Buffer, secret: string): Buffer {
  return createHmac("sha256", relaySignatureKeyOf(secret)).update(rawBody).digest();
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
