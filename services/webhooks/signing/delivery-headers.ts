import { signWebhookBody } from "./relay-signature";
import { activeSigningSecrets, EndpointSecret, Instant, millisOf } from "./rotation";
import { assertStandardMessageId, signStandardWebhook } from "./standard-signature";

/**
 * Every identity and signature header of one delivery attempt: the SPEC's `X-Relay-*` ones
 * (unchanged) and, beside them, the Standard Webhooks ones, so that the official `standardwebhooks`
 * libraries verify our deliveries as they are. The caller adds `Content-Type`, `User-Agent` and
 * `X-Relay-Event`, and sends `body` byte for byte.
 */
// A type, not an interface, so that it fits wherever a Record<string, string> of headers is expected.
export type DeliverySignatureHeaders = {
  "X-Relay-Delivery-Id": string;
  /** Unix seconds of this attempt; the same value as webhook-timestamp. */
  "X-Relay-Timestamp": string;
  /** `sha256=<hex>` with the newest secret (the SPEC's header holds one signature). */
  "X-Relay-Signature": string;
  /** The delivery id again: the same on every retry, the receiver's idempotency key. */
  "webhook-id": string;
  "webhook-timestamp": string;
  /** `v1,<base64>` per valid secret, newest first, separated by one space. */
  "webhook-signature": string;
};

export interface DeliveryToSign {
  deliveryId: string;
  /** The exact bytes that will be sent. */
  body: string | Buffer;
  /** The endpoint's secrets with their validity (see rotation.ts). */
  secrets: readonly EndpointSecret[];
  /** When this attempt is made; its whole second becomes the timestamp. */
  now: Instant;
}

export class NoActiveWebhookSecretError extends Error {
  constructor() {
    super("the endpoint has no webhook secret valid now");
    this.name = "NoActiveWebhookSecretError";
  }
}

/**
 * Signs one attempt. The timestamp is the attempt's, not the event's: receivers refuse timestamps
 * older than 5 minutes, and a retry a day later must still pass. Throws NoActiveWebhookSecretError
 * when every secret has expired (the caller must not send an unsigned delivery), RangeError for a
 * delivery id unfit for the signed content.
 */
export function signWebhookDelivery({ deliveryId, body, secrets, now }: DeliveryToSign): DeliverySignatureHeaders {
  assertStandardMessageId(deliveryId);
  const signing = activeSigningSecrets(secrets, now).filter(secret => secret.length > 0);
  if (signing.length === 0) throw new NoActiveWebhookSecretError();
  const timestamp = Math.floor(millisOf(now) / 1000);
  return {
    "X-Relay-Delivery-Id": deliveryId,
    "X-Relay-Timestamp": String(timestamp),
    "X-Relay-Signature": signWebhookBody(body, signing[0]),
    "webhook-id": deliveryId,
    "webhook-timestamp": String(timestamp),
    "webhook-signature": signing.map(secret => signStandardWebhook(deliveryId, timestamp, body, secret)).join(" ")
  };
}
