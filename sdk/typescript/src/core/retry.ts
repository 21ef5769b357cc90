/**
 * When a failed attempt is sent again, and after how long. Safe for money: only failures after which
 * the same request (with the same Idempotency-Key) cannot do anything twice.
 */

export const DEFAULT_MAX_RETRIES = 2;
const INITIAL_DELAY_MS = 500;
const MAX_DELAY_MS = 8_000;
/** A Retry-After longer than this is not waited for: the error is thrown with retryAfterSeconds instead. */
const MAX_RETRY_AFTER_MS = 60_000;

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

/** The wait before the next attempt: the server's Retry-After when it gave a usable one, else the backoff. */
export function delayBeforeRetry(retriesSoFar: number, retryAfterHeader: string | null): number | undefined {
  const asked = retryAfterMs(retryAfterHeader);
  if (asked === undefined) return backoffMs(retriesSoFar);
  return asked <= MAX_RETRY_AFTER_MS ? asked : undefined;
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
