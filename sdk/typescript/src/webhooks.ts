import { createHmac, randomUUID, timingSafeEqual } from "node:crypto";
import { WebhookVerificationError } from "./errors.js";
import type { Open } from "./types.js";
import type { components } from "./generated/api.js";

/**
 * Checking our webhooks. Every delivery carries two signatures of the raw body with your endpoint's
 * secret (docs/merchants/webhooks.md):
 *   Standard Webhooks: webhook-id, webhook-timestamp, webhook-signature "v1,<base64 HMAC-SHA256 of id.timestamp.body>"
 *   ours:              X-Relay-Delivery-Id, X-Relay-Timestamp, X-Relay-Signature "sha256=<hex HMAC-SHA256 of body>"
 * `verify` checks the Standard one (it signs the timestamp, so a captured delivery cannot be
 * replayed later) and falls back to ours only when a proxy dropped the webhook-* headers.
 */

export type HeadersLike = Headers | Record<string, string | string[] | undefined>;

/** What a webhook delivers: a parcel's status change, and the other events of the API. */
export type WebhookEvent = Open<components["schemas"]["EventPage"]["items"][number]> & { id: string; type: string };

export interface VerifyOptions {
  /** Seconds either way between the delivery's timestamp and your clock. Default 300 (5 minutes). */
  toleranceSeconds?: number;
  /** Your clock, for tests: unix seconds. */
  nowSeconds?: number;
}

export interface VerifiedWebhook {
  /** The same on every retry of one delivery: process each id once. */
  deliveryId: string;
  event: WebhookEvent;
}

export const DEFAULT_TOLERANCE_SECONDS = 300;
const STANDARD_PREFIX = "whsec_";

function header(headers: HeadersLike, name: string): string | undefined {
  if (typeof (headers as Headers).get === "function") return (headers as Headers).get(name) ?? undefined;
  const record = headers as Record<string, string | string[] | undefined>;
  const key = Object.keys(record).find(k => k.toLowerCase() === name);
  const value = key === undefined ? undefined : record[key];
  return Array.isArray(value) ? value[0] : value;
}

/** The HMAC key of the Standard Webhooks signature: the bytes after `whsec_` for a generated secret, else the secret's UTF-8. */
function standardKey(secret: string): Buffer {
  if (secret.startsWith(STANDARD_PREFIX)) {
    const encoded = secret.slice(STANDARD_PREFIX.length);
    const key = Buffer.from(encoded, "base64");
    if (key.length > 0 && key.toString("base64") === encoded) return key;
  }
  return Buffer.from(secret, "utf8");
}

function sameBytes(a: Buffer, b: Buffer): boolean {
  return a.length === b.length && timingSafeEqual(a, b);
}

function standardSignature(id: string, timestamp: string, body: Buffer, secret: string): string {
  return createHmac("sha256", standardKey(secret)).update(`${id}.${timestamp}.`).update(body).digest("base64");
}

function relaySignature(body: Buffer, secret: string): string {
  return createHmac("sha256", secret).update(body).digest("hex");
}

function bytesOf(rawBody: string | Uint8Array): Buffer {
  return typeof rawBody === "string" ? Buffer.from(rawBody, "utf8") : Buffer.from(rawBody.buffer, rawBody.byteOffset, rawBody.byteLength);
}

function checkTimestamp(timestamp: string | undefined, options: VerifyOptions): void {
  if (!timestamp || !/^\d{1,15}$/.test(timestamp)) throw new WebhookVerificationError("No valid webhook timestamp", "invalid_headers");
  const now = options.nowSeconds ?? Math.floor(Date.now() / 1000);
  if (Math.abs(now - Number(timestamp)) > (options.toleranceSeconds ?? DEFAULT_TOLERANCE_SECONDS)) {
    throw new WebhookVerificationError(
      "The webhook's timestamp is outside the tolerance (replayed, or a clock far off)",
      "timestamp_outside_tolerance"
    );
  }
}

/**
 * Checks a delivery and gives its event; throws WebhookVerificationError when it is not ours, was
 * changed, or is too old. `rawBody` is the body exactly as received (not parsed and serialised
 * again); `secret` may be a list while you rotate it.
 */
export function verify(
  rawBody: string | Uint8Array,
  headers: HeadersLike,
  secret: string | readonly string[],
  options: VerifyOptions = {}
): VerifiedWebhook {
  const secrets = (typeof secret === "string" ? [secret] : [...secret]).filter(s => s.length > 0);
  if (secrets.length === 0) throw new TypeError("webhooks.verify needs your endpoint's secret");
  const body = bytesOf(rawBody);
  const id = header(headers, "webhook-id");
  const signatures = header(headers, "webhook-signature");
  let deliveryId: string;
  if (id !== undefined && signatures !== undefined) {
    const timestamp = header(headers, "webhook-timestamp");
    checkTimestamp(timestamp, options);
    const given = signatures
      .split(" ")
      .filter(s => s.startsWith("v1,"))
      .map(s => Buffer.from(s.slice(3)));
    let valid = false;
    // Every secret and signature is compared, whatever the outcome, so timing tells nothing.
    for (const s of secrets) for (const g of given) if (sameBytes(Buffer.from(standardSignature(id, timestamp!, body, s)), g)) valid = true;
    if (!valid) throw new WebhookVerificationError("No signature matches the body with this secret", "no_matching_signature");
    deliveryId = id;
  } else {
    const relay = header(headers, "x-relay-signature");
    const relayId = header(headers, "x-relay-delivery-id");
    if (relay === undefined || relayId === undefined || !/^sha256=[0-9a-fA-F]{64}$/.test(relay.trim())) {
      throw new WebhookVerificationError("No webhook signature headers", "invalid_headers");
    }
    checkTimestamp(header(headers, "x-relay-timestamp"), options);
    const given = Buffer.from(relay.trim().slice(7).toLowerCase(), "hex");
    let valid = false;
    for (const s of secrets) if (sameBytes(Buffer.from(relaySignature(body, s), "hex"), given)) valid = true;
    if (!valid) throw new WebhookVerificationError("No signature matches the body with this secret", "no_matching_signature");
    deliveryId = relayId;
  }
  let event: WebhookEvent;
  try {
    event = JSON.parse(body.toString("utf8")) as WebhookEvent;
  } catch {
    throw new WebhookVerificationError("The body is not JSON", "invalid_body");
  }
  if (event === null || typeof event !== "object" || typeof event.type !== "string") {
    throw new WebhookVerificationError("The body is not an event", "invalid_body");
  }
  return { deliveryId, event };
}

export interface TestHeadersParams {
  /** The body you will post to your handler, exactly. */
  payload: string | Uint8Array;
  secret: string;
  /** Unix seconds; default now. */
  timestamp?: number;
  /** Default a new id. */
  deliveryId?: string;
  /** The X-Relay-Event header; default the payload's `type`. */
  eventType?: string;
}

/** Headers a genuine delivery of `payload` would carry, both schemes, for your own handler's tests. */
export function testHeaders(params: TestHeadersParams): Record<string, string> {
  const body = bytesOf(params.payload);
  const timestamp = String(params.timestamp ?? Math.floor(Date.now() / 1000));
  const id = params.deliveryId ?? `msg_${randomUUID().replace(/-/g, "")}`;
  let eventType = params.eventType;
  if (eventType === undefined) {
    try {
      eventType = String((JSON.parse(body.toString("utf8")) as { type?: unknown }).type ?? "");
    } catch {
      eventType = "";
    }
  }
  return {
    "content-type": "application/json",
    "webhook-id": id,
    "webhook-timestamp": timestamp,
    "webhook-signature": `v1,${standardSignature(id, timestamp, body, params.secret)}`,
    "x-relay-delivery-id": id,
    "x-relay-timestamp": timestamp,
    "x-relay-signature": `sha256=${relaySignature(body, params.secret)}`,
    "x-relay-event": eventType
  };
}

/** `client.webhooks` and the standalone `webhooks` export. Your endpoints themselves are set up by our operators (docs/merchants/webhooks.md). */
export const webhooks = { verify, testHeaders } as const;
