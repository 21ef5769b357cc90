import { createHmac } from "node:crypto";
import { standardSignatureKeyOf } from "./secrets";

/**
 * The Standard Webhooks symmetric signature (standardwebhooks.com, "Signature scheme"):
 * `v1,` + base64 HMAC-SHA256 of `<webhook-id>.<webhook-timestamp>.<raw body>`. Signing the id and
 * the attempt's timestamp with the body is what lets a receiver refuse a replayed delivery (stale
 * timestamp) and tell one delivery from another (id), which `X-Relay-Signature` cannot.
 */

export const STANDARD_SIGNATURE_VERSION = "v1";

/**
 * The id is part of the signed content, delimited by dots, and travels in a header: the spec asks
 * that it hold no dot; we allow only what our delivery ids (uuids) and the spec's examples use.
 */
const MESSAGE_ID_PATTERN = /^[A-Za-z0-9_-]{1,128}$/;

export function assertStandardMessageId(id: string): void {
  if (!MESSAGE_ID_PATTERN.test(id)) throw new RangeError(`webhook id must match ${MESSAGE_ID_PATTERN}, got ${JSON.stringify(id)}`);
}

export function assertUnixSeconds(timestampSeconds: number): void {
  if (!Number.isSafeInteger(timestampSeconds) || timestampSeconds < 0) {
    throw new RangeError(`webhook timestamp must be a non-negative integer of seconds, got ${timestampSeconds}`);
  }
}

/** One `v1,<base64>` entry of the `webhook-signature` header. */
export function signStandardWebhook(id: string, timestampSeconds: number, rawBody: string | Buffer, secret: string): string {
  assertStandardMessageId(id);
  assertUnixSeconds(timestampSeconds);
  const digest = createHmac("sha256", standardSignatureKeyOf(secret)).update(`${id}.${timestampSeconds}.`).update(rawBody).digest("base64");
  return `${STANDARD_SIGNATURE_VERSION},${digest}`;
}
