/**
 * The published webhook retry schedule (DESIGN §3, the example schedule of Standard Webhooks): the
 * first attempt is immediate, then each entry is the wait after the attempt before it. Ten
 * attempts; the last comes 3 days 3 h 35 min after the first at the earliest (jitter only ever
 * adds), so a merchant endpoint that is down over a long weekend still receives its events.
 */
export const RETRY_DELAYS_SECONDS: readonly number[] = Object.freeze([
  5,
  5 * 60,
  30 * 60,
  2 * 3600,
  5 * 3600,
  10 * 3600,
  14 * 3600,
  20 * 3600,
  24 * 3600
]);

export const MAX_ATTEMPTS = RETRY_DELAYS_SECONDS.length + 1;

/**
 * Each wait is lengthened by 0 to 20 %, so that deliveries that failed together (an endpoint
 * outage) do not all come back at once. Never shortened: the published delays are minimums, and
 * the whole schedule never spans less than the 3 days we promise.
 */
const JITTER_RATIO = 0.2;

/** A Retry-After longer than the longest step of our schedule is not honoured beyond it. */
export const MAX_RETRY_AFTER_MS = 24 * 3600 * 1000;

/**
 * Wait before the next attempt, given how many attempts were already made; null once all
 * MAX_ATTEMPTS are spent (the delivery is then failed, and only a manual redelivery resends it).
 */
export function nextAttemptDelayMs(attemptsMade: number, random: () => number = Math.random): number | null {
  if (!Number.isInteger(attemptsMade) || attemptsMade < 0) {
    throw new RangeError(`attemptsMade must be a non-negative integer, got ${attemptsMade}`);
  }
  if (attemptsMade === 0) return 0;
  if (attemptsMade >= MAX_ATTEMPTS) return null;
  const baseMs = RETRY_DELAYS_SECONDS[attemptsMade - 1] * 1000;
  const factor = 1 + JITTER_RATIO * random();
  return Math.round(baseMs * factor);
}

const MONTHS = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"];
// RFC 9110 §5.6.7: a sender uses IMF-fixdate, a recipient also accepts the two obsolete forms.
const IMF_FIXDATE = /^(?:Mon|Tue|Wed|Thu|Fri|Sat|Sun), (\d{2}) ([A-Z][a-z]{2}) (\d{4}) (\d{2}):(\d{2}):(\d{2}) GMT$/;
const RFC850_DATE =
  /^(?:Monday|Tuesday|Wednesday|Thursday|Friday|Saturday|Sunday), (\d{2})-([A-Z][a-z]{2})-(\d{2}) (\d{2}):(\d{2}):(\d{2}) GMT$/;
const ASCTIME_DATE = /^(?:Mon|Tue|Wed|Thu|Fri|Sat|Sun) ([A-Z][a-z]{2}) ([ \d]\d) (\d{2}):(\d{2}):(\d{2}) (\d{4})$/;

function utcMillis(year: number, monthName: string, day: string, hour: string, minute: string, second: string): number | null {
  const month = MONTHS.indexOf(monthName);
  if (month < 0) return null;
  const millis = Date.UTC(year, month, Number(day), Number(hour), Number(minute), Number(second));
  const check = new Date(millis);
  // Date.UTC rolls 31 Feb over into March; a date that does not exist is not a date.
  if (check.getUTCDate() !== Number(day) || Number(hour) > 23 || Number(minute) > 59 || Number(second) > 60) return null;
  return millis;
}

/**
 * Parsed by hand rather than with Date.parse, which reads the asctime form in local time and
 * accepts many strings that are not HTTP dates.
 */
function parseHttpDate(value: string, now: number): number | null {
  let match = IMF_FIXDATE.exec(value);
  if (match) return utcMillis(Number(match[3]), match[2], match[1], match[4], match[5], match[6]);
  match = RFC850_DATE.exec(value);
  if (match) {
    // Two-digit year: RFC 9110 says a date more than 50 years in the future means the past century.
    const currentYear = new Date(now).getUTCFullYear();
    let year = Math.floor(currentYear / 100) * 100 + Number(match[3]);
    if (year > currentYear + 50) year -= 100;
    return utcMillis(year, match[2], match[1], match[4], match[5], match[6]);
  }
  match = ASCTIME_DATE.exec(value);
  if (match) return utcMillis(Number(match[6]), match[1], match[2].trim(), match[3], match[4], match[5]);
  return null;
}

/**
 * Retry-After (delta-seconds or HTTP-date) as a wait in ms from `now`; null when absent or not
 * valid, 0 for a date already past, and never more than MAX_RETRY_AFTER_MS.
 */
export function parseRetryAfter(header: string | undefined, now: number = Date.now()): number | null {
  if (header === undefined) return null;
  const value = header.trim();
  if (value === "") return null;
  if (/^\d+$/.test(value)) return Math.min(Number(value) * 1000, MAX_RETRY_AFTER_MS);
  const at = parseHttpDate(value, now);
  if (at === null) return null;
  return Math.min(Math.max(at - now, 0), MAX_RETRY_AFTER_MS);
}

/** Only these answers carry a Retry-After that is about when to come back (RFC 9110 §10.2.3). */
const STATUSES_WITH_RETRY_AFTER = new Set([429, 503]);

/**
 * Wait before the next attempt after a failed one. The receiver may ask for more time with
 * Retry-After on 429/503 and gets the larger of that and our schedule; it can never make us retry
 * sooner than the schedule nor keep a delivery alive beyond MAX_ATTEMPTS.
 * `status` is null when no HTTP answer came back (time-out, connection refused).
 */
export function delayAfterResponse(
  attemptsMade: number,
  status: number | null,
  retryAfterHeader: string | undefined,
  now: number = Date.now(),
  random: () => number = Math.random
): number | null {
  const scheduled = nextAttemptDelayMs(attemptsMade, random);
  if (scheduled === null) return null;
  if (status === null || !STATUSES_WITH_RETRY_AFTER.has(status)) return scheduled;
  const requested = parseRetryAfter(retryAfterHeader, now);
  return requested === null ? scheduled : Math.max(scheduled, requested);
}

/**
 * An endpoint that has failed every attempt for this long is disabled (Standard Webhooks,
 * "Retry schedule"): longer than one delivery's whole schedule, so an endpoint is never given up
 * on while a single event is still being retried from the first failure, and short enough that a
 * dead URL stops being called within the week.
 */
export const DISABLE_ENDPOINT_AFTER_MS = 5 * 24 * 3600 * 1000;

type Moment = Date | number;

function millis(moment: Moment): number {
  return moment instanceof Date ? moment.getTime() : moment;
}

/**
 * The failing streak of an endpoint: its first failed attempt since its last successful one.
 * A failure is any attempt that is not a 2xx (time-outs, refused connections, 3xx, 4xx, 5xx).
 */
export interface EndpointFailureStreak {
  firstFailureAt: Moment | null;
  lastSuccessAt: Moment | null;
}

/**
 * True when the endpoint has failed every attempt for DISABLE_ENDPOINT_AFTER_MS: a failure began a
 * streak at `firstFailureAt`, no success came at or after it, and that was at least 5 days ago.
 */
export function shouldDisableEndpoint(firstFailureAt: Moment | null, lastSuccessAt: Moment | null, now: Moment): boolean {
  if (firstFailureAt === null) return false;
  const since = millis(firstFailureAt);
  if (lastSuccessAt !== null && millis(lastSuccessAt) >= since) return false;
  return millis(now) - since >= DISABLE_ENDPOINT_AFTER_MS;
}

/**
 * The streak after one more attempt ended at `at`. Workers finish attempts out of order, so an
 * older result never undoes a newer one: a success ends only a streak that began before it, and a
 * failure older than the last success starts none. In SQL, for the endpoint row:
 *   success: last_success_at = GREATEST(last_success_at, $at),
 *            first_failure_at = CASE WHEN first_failure_at > $at THEN first_failure_at END
 *   failure: first_failure_at = CASE WHEN last_success_at >= $at THEN first_failure_at
 *                                    ELSE LEAST(first_failure_at, $at) END
 * (LEAST and GREATEST ignore NULLs in PostgreSQL.)
 */
export function failureStreakAfterAttempt(streak: EndpointFailureStreak, succeeded: boolean, at: Moment): EndpointFailureStreak {
  const atMs = millis(at);
  const first = streak.firstFailureAt === null ? null : millis(streak.firstFailureAt);
  const lastSuccess = streak.lastSuccessAt === null ? null : millis(streak.lastSuccessAt);
  if (succeeded) {
    return {
      firstFailureAt: first !== null && first > atMs ? streak.firstFailureAt : null,
      lastSuccessAt: lastSuccess !== null && lastSuccess >= atMs ? streak.lastSuccessAt : at
    };
  }
  if (lastSuccess !== null && lastSuccess >= atMs) return streak;
  return { firstFailureAt: first !== null && first <= atMs ? streak.firstFailureAt : at, lastSuccessAt: streak.lastSuccessAt };
}
