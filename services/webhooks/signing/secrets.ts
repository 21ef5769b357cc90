import { randomBytes } from "node:crypto";

/**
 * Webhook secrets, and the key each signature scheme derives from one.
 *
 * The back-office generates secrets in the Standard Webhooks form: `whsec_` + base64 of 32 random
 * bytes. A merchant may still set a secret of its own choosing (any string the webhooks service
 * accepts). One string per endpoint, two keys:
 *
 * - `X-Relay-Signature` (SPEC §6, unchanged) keys its HMAC with the secret string itself, as UTF-8,
 *   whatever its form: merchants verifying it today keep working.
 * - `webhook-signature` keys its HMAC the way the official Standard Webhooks libraries read a
 *   secret: the bytes base64-decoded from after `whsec_`. A secret that is not exactly
 *   `whsec_` + canonical padded base64 (a merchant's own words, or a `whsec_` string with
 *   characters outside base64) is keyed by its UTF-8 bytes instead, which the libraries reach when
 *   given `whsec_` + base64 of those bytes: that string is the secret's "Standard Webhooks form",
 *   shown to the merchant beside the secret. For a generated secret the two forms are the same
 *   string, and for a chosen one both headers are keyed by the very same bytes.
 *
 * Only canonical base64 counts as base64, because the libraries disagree on anything else (Node's
 * and Go's refuse it, PHP's and Python's skip the characters they do not know): the Standard
 * Webhooks form we show is canonical, so every library derives the same key from it.
 */

export const STANDARD_SECRET_PREFIX = "whsec_";

/** 256 bits: HMAC-SHA256 gains nothing from a longer key, and the spec asks for 24 to 64 bytes. */
export const GENERATED_SECRET_BYTES = 32;

export function generateWebhookSecret(random: (size: number) => Buffer = randomBytes): string {
  return STANDARD_SECRET_PREFIX + random(GENERATED_SECRET_BYTES).toString("base64");
}

/** The decoded key of a `whsec_<canonical base64>` secret; null for any other string. */
function decodedStandardSecret(secret: string): Buffer | null {
  if (!secret.startsWith(STANDARD_SECRET_PREFIX)) return null;
  const encoded = secret.slice(STANDARD_SECRET_PREFIX.length);
  const key = Buffer.from(encoded, "base64");
  // Node decodes leniently; re-encoding gives back the input only when it was canonical.
  return key.length > 0 && key.toString("base64") === encoded ? key : null;
}

/** True when the official libraries, given this very string, derive the key we sign with. */
export function isStandardWebhooksSecret(secret: string): boolean {
  return decodedStandardSecret(secret) !== null;
}

/** Key of the `X-Relay-Signature` HMAC. */
export function relaySignatureKeyOf(secret: string): Buffer {
  return Buffer.from(secret, "utf8");
}

/** Key of the `webhook-signature` HMAC. */
export function standardSignatureKeyOf(secret: string): Buffer {
  return decodedStandardSecret(secret) ?? Buffer.from(secret, "utf8");
}

/** The string to give the official Standard Webhooks libraries; the secret itself when generated. */
export function standardWebhooksSecretOf(secret: string): string {
  return STANDARD_SECRET_PREFIX + standardSignatureKeyOf(secret).toString("base64");
}
