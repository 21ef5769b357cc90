import { createHmac, timingSafeEqual } from "node:crypto";
import { API_BASE_PATH } from "./endpoint";
import { MAX_LABELS_PER_DOCUMENT } from "./labels/label-data";

/** SPEC §8: a label URL is valid for about 30 minutes. */
export const LABEL_URL_TTL_SECONDS = 1800;

/** The path of a merged document under the labels API; its query carries the parcels. */
export const LABEL_BATCH_FILE = "batch.pdf";

export type LabelSignatureVerdict = "valid" | "expired" | "invalid";

// Strict shapes: anything else is refused before any crypto, and `Number("1e3")`-style
// spellings of the same expiry cannot produce a second valid URL for one signature.
const EXPIRES_PATTERN = /^[1-9][0-9]{0,14}$/;
const SIGNATURE_PATTERN = /^[0-9a-f]{64}$/;
const UUID_PATTERN = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
const UUID_BYTES = 16;
/** Base64url of 1 to 100 uuids of 16 bytes, unpadded. */
const PARCELS_TOKEN_PATTERN = /^[A-Za-z0-9_-]{22,2134}$/;

function hmac(message: string, secret: string): Buffer {
  return createHmac("sha256", secret).update(message).digest();
}

/**
 * What a single label URL signs: "id.expires". The dot cannot occur in a uuid, so the pair cannot
 * be confused with another; a merged document's message starts with "batch:", which no uuid does.
 */
function labelSignature(parcelId: string, expires: string, secret: string): Buffer {
  return hmac(`${parcelId}.${expires}`, secret);
}

function batchSignature(parcelsToken: string, expires: string, secret: string): Buffer {
  return hmac(`batch:${parcelsToken}.${expires}`, secret);
}

function expiryOf(now: number, ttlSeconds: number): string {
  return String(Math.floor(now / 1000) + ttlSeconds);
}

function labelsBase(baseUrl: string): string {
  return `${baseUrl.replace(/\/+$/, "")}${API_BASE_PATH.labels}`;
}

/**
 * The URLs signed during the current second. An expiry has one-second resolution, so a parcel read
 * again within the same second gets the same URL: kept instead of computing its HMAC again (a
 * merchant's ERP polling its parcels, a webhook burst). Emptied when the second turns, or when
 * another base URL or secret signs (tests and tools sign with several; a process signs with one),
 * and bounded. Keyed by the parcel id alone: building a longer key cost as much as the lookup saved.
 */
const SIGNED_THIS_SECOND = { expires: "", baseUrl: "", secret: "", urls: new Map<string, string>() };
const SIGNED_THIS_SECOND_MAX = 10_000;

/**
 * A download link for the label that needs no API key, so that a merchant can hand it to a
 * printer or a browser; the HMAC binds it to one parcel and one expiry. It serves the A6 PDF;
 * `&format=` and `&startOffset=` may be added to it (the signature does not cover them).
 */
export function signLabelUrl(
  baseUrl: string,
  parcelId: string,
  secret: string,
  now: number = Date.now(),
  ttlSeconds: number = LABEL_URL_TTL_SECONDS
): string {
  const expires = expiryOf(now, ttlSeconds);
  const bucket = SIGNED_THIS_SECOND;
  if (bucket.expires !== expires || bucket.baseUrl !== baseUrl || bucket.secret !== secret || bucket.urls.size >= SIGNED_THIS_SECOND_MAX) {
    bucket.expires = expires;
    bucket.baseUrl = baseUrl;
    bucket.secret = secret;
    bucket.urls.clear();
  }
  const known = bucket.urls.get(parcelId);
  if (known) return known;
  const signature = labelSignature(parcelId, expires, secret).toString("hex");
  const url = `${labelsBase(baseUrl)}/${encodeURIComponent(parcelId)}.pdf?expires=${expires}&signature=${signature}`;
  bucket.urls.set(parcelId, url);
  return url;
}

/** A label URL for each parcel (once per id), all valid from `now`: what `labels.signUrls` answers, and what views are built with. */
export function signLabelUrls(
  baseUrl: string,
  parcelIds: readonly string[],
  secret: string,
  now: number = Date.now()
): Record<string, string> {
  const labelUrls: Record<string, string> = {};
  for (const parcelId of parcelIds) labelUrls[parcelId] ??= signLabelUrl(baseUrl, parcelId, secret, now);
  return labelUrls;
}

/** Checks the shape of the parts, then the HMAC in constant time, then the expiry. */
function verdictOf(
  message: { expires: string | undefined; signature: string | undefined },
  expected: (expires: string) => Buffer,
  now: number
): LabelSignatureVerdict {
  const { expires, signature } = message;
  if (!expires || !signature || !EXPIRES_PATTERN.test(expires) || !SIGNATURE_PATTERN.test(signature)) return "invalid";
  if (!timingSafeEqual(expected(expires), Buffer.from(signature, "hex"))) return "invalid";
  return Number(expires) * 1000 <= now ? "expired" : "valid";
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
  if (!UUID_PATTERN.test(parcelId)) return "invalid";
  return verdictOf({ expires, signature }, e => labelSignature(parcelId, e, secret), now);
}

/** The parcels of a merged document, as compact as a URL can carry them: 16 bytes per uuid, base64url. */
export function packParcelIds(parcelIds: readonly string[]): string {
  return Buffer.concat(parcelIds.map(id => Buffer.from(id.replace(/-/g, ""), "hex"))).toString("base64url");
}

/** The parcel ids of a token `packParcelIds` made, or null for anything else (including another spelling of the same bytes). */
export function unpackParcelIds(token: string): string[] | null {
  if (!PARCELS_TOKEN_PATTERN.test(token)) return null;
  const bytes = Buffer.from(token, "base64url");
  const count = bytes.length / UUID_BYTES;
  if (!Number.isInteger(count) || count < 1 || count > MAX_LABELS_PER_DOCUMENT) return null;
  if (bytes.toString("base64url") !== token) return null;
  return Array.from({ length: count }, (_, i) => {
    const hex = bytes.subarray(i * UUID_BYTES, (i + 1) * UUID_BYTES).toString("hex");
    return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
  });
}

export interface SignedLabelBatch {
  url: string;
  expiresAt: string;
}

/**
 * One URL for one merged document of up to a hundred labels: the HMAC binds the list of parcels,
 * in its order, and the expiry. The format and start offset are in the query, outside the
 * signature, like those of a single label URL. Stateless: nothing is stored, the URL is the list.
 */
export function signLabelBatchUrl(
  baseUrl: string,
  parcelIds: readonly string[],
  secret: string,
  print: { format: string; startOffset: number },
  now: number = Date.now(),
  ttlSeconds: number = LABEL_URL_TTL_SECONDS
): SignedLabelBatch {
  const parcels = packParcelIds(parcelIds);
  const expires = expiryOf(now, ttlSeconds);
  const signature = batchSignature(parcels, expires, secret).toString("hex");
  const offset = print.startOffset > 0 ? `&startOffset=${print.startOffset}` : "";
  return {
    url: `${labelsBase(baseUrl)}/${LABEL_BATCH_FILE}?format=${encodeURIComponent(print.format)}${offset}&parcels=${parcels}&expires=${expires}&signature=${signature}`,
    expiresAt: new Date(Number(expires) * 1000).toISOString()
  };
}

export function verifyLabelBatchSignature(
  parcelsToken: string,
  expires: string | undefined,
  signature: string | undefined,
  secret: string,
  now: number = Date.now()
): LabelSignatureVerdict {
  if (unpackParcelIds(parcelsToken) === null) return "invalid";
  return verdictOf({ expires, signature }, e => batchSignature(parcelsToken, e, secret), now);
}

/** The path of a manifest's PDF under the labels API (issue 44): `manifests/<id>.pdf`. */
export const MANIFEST_FILE_DIR = "manifests";

/** What a manifest URL signs: "manifest:id.expires", which no label's or merged document's message can be. */
function manifestSignature(manifestId: string, expires: string, secret: string): Buffer {
  return hmac(`manifest:${manifestId}.${expires}`, secret);
}

/**
 * A download link for a manifest's PDF (issue 44), made and checked like a label's: the HMAC binds
 * one manifest and one expiry, valid about 30 minutes, no API key needed (a merchant prints it).
 */
export function signManifestUrl(
  baseUrl: string,
  manifestId: string,
  secret: string,
  now: number = Date.now(),
  ttlSeconds: number = LABEL_URL_TTL_SECONDS
): string {
  const expires = expiryOf(now, ttlSeconds);
  const signature = manifestSignature(manifestId, expires, secret).toString("hex");
  return `${labelsBase(baseUrl)}/${MANIFEST_FILE_DIR}/${encodeURIComponent(manifestId)}.pdf?expires=${expires}&signature=${signature}`;
}

export function verifyManifestSignature(
  manifestId: string,
  expires: string | undefined,
  signature: string | undefined,
  secret: string,
  now: number = Date.now()
): LabelSignatureVerdict {
  if (!UUID_PATTERN.test(manifestId)) return "invalid";
  return verdictOf({ expires, signature }, e => manifestSignature(manifestId, e, secret), now);
}
