import { createHmac, timingSafeEqual } from "node:crypto";

/**
 * Verifies a relay-parcels webhook before you trust it. Depends on nothing but node:crypto, so it
 * can be copied into any Node.js project as is.
 *
 *   // Express: keep the raw bytes, e.g. app.post("/hooks/relay", express.raw({ type: "application/json" }), handler)
 *   const event = parseVerifiedWebhook(req.body, req.headers, process.env.RELAY_WEBHOOK_SECRET!);
 *   if (!event) return res.sendStatus(401);
 *   // process event once per X-Relay-Delivery-Id, then answer 2xx within 15 s
 *
 * The signature header is `X-Relay-Signature: sha256=<hex HMAC-SHA256 of the raw body with the
 * secret>`. Always verify the raw body as received: a body parsed and serialised again differs in
 * spacing or key order and no longer matches.
 */

const PREFIX = "sha256=";
const HEX_SHA256 = /^[0-9a-fA-F]{64}$/;

type HeaderValue = string | string[] | undefined;

/**
 * True when `signatureHeader` is the signature of `rawBody` with `secret` (or with one of several
 * secrets, while you rotate them). Constant-time; false, never an exception, for anything malformed.
 */
export function verifyWebhookSignature(rawBody: string | Uint8Array, signatureHeader: HeaderValue, secret: string | readonly string[]): boolean {
  const header = Array.isArray(signatureHeader) ? signatureHeader[0] : signatureHeader;
  if (typeof header !== "string") return false;
  const value = header.trim();
  if (!value.toLowerCase().startsWith(PREFIX)) return false;
  const hex = value.slice(PREFIX.length);
  if (!HEX_SHA256.test(hex)) return false;
  const given = Buffer.from(hex, "hex");
  const secrets = typeof secret === "string" ? [secret] : secret;
  let valid = false;
  for (const s of secrets) {
    if (typeof s !== "string" || s.length === 0) continue;
    const expected = createHmac("sha256", s).update(rawBody).digest();
    // Every secret is tried, whatever the outcome, so timing tells nothing either.
    if (timingSafeEqual(expected, given)) valid = true;
  }
  return valid;
}

export interface RelayWebhookEvent {
  id: string;
  type: string;
  createdAt: string;
  sandbox: boolean;
  reason: string | null;
  data: { previousStatus: string | null; parcel: Record<string, unknown> & { id: string; status: string; trackingNumber: string } };
}

export interface VerifiedWebhook {
  deliveryId: string;
  eventType: string;
  event: RelayWebhookEvent;
}

function single(headers: Record<string, HeaderValue>, name: string): string | undefined {
  const key = Object.keys(headers).find(k => k.toLowerCase() === name);
  const value = key === undefined ? undefined : headers[key];
  return Array.isArray(value) ? value[0] : value;
}

/**
 * Verifies the signature, then parses the body; null when the request is not a genuine, well-formed
 * relay-parcels webhook. `headers` is Node's `req.headers` (any letter case).
 */
export function parseVerifiedWebhook(
  rawBody: string | Uint8Array,
  headers: Record<string, HeaderValue>,
  secret: string | readonly string[]
): VerifiedWebhook | null {
  if (!verifyWebhookSignature(rawBody, single(headers, "x-relay-signature"), secret)) return null;
  let event: RelayWebhookEvent;
  try {
    event = JSON.parse(typeof rawBody === "string" ? rawBody : Buffer.from(rawBody).toString("utf8")) as RelayWebhookEvent;
  } catch {
    return null;
  }
  const eventType = single(headers, "x-relay-event");
  const deliveryId = single(headers, "x-relay-delivery-id");
  if (!event || typeof event !== "object" || typeof event.type !== "string" || event.type !== eventType || !deliveryId) return null;
  return { deliveryId, eventType, event };
}
