import dns from "node:dns";
import http from "node:http";
import https from "node:https";
import type { LookupFunction } from "node:net";
import type { Readable } from "node:stream";
import { StringDecoder } from "node:string_decoder";
import axios from "axios";
import { AppError } from "../../lib/errors";
import { assertPublicWebhookUrl, isPublicAddress } from "./ssrf";
import { EndpointSecret, NoActiveWebhookSecretError, signWebhookDelivery } from "./signing";

/** One HTTP attempt of one delivery (DESIGN §3 "Webhook request"). */

export const USER_AGENT = "relay-parcels-webhooks/1";

export interface WebhookRequest {
  /** The exact bytes sent, and signed. */
  body: string;
  headers: Record<string, string>;
}

export interface DeliveryToSend {
  /** The JSON body, exactly as it will be sent and signed. */
  body: string;
  /** X-Relay-Event: the body's type. */
  eventType: string;
  /** The same on every attempt of one delivery. */
  deliveryId: string;
  /** The endpoint's secrets with their expiry: every one valid at `now` signs (rotation). */
  secrets: readonly EndpointSecret[];
  /** When the attempt is made: the timestamp the signatures cover, and the instant secrets are judged valid at. */
  now: Date;
}

/**
 * Body and headers of one attempt: the SPEC's X-Relay-* headers and the Standard Webhooks ones
 * (./signing). Throws NoActiveWebhookSecretError when no secret is valid any more.
 */
export function buildWebhookRequest(delivery: DeliveryToSend): WebhookRequest {
  return {
    body: delivery.body,
    headers: {
      "Content-Type": "application/json",
      "User-Agent": USER_AGENT,
      "X-Relay-Event": delivery.eventType,
      ...signWebhookDelivery({ deliveryId: delivery.deliveryId, body: delivery.body, secrets: delivery.secrets, now: delivery.now })
    }
  };
}

export interface AttemptResult {
  startedAt: Date;
  durationMs: number;
  /** null when no HTTP answer came back (time-out, refused connection, SSRF guard). */
  statusCode: number | null;
  retryAfter: string | undefined;
  /** Short, loggable: never the URL, the secret or the response body. */
  error: string | null;
  /** The first bytes of the answer's body, as text; only when `responseBytes` asked for them (test-send) and the address is public. */
  responseExcerpt?: string;
}

export interface SendOptions extends DeliveryToSend {
  url: string;
  timeoutMs: number;
  allowPrivate: boolean;
  /** Read up to this many bytes of an answer from a public address (a test-send shows them); otherwise the body is dropped unread. */
  responseBytes?: number;
}

const MAX_ERROR_LENGTH = 500;

function refusedNonPublic(hostname: string): NodeJS.ErrnoException {
  const err: NodeJS.ErrnoException = new Error(`host ${hostname} resolves to a non-public address`);
  err.code = "ENONPUBLIC";
  return err;
}

/**
 * dns.lookup that refuses non-public answers at connect time. The check before the attempt
 * resolves the name once; without this the HTTP client resolves it again, and a DNS answer that
 * changed in between (DNS rebinding) could still reach an internal address.
 */
const publicOnlyLookup = ((hostname: string, options: dns.LookupOptions, callback: (...args: unknown[]) => void) => {
  dns.lookup(hostname, { ...options, all: true }, (err, addresses) => {
    if (err) return callback(err);
    const list = addresses as dns.LookupAddress[];
    if (list.length === 0 || list.some(a => !isPublicAddress(a.address))) return callback(refusedNonPublic(hostname));
    if (options.all) return callback(null, list);
    return callback(null, list[0].address, list[0].family);
  });
}) as unknown as LookupFunction;

/**
 * Connections are kept open between attempts (a merchant's endpoint gets many deliveries): a TLS
 * handshake per event was most of a delivery's cost. A kept connection was checked by
 * `publicOnlyLookup` when it was opened, so reusing it reaches no other address.
 */
const KEPT_ALIVE = { keepAlive: true, maxSockets: 32, maxFreeSockets: 8, timeout: 60_000 };
const AGENTS = {
  guarded: {
    http: new http.Agent({ ...KEPT_ALIVE, lookup: publicOnlyLookup }),
    https: new https.Agent({ ...KEPT_ALIVE, lookup: publicOnlyLookup })
  },
  open: { http: new http.Agent(KEPT_ALIVE), https: new https.Agent(KEPT_ALIVE) }
};

function describeError(err: unknown, timeoutMs: number, timedOut: boolean): string {
  if (timedOut) return `timed out after ${timeoutMs} ms`;
  if (err instanceof NoActiveWebhookSecretError) return "no webhook secret of the endpoint is valid now";
  if (err instanceof AppError) {
    // The SSRF guard: its field message names the host and the kind of range, nothing more.
    const detail = err.data?.details?.[0]?.message ?? err.message;
    return `refused by the SSRF guard: ${detail}`;
  }
  const e = err as { code?: unknown; message?: unknown; cause?: { code?: unknown; message?: unknown } };
  const code = typeof e.code === "string" ? e.code : typeof e.cause?.code === "string" ? e.cause.code : null;
  if (code === "ENONPUBLIC") return `refused by the SSRF guard: ${String(e.cause?.message ?? e.message)}`;
  if (code === "ECONNABORTED" || code === "ETIMEDOUT" || code === "ERR_CANCELED") return `timed out after ${timeoutMs} ms`;
  // Node's network errors name the code and an ip:port, never the URL's path or query.
  const message = typeof e.message === "string" ? e.message : "request failed";
  return (code && !message.includes(code) ? `${code}: ${message}` : message).slice(0, MAX_ERROR_LENGTH);
}

function headerValue(value: unknown): string | undefined {
  if (typeof value === "string") return value;
  if (Array.isArray(value) && typeof value[0] === "string") return value[0];
  return undefined;
}

/** Up to `max` bytes of a body, as text (a character cut at the end is left out), then the stream is closed. */
export async function firstBytes(stream: Readable, max: number): Promise<string> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of stream) {
    chunks.push(chunk as Buffer);
    size += (chunk as Buffer).length;
    if (size >= max) break;
  }
  stream.destroy();
  return new StringDecoder("utf8").write(Buffer.concat(chunks).subarray(0, max));
}

/**
 * Reads a short answer to its end, so that its connection can carry the next delivery; a long
 * one is cut. Whatever happens to the body, the status already decided the attempt.
 */
async function drainSmall(stream: Readable, max = 64 * 1024): Promise<void> {
  let size = 0;
  try {
    for await (const chunk of stream) {
      size += (chunk as Buffer).length;
      if (size > max) break;
    }
  } catch {
    // A body cut short or timed out: the connection is dropped, the answer stands.
  }
  if (size > max || !stream.readableEnded) stream.destroy();
}

/**
 * Whether the connection that carried the answer reached a public address. When private targets
 * are allowed, a test-send to one reports the status only: its body would make the back-office a
 * way to read what internal services answer.
 */
export function answeredFromPublicAddress(request: unknown): boolean {
  const address = (request as { socket?: { remoteAddress?: string } } | undefined)?.socket?.remoteAddress;
  return address !== undefined && isPublicAddress(address);
}

/**
 * POSTs one delivery and reports what happened; never throws. The SSRF guard runs before every
 * attempt (and again on the addresses actually connected to) unless private targets are allowed;
 * redirects are not followed (a 3xx is an unsuccessful answer); no proxy from the environment is
 * used; at most 64 KiB of the answer is read, and only to keep the connection for the next one.
 */
export async function sendWebhook(options: SendOptions): Promise<AttemptResult> {
  const startedAt = options.now;
  const started = performance.now();
  const signal = AbortSignal.timeout(options.timeoutMs);
  const elapsed = () => Math.round(performance.now() - started);
  try {
    await assertPublicWebhookUrl(options.url, options.allowPrivate);
    const request = buildWebhookRequest(options);
    const agents = options.allowPrivate ? AGENTS.open : AGENTS.guarded;
    const response = await axios.post(options.url, request.body, {
      headers: request.headers,
      // Sent exactly as signed: no re-serialisation, no trimming.
      transformRequest: [(data: unknown) => data],
      maxRedirects: 0,
      timeout: options.timeoutMs,
      signal,
      validateStatus: () => true,
      proxy: false,
      responseType: "stream",
      httpAgent: agents.http,
      httpsAgent: agents.https
    });
    // For a delivery only the status and Retry-After matter: what the receiver sends back is dropped unread.
    const stream = response.data as Readable;
    const showBody = options.responseBytes !== undefined && answeredFromPublicAddress(response.request);
    const responseExcerpt = showBody ? await firstBytes(stream, options.responseBytes!) : undefined;
    if (responseExcerpt === undefined) await drainSmall(stream);
    return {
      startedAt,
      durationMs: elapsed(),
      statusCode: response.status,
      retryAfter: headerValue(response.headers["retry-after"]),
      error: response.status >= 200 && response.status < 300 ? null : `HTTP ${response.status}`,
      ...(responseExcerpt === undefined ? {} : { responseExcerpt })
    };
  } catch (err) {
    return {
      startedAt,
      durationMs: elapsed(),
      statusCode: null,
      retryAfter: undefined,
      error: describeError(err, options.timeoutMs, signal.aborted)
    };
  }
}
