import dns from "node:dns";
import http from "node:http";
import https from "node:https";
import type { LookupFunction } from "node:net";
import axios from "axios";
import { AppError } from "../../lib/errors";
import { ParcelEvent, webhookBodyOf } from "../../lib/events";
import { assertPublicWebhookUrl, isPublicAddress } from "../../lib/ssrf";
import { signWebhookBody } from "../../lib/webhook-signature";

/** One HTTP attempt of one delivery (DESIGN §3 "Webhook request"). */

export const USER_AGENT = "relay-parcels-webhooks/1";

export interface WebhookRequest {
  /** The exact bytes sent, and signed. */
  body: string;
  headers: Record<string, string>;
}

/** Body and headers of one attempt; the timestamp is the attempt's, the delivery id never changes. */
export function buildWebhookRequest(event: ParcelEvent, deliveryId: string, secret: string, now: number = Date.now()): WebhookRequest {
  const body = JSON.stringify(webhookBodyOf(event));
  return {
    body,
    headers: {
      "Content-Type": "application/json",
      "User-Agent": USER_AGENT,
      "X-Relay-Event": event.type,
      "X-Relay-Delivery-Id": deliveryId,
      "X-Relay-Timestamp": String(Math.floor(now / 1000)),
      "X-Relay-Signature": signWebhookBody(body, secret)
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
}

export interface SendOptions {
  url: string;
  secret: string;
  deliveryId: string;
  event: ParcelEvent;
  timeoutMs: number;
  allowPrivate: boolean;
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

function describeError(err: unknown, timeoutMs: number, timedOut: boolean): string {
  if (timedOut) return `timed out after ${timeoutMs} ms`;
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

/**
 * POSTs one delivery and reports what happened; never throws. The SSRF guard runs before every
 * attempt (and again on the addresses actually connected to) unless private targets are allowed;
 * redirects are not followed (a 3xx is an unsuccessful answer); no proxy from the environment is
 * used; the response body is not read.
 */
export async function sendWebhook(options: SendOptions): Promise<AttemptResult> {
  const startedAt = new Date();
  const started = performance.now();
  const signal = AbortSignal.timeout(options.timeoutMs);
  const elapsed = () => Math.round(performance.now() - started);
  try {
    await assertPublicWebhookUrl(options.url, options.allowPrivate);
    const request = buildWebhookRequest(options.event, options.deliveryId, options.secret, startedAt.getTime());
    const agentOptions = options.allowPrivate ? { keepAlive: false } : { keepAlive: false, lookup: publicOnlyLookup };
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
      httpAgent: new http.Agent(agentOptions),
      httpsAgent: new https.Agent(agentOptions)
    });
    // Only the status and Retry-After matter; whatever the receiver sends back is dropped unread.
    (response.data as NodeJS.ReadableStream & { destroy?: () => void }).destroy?.();
    return {
      startedAt,
      durationMs: elapsed(),
      statusCode: response.status,
      retryAfter: headerValue(response.headers["retry-after"]),
      error: response.status >= 200 && response.status < 300 ? null : `HTTP ${response.status}`
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
