import { ApiError, NetworkError } from "./api-errors";

/**
 * How an app calls its API on the page's own origin (the counter app the relay API, the courier
 * app the courier API): JSON in and out, the device's key, an Idempotency-Key when given, a
 * timeout. An answer with a status is an ApiError (its `code` is the API's); no answer at all
 * (offline, cut, timed out) is a NetworkError, the one case where the outbox sends again.
 * The server's clock is read from each answer's Date header: `occurredAt` is in the server's time.
 */
export interface CallOptions {
  idempotencyKey?: string;
  /** Without the device's key (pairing). */
  anonymous?: boolean;
  /** This GET's answer, already asked for early (the counter app's prefetch.js). */
  early?: Promise<Response>;
}

export interface ApiClientOptions {
  /** The API's base path: "/api/relay/v1". */
  base: string;
  /** The headers of a call, with the device's key unless anonymous. */
  headers(anonymous: boolean): Record<string, string>;
  /** No answer within this is no network. */
  timeoutMs: number;
}

/** Never from the HTTP cache (a variable, not a literal, so that the unit tests' Node typing, without `cache`, takes it too). */
const NO_STORE = { cache: "no-store" as const };

export function createApiClient(options: ApiClientOptions) {
  /** The server's clock minus the phone's, from the last answer's Date header. */
  let clockOffsetMs = 0;

  function serverNow(): Date {
    return new Date(Date.now() + clockOffsetMs);
  }

  async function call<T>(method: "GET" | "POST", path: string, body?: unknown, callOptions: CallOptions = {}): Promise<T> {
    const headers = options.headers(callOptions.anonymous ?? false);
    if (body !== undefined) headers["Content-Type"] = "application/json";
    if (callOptions.idempotencyKey) headers["Idempotency-Key"] = callOptions.idempotencyKey;
    let response: Response;
    try {
      response = await (callOptions.early ??
        fetch(options.base + path, {
          method,
          headers,
          body: body === undefined ? undefined : JSON.stringify(body),
          ...NO_STORE,
          signal: AbortSignal.timeout(options.timeoutMs)
        }));
    } catch (err) {
      throw new NetworkError(String(err));
    }
    // The Date header has whole seconds: a phone within 2 s of the server keeps its own clock.
    const date = response.headers.get("Date");
    if (date) {
      const offset = Date.parse(date) - Date.now();
      clockOffsetMs = Math.abs(offset) > 2000 ? offset : 0;
    }
    const text = await response.text();
    const data = text ? (JSON.parse(text) as Record<string, unknown>) : {};
    if (!response.ok) {
      throw new ApiError(
        response.status,
        typeof data.code === "string" ? data.code : "UNKNOWN",
        typeof data.message === "string" ? data.message : response.statusText,
        (data.details as Record<string, unknown>) ?? {}
      );
    }
    return data as T;
  }

  return { call, serverNow };
}
