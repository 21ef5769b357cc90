/**
 * When a failed attempt is sent again, and after how long. Safe for money: only failures after which
 * the same request (with the same Idempotency-Key) cannot do anything twice.
 */

export const DEFAULT_MAX_RETRIES = 2;
const INITIAL_DELAY_MS = 500;
const MAX_DELAY_MS = 8_000;

/**
 * 408, 429 and every 5xx; a 409 only when its code says the first request with this
 * Idempotency-Key is still running (any other 409 is a refusal a retry would meet again).
 */
export function isRetryableStatus(status: number, code: string | undefined): boolean {
  if (status === 408 || status === 429 || status >= 500) return true;
  return status === 409 && code === "IDEMPOTENCY_KEY_IN_USE";
}

/** Retry-After as milliseconds: delta-seconds or an HTTP date (RFC 9110 §10.2.3); undefined when absent or unreadable. */
export function retryAfterMs(header: string | null, now: number = Date.now()): number | undefined {
  if (header === null) return undefined;
  const value = header.trim();
  if (/^\d+$/.test(value)) return Number(value) * 1000;
  // An HTTP date has a weekday and a month in letters; Date.parse would also read "-1" as a year.
  if (!/[a-z]/i.test(value)) return undefined;
  const date = Date.parse(value);
  if (Number.isNaN(date)) return undefined;
  return Math.max(0, date - now);
}

/** 0.5 s × 2ⁿ (n = retries made so far), at most 8 s, minus up to a quarter at random so that clients spread out. */
export function backoffMs(retriesSoFar: number, random: () => number = Math.random): number {
  const base = Math.min(INITIAL_DELAY_MS * 2 ** retriesSoFar, MAX_DELAY_MS);
  return Math.round(base * (1 - 0.25 * random()));
}

/**
 * The wait before the next attempt: the server's Retry-After when it gave a usable one, else the
 * backoff; undefined (no retry: the error is thrown at once, saying when to come back) when the
 * server asks for longer than `capMs`, the call's own timeout: a caller who gave a call 30 s must
 * not wait 55 s in it for a rate-limit window to turn.
 */
export function delayBeforeRetry(retriesSoFar: number, retryAfterHeader: string | null, capMs: number): number | undefined {
  const asked = retryAfterMs(retryAfterHeader);
  if (asked === undefined) return backoffMs(retriesSoFar);
  return asked <= capMs ? asked : undefined;
}

export function sleep(ms: number, signal: AbortSignal | undefined): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) return reject(signal.reason);
    const timer = setTimeout(() => {
      signal?.removeEventListener("abort", onAbort);
      resolve();
    }, ms);
    const onAbort = () => {
      clearTimeout(timer);
      reject(signal?.reason);
    };
    signal?.addEventListener("abort", onAbort, { once: true });
  });
}
