import { randomUUID } from "node:crypto";
import { AbortedError, apiErrorClassFor, ConnectionError, type ErrorDetail, RelayError, TimeoutError } from "../errors.js";
import type { ErrorCode } from "../generated/error-codes.js";
import { SDK_VERSION } from "../version.js";
import type { ClientOptions, RequestOptions } from "./options.js";
import { rateLimitOf } from "./rate-limit.js";
import type { ResponseInfo } from "./response-info.js";
import { DEFAULT_MAX_RETRIES, delayBeforeRetry, isRetryableStatus, retryAfterMs, sleep } from "./retry.js";

export const DEFAULT_TIMEOUT_MS = 30_000;
const MAX_RETRIES_CAP = 2;
/** Sent on every attempt after the first, so that our logs tell a retry from a new request. */
export const RETRY_COUNT_HEADER = "X-Retry-Count";

export type Query = Record<string, string | number | boolean | null | undefined>;

export interface Call {
  method: "GET" | "POST" | "PUT";
  path: string;
  query?: Query;
  body?: unknown;
  options?: RequestOptions;
  /**
   * False where the API refuses the header (a batch: each item carries its own key); the key is
   * still made, and kept on the result and the error.
   */
  idempotencyHeader?: boolean;
  /** "json" (default) parses the answer; "bytes" gives it as an ArrayBuffer (a label). */
  as?: "json" | "bytes";
}

export interface Answer<T> {
  data: T;
  info: ResponseInfo;
}

interface ErrorBody {
  code?: string;
  message?: string;
  requestId?: string;
  details?: ErrorDetail[];
}

type Attempt = { kind: "answer"; response: Response; text: string; bytes?: ArrayBuffer } | { kind: "failure"; error: RelayError };

/** The transport: one call, its attempts, its retries and its errors. */
export class HttpClient {
  private readonly baseUrl: string;
  private readonly fetchFn: typeof fetch;
  private readonly timeoutMs: number;
  private readonly maxRetries: number;
  private readonly userAgent: string;

  constructor(private readonly options: ClientOptions) {
    if (!options.apiKey) throw new TypeError("apiKey is required (rp_live_… or rp_sandbox_…)");
    this.baseUrl = (options.baseUrl ?? "http://localhost:3000").replace(/\/+$/, "");
    this.fetchFn = options.fetch ?? globalThis.fetch;
    this.timeoutMs = options.timeoutMs ?? DEFAULT_TIMEOUT_MS;
    this.maxRetries = options.maxRetries ?? DEFAULT_MAX_RETRIES;
    this.userAgent = `relay-parcels-sdk-typescript/${SDK_VERSION}${options.appInfo ? ` ${options.appInfo}` : ""}`;
  }

  url(path: string, query?: Query): string {
    const url = new URL(this.baseUrl + path);
    for (const [name, value] of Object.entries(query ?? {})) {
      if (value !== undefined && value !== null) url.searchParams.set(name, String(value));
    }
    return url.toString();
  }

  async request<T>(call: Call): Promise<Answer<T>> {
    const options = call.options ?? {};
    const idempotencyKey = call.method === "POST" ? (options.idempotencyKey ?? randomUUID()) : undefined;
    const maxRetries = Math.max(0, Math.min(options.maxRetries ?? this.maxRetries, MAX_RETRIES_CAP));
    const url = this.url(call.path, call.query);
    for (let retries = 0; ; retries++) {
      const attempt = await this.attempt(call, url, idempotencyKey, retries, options);
      if (attempt.kind === "answer" && attempt.response.ok) {
        return { data: this.parse<T>(attempt, call), info: this.info(attempt.response, idempotencyKey, retries) };
      }
      const error = attempt.kind === "failure" ? attempt.error : this.apiError(attempt.response, attempt.text, idempotencyKey, retries);
      const retryable = attempt.kind === "failure" ? !(error instanceof AbortedError) : isRetryableStatus(error.status!, error.code);
      const wait =
        retryable && retries < maxRetries
          ? delayBeforeRetry(
              retries,
              attempt.kind === "answer" ? attempt.response.headers.get("retry-after") : null,
              options.timeoutMs ?? this.timeoutMs
            )
          : undefined;
      if (wait === undefined) throw error;
      try {
        await sleep(wait, options.signal);
      } catch (reason) {
        throw this.aborted(idempotencyKey, retries, reason);
      }
    }
  }

  private async attempt(
    call: Call,
    url: string,
    idempotencyKey: string | undefined,
    retries: number,
    options: RequestOptions
  ): Promise<Attempt> {
    const headers: Record<string, string> = {
      Accept: "application/json",
      "User-Agent": this.userAgent,
      ...options.headers,
      Authorization: `ApiKey ${this.options.apiKey}`
    };
    if (call.body !== undefined) headers["Content-Type"] = "application/json";
    if (idempotencyKey !== undefined && call.idempotencyHeader !== false) headers["Idempotency-Key"] = idempotencyKey;
    if (retries > 0) headers[RETRY_COUNT_HEADER] = String(retries);
    const timeoutMs = options.timeoutMs ?? this.timeoutMs;
    const controller = new AbortController();
    let timedOut = false;
    const timer = setTimeout(() => {
      timedOut = true;
      controller.abort();
    }, timeoutMs);
    const onAbort = () => controller.abort();
    if (options.signal?.aborted) return { kind: "failure", error: this.aborted(idempotencyKey, retries, options.signal.reason) };
    options.signal?.addEventListener("abort", onAbort, { once: true });
    try {
      const response = await this.fetchFn(url, {
        method: call.method,
        headers,
        body: call.body === undefined ? undefined : JSON.stringify(call.body),
        signal: controller.signal
      });
      // The body is read under the same timeout: an answer cut mid-way is a connection failure.
      if (call.as === "bytes" && response.ok) return { kind: "answer", response, text: "", bytes: await response.arrayBuffer() };
      return { kind: "answer", response, text: await response.text() };
    } catch (cause) {
      if (timedOut) {
        return {
          kind: "failure",
          error: new TimeoutError({ message: `No answer within ${timeoutMs} ms`, code: "TIMEOUT", idempotencyKey, retries, cause })
        };
      }
      if (options.signal?.aborted) return { kind: "failure", error: this.aborted(idempotencyKey, retries, cause) };
      const message = `Could not reach ${new URL(url).origin}: ${(cause as Error)?.message ?? String(cause)}`;
      return { kind: "failure", error: new ConnectionError({ message, code: "CONNECTION_ERROR", idempotencyKey, retries, cause }) };
    } finally {
      clearTimeout(timer);
      options.signal?.removeEventListener("abort", onAbort);
    }
  }

  private parse<T>(attempt: { text: string; bytes?: ArrayBuffer }, call: Call): T {
    if (call.as === "bytes") return attempt.bytes as T;
    if (attempt.text === "") return undefined as T;
    return JSON.parse(attempt.text) as T;
  }

  private info(response: Response, idempotencyKey: string | undefined, retries: number): ResponseInfo {
    return {
      status: response.status,
      requestId: response.headers.get("x-request-id") ?? undefined,
      idempotencyKey,
      rateLimit: rateLimitOf(response.headers),
      retries,
      headers: response.headers
    };
  }

  private apiError(response: Response, text: string, idempotencyKey: string | undefined, retries: number): RelayError {
    let body: ErrorBody = {};
    try {
      body = JSON.parse(text) as ErrorBody;
    } catch {
      // A proxy's HTML page, say: the status still tells the family.
    }
    const code: ErrorCode = typeof body.code === "string" ? body.code : `HTTP_${response.status}`;
    const retryAfter = retryAfterMs(response.headers.get("retry-after"));
    const retryAfterSeconds = retryAfter === undefined ? undefined : Math.ceil(retryAfter / 1000);
    const ErrorClass = apiErrorClassFor(response.status, code);
    const details = Array.isArray(body.details) ? body.details : [];
    // The fields at fault go into the message too: a log line of the error alone says what to fix.
    const problems = details.length > 0 ? ` (${details.map(d => `${d.field}: ${d.message}`).join("; ")})` : "";
    // When to come back, in the message too: a log line of the error alone says it.
    const comeBack = retryAfterSeconds === undefined ? "" : ` (retry after ${retryAfterSeconds} s)`;
    return new ErrorClass({
      message: `${body.message ?? `HTTP ${response.status}`}${problems}${comeBack}`,
      code,
      status: response.status,
      requestId: body.requestId ?? response.headers.get("x-request-id") ?? undefined,
      details,
      idempotencyKey,
      rateLimit: rateLimitOf(response.headers),
      retryAfterSeconds,
      retries
    });
  }

  private aborted(idempotencyKey: string | undefined, retries: number, cause: unknown): AbortedError {
    return new AbortedError({ message: "The call was aborted", code: "ABORTED", idempotencyKey, retries, cause });
  }
}
