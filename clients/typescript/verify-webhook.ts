import { createHmac, timingSafeEqual } from "node:crypto";

/**
 * Verifies a relay-parcels webhook before you trust it. Depends on nothing but node:crypto, so it
 * can be copied into any Node.js project as is.
 *
 * Every delivery carries two signatures; check the Standard Webhooks one:
 *
 *   webhook-id: <delivery id>            the same on every retry: process each id once
 *   webhook-timestamp: <unix seconds>    when this attempt was sent
 *   webhook-signature: v1,<base64 HMAC-SHA256 of "<id>.<timestamp>.<raw body>"> [v1,<…> while we rotate your secret]
 *   X-Relay-Signature: sha256=<hex HMAC-SHA256 of the raw body>   (older scheme: body only, replayable)
 *
 *   // Express: keep the raw bytes, e.g. app.post("/hooks/relay", express.raw({ type: "application/json" }), handler)
 *   const hook = parseStandardWebhook(req.body, req.headers, process.env.RELAY_WEBHOOK_SECRET!);
 *   if (!hook) return res.sendStatus(401);
 *   // process hook.event once per hook.deliveryId, then answer 2xx within 15 s
 *
 * The same check with the official library (`npm install standardwebhooks`), which needs your
 * secret in its Standard Webhooks form (`whsec_…`: the secret itself when the back-office generated
 * it, `whsec_` + base64 of your secret when you chose it; `standardWebhooksSecret()` below):
 *
 *   import { Webhook } from "standardwebhooks";
 *   const event = new Webhook(process.env.RELAY_WEBHOOK_SECRET_WHSEC!).verify(req.body, req.headers as Record<string, string>); // throws if not genuine
 *
 * Always verify the raw body as received: a body parsed and serialised again differs in spacing or
 * key order and no longer matches.
 *
 * Ordering: deliveries may arrive late (retries) or, across parcels, out of order. Each event
 * carries `occurredAt` (when the status changed) and `sequence` (per parcel, increasing with each
 * of its events): keep the highest sequence applied per parcel and ignore an event whose sequence
 * is not higher.
 */

const PREFIX = "sha256=";
const HEX_SHA256 = /^[0-9a-fA-F]{64}$/;
const STANDARD_PREFIX = "whsec_";
const UNIX_SECONDS = /^\d{1,15}$/;

/** Five minutes, as the Standard Webhooks libraries allow, either way (for clocks a little off). */
export const TIMESTAMP_TOLERANCE_SECONDS = 300;

type HeaderValue = string | string[] | undefined;

function secretList(secret: string | readonly string[]): string[] {
  const list = typeof secret === "string" ? [secret] : [...secret];
  return list.filter(s => typeof s === "string" && s.length > 0);
}

/**
 * True when `signatureHeader` is the signature of `rawBody` with `secret` (or with one of several
 * secrets, while you rotate them). Constant-time; false, never an exception, for anything malformed.
 */
export function verifyWebhookSignature(
  rawBody: string | Uint8Array,
  signatureHeader: HeaderValue,
  secret: string | readonly string[]
): boolean {
  const header = Array.isArray(signatureHeader) ? signatureHeader[0] : signatureHeader;
  if (typeof header !== "string") return false;
  const value = header.trim();
  if (!value.toLowerCase().startsWith(PREFIX)) return false;
  const hex = value.slice(PREFIX.length);
  if (!HEX_SHA256.test(hex)) return false;
  const given = Buffer.from(hex, "hex");
  let valid = false;
  for (const s of secretList(secret)) {
    const expected = createHmac("sha256", s).update(rawBody).digest();
    // Every secret is tried, whatever the outcome, so timing tells nothing either.
    if (timingSafeEqual(expected, given)) valid = true;
  }
  return valid;
}

/**
 * The HMAC key of the Standard Webhooks signature for your secret: the bytes after `whsec_` when
 * the rest is canonical base64 (secrets the back-office generates), else the secret's own UTF-8
 * bytes (a secret you chose). Give this function the secret exactly as you set or received it.
 */
export function standardWebhookKey(secret: string): Buffer {
  if (secret.startsWith(STANDARD_PREFIX)) {
    const encoded = secret.slice(STANDARD_PREFIX.length);
    const key = Buffer.from(encoded, "base64");
    if (key.length > 0 && key.toString("base64") === encoded) return key;
  }
  return Buffer.from(secret, "utf8");
}

/** Your secret in the form the official `standardwebhooks` libraries expect (`whsec_…`). */
export function standardWebhooksSecret(secret: string): string {
  return STANDARD_PREFIX + standardWebhookKey(secret).toString("base64");
}

export type StandardWebhookVerdict = "valid" | "invalid_headers" | "timestamp_outside_tolerance" | "no_matching_signature";

export interface StandardWebhookOptions {
  /** Default TIMESTAMP_TOLERANCE_SECONDS. */
  toleranceSeconds?: number;
  /** The current unix time in seconds; default the clock. */
  nowSeconds?: number;
}

function single(headers: Record<string, HeaderValue>, name: string): string | undefined {
  const key = Object.keys(headers).find(k => k.toLowerCase() === name);
  const value = key === undefined ? undefined : headers[key];
  return Array.isArray(value) ? value[0] : value;
}

function sameText(a: string, b: string): boolean {
  const x = Buffer.from(a, "utf8");
  const y = Buffer.from(b, "utf8");
  // Lengths are public (every genuine signature has the same); the contents are compared in constant time.
  return x.length === y.length && timingSafeEqual(x, y);
}

/**
 * Checks the Standard Webhooks headers of a delivery: present, a timestamp within the tolerance of
 * now (a captured delivery replayed later is refused), and one `v1,` signature of
 * "<webhook-id>.<webhook-timestamp>.<raw body>" made with your secret (or one of your secrets).
 */
export function checkStandardWebhook(
  rawBody: string | Uint8Array,
  headers: Record<string, HeaderValue>,
  secret: string | readonly string[],
  options: StandardWebhookOptions = {}
): StandardWebhookVerdict {
  const id = single(headers, "webhook-id");
  const timestamp = single(headers, "webhook-timestamp");
  const signatures = single(headers, "webhook-signature");
  const secrets = secretList(secret);
  if (!id || !timestamp || !signatures || !UNIX_SECONDS.test(timestamp)) return "invalid_headers";
  const now = options.nowSeconds ?? Math.floor(Date.now() / 1000);
  const tolerance = options.toleranceSeconds ?? TIMESTAMP_TOLERANCE_SECONDS;
  if (Math.abs(now - Number(timestamp)) > tolerance) return "timestamp_outside_tolerance";
  const given = signatures
    .split(" ")
    .filter(entry => entry.startsWith("v1,"))
    .map(entry => entry.slice(3));
  let valid = false;
  for (const s of secrets) {
    const expected = createHmac("sha256", standardWebhookKey(s)).update(`${id}.${timestamp}.`).update(rawBody).digest("base64");
    for (const signature of given) if (sameText(expected, signature)) valid = true;
  }
  return valid ? "valid" : "no_matching_signature";
}

export function verifyStandardWebhook(
  rawBody: string | Uint8Array,
  headers: Record<string, HeaderValue>,
  secret: string | readonly string[],
  options: StandardWebhookOptions = {}
): boolean {
  return checkStandardWebhook(rawBody, headers, secret, options) === "valid";
}

export interface RelayWebhookEvent {
  id: string;
  type: string;
  createdAt: string;
  /** When the status changed. */
  occurredAt?: string;
  /** Per parcel, increasing with each of its events: apply an event only above the last one applied. */
  sequence?: number;
  sandbox: boolean;
  reason: string | null;
  data: { previousStatus: string | null; parcel: Record<string, unknown> & { id: string; status: string; trackingNumber: string } };
}

export interface VerifiedWebhook {
  deliveryId: string;
  eventType: string;
  event: RelayWebhookEvent;
}

function parseEvent(rawBody: string | Uint8Array): RelayWebhookEvent | null {
  try {
    const event = JSON.parse(typeof rawBody === "string" ? rawBody : Buffer.from(rawBody).toString("utf8")) as RelayWebhookEvent;
    return event && typeof event === "object" && typeof event.type === "string" ? event : null;
  } catch {
    return null;
  }
}

/**
 * Checks the Standard Webhooks signature and timestamp, then parses the body; null when the
 * request is not a genuine, fresh, well-formed relay-parcels webhook. `headers` is Node's
 * `req.headers` (any letter case).
 */
export function parseStandardWebhook(
  rawBody: string | Uint8Array,
  headers: Record<string, HeaderValue>,
  secret: string | readonly string[],
  options: StandardWebhookOptions = {}
): VerifiedWebhook | null {
  if (!verifyStandardWebhook(rawBody, headers, secret, options)) return null;
  const event = parseEvent(rawBody);
  const eventType = single(headers, "x-relay-event");
  const deliveryId = single(headers, "webhook-id");
  if (!event || !deliveryId || (eventType !== undefined && eventType !== event.type)) return null;
  return { deliveryId, eventType: event.type, event };
}

/**
 * The older check, on X-Relay-Signature only (the body, not the timestamp: a captured delivery can
 * be replayed). Verifies the signature, then parses the body; null when the request is not a
 * genuine, well-formed relay-parcels webhook. Prefer parseStandardWebhook.
 */
export function parseVerifiedWebhook(
  rawBody: string | Uint8Array,
  headers: Record<string, HeaderValue>,
  secret: string | readonly string[]
): VerifiedWebhook | null {
  if (!verifyWebhookSignature(rawBody, single(headers, "x-relay-signature"), secret)) return null;
  const event = parseEvent(rawBody);
  const eventType = single(headers, "x-relay-event");
  const deliveryId = single(headers, "x-relay-delivery-id");
  if (!event || event.type !== eventType || !deliveryId) return null;
  return { deliveryId, eventType, event };
}
