import {
  MAX_ATTEMPTS,
  MAX_RETRY_AFTER_MS,
  RETRY_DELAYS_SECONDS,
  delayAfterResponse,
  nextAttemptDelayMs,
  parseRetryAfter
} from "../../../services/webhooks/retry-schedule";

const noJitter = (): number => 0;
const highestJitter = (): number => 0.999999;
const now = Date.UTC(2025, 0, 15, 10, 0, 0);

describe("the published schedule", () => {
  it("is now, 5 s, 5 min, 30 min, 2 h, 5 h, 10 h, 14 h, 20 h, 24 h: ten attempts", () => {
    expect(RETRY_DELAYS_SECONDS).toEqual([5, 300, 1800, 7200, 18000, 36000, 50400, 72000, 86400]);
    expect(MAX_ATTEMPTS).toBe(10);
    expect(Object.isFrozen(RETRY_DELAYS_SECONDS)).toBe(true);
  });
});

describe("nextAttemptDelayMs", () => {
  it("sends the first attempt at once", () => {
    expect(nextAttemptDelayMs(0, noJitter)).toBe(0);
  });

  it("follows the schedule when the jitter draws nothing", () => {
    const delays = Array.from({ length: MAX_ATTEMPTS - 1 }, (_, i) => nextAttemptDelayMs(i + 1, noJitter));
    expect(delays).toEqual(RETRY_DELAYS_SECONDS.map(s => s * 1000));
  });

  it("lengthens a wait by up to 20 %, never shortens it", () => {
    expect(nextAttemptDelayMs(1, highestJitter)).toBe(6000);
    expect(nextAttemptDelayMs(9, highestJitter)).toBeGreaterThan(1.199 * 86_400_000);
    expect(nextAttemptDelayMs(9, highestJitter)).toBeLessThanOrEqual(1.2 * 86_400_000);
    for (let i = 0; i < 200; i++) {
      const delay = nextAttemptDelayMs(2) ?? -1;
      expect(delay).toBeGreaterThanOrEqual(300_000);
      expect(delay).toBeLessThanOrEqual(360_000);
    }
  });

  it("keeps retrying for at least 3 days, whatever the jitter draws", () => {
    const span = (random: () => number) =>
      Array.from({ length: MAX_ATTEMPTS }, (_, attempts) => nextAttemptDelayMs(attempts, random) ?? 0).reduce((a, b) => a + b, 0);
    expect(span(noJitter)).toBe(((3 * 24 + 3) * 3600 + 35 * 60 + 5) * 1000);
    expect(span(noJitter)).toBeGreaterThanOrEqual(3 * 86_400_000);
    expect(span(highestJitter)).toBeLessThan(4 * 86_400_000);
  });

  it("spreads deliveries that failed together", () => {
    const delays = new Set(Array.from({ length: 50 }, () => nextAttemptDelayMs(3)));
    expect(delays.size).toBeGreaterThan(40);
  });

  it("returns null once the tenth attempt has been made", () => {
    expect(nextAttemptDelayMs(MAX_ATTEMPTS - 1, noJitter)).toBe(86_400_000);
    expect(nextAttemptDelayMs(MAX_ATTEMPTS, noJitter)).toBeNull();
    expect(nextAttemptDelayMs(MAX_ATTEMPTS + 5, noJitter)).toBeNull();
  });

  it("refuses a nonsensical attempt count", () => {
    expect(() => nextAttemptDelayMs(-1)).toThrow(RangeError);
    expect(() => nextAttemptDelayMs(1.5)).toThrow(RangeError);
    expect(() => nextAttemptDelayMs(Number.NaN)).toThrow(RangeError);
  });
});

describe("parseRetryAfter", () => {
  it("reads delta-seconds", () => {
    expect(parseRetryAfter("120", now)).toBe(120_000);
    expect(parseRetryAfter(" 0 ", now)).toBe(0);
  });

  it("reads an IMF-fixdate relative to now", () => {
    expect(parseRetryAfter("Wed, 15 Jan 2025 10:02:30 GMT", now)).toBe(150_000);
  });

  it("reads the obsolete RFC 850 and asctime forms as UTC", () => {
    expect(parseRetryAfter("Wednesday, 15-Jan-25 10:01:00 GMT", now)).toBe(60_000);
    expect(parseRetryAfter("Wed Jan 15 10:00:10 2025", now)).toBe(10_000);
    expect(parseRetryAfter("Thu Jan 16 09:00:00 2025", now)).toBe(23 * 3_600_000);
    // asctime pads a one-digit day with a space.
    expect(parseRetryAfter("Wed Jan  1 10:00:00 2025", now)).toBe(0);
  });

  it("answers 0 for a date already past", () => {
    expect(parseRetryAfter("Tue, 14 Jan 2025 10:00:00 GMT", now)).toBe(0);
  });

  it("caps the wait at 24 hours", () => {
    expect(parseRetryAfter("999999999", now)).toBe(MAX_RETRY_AFTER_MS);
    expect(parseRetryAfter("Fri, 15 Jan 2027 10:00:00 GMT", now)).toBe(MAX_RETRY_AFTER_MS);
    expect(MAX_RETRY_AFTER_MS).toBe(86_400_000);
  });

  it.each([
    ["absent", undefined],
    ["empty", ""],
    ["negative", "-5"],
    ["fractional", "1.5"],
    ["with a unit", "10s"],
    ["a month and year", "Jan 2025"],
    ["an ISO date", "2025-01-15T10:05:00Z"],
    ["a date without GMT", "Wed, 15 Jan 2025 10:02:30"],
    ["a day that does not exist", "Fri, 31 Feb 2025 10:00:00 GMT"],
    ["an unknown month", "Wed, 15 Foo 2025 10:02:30 GMT"],
    ["an hour out of range", "Wed, 15 Jan 2025 25:00:00 GMT"]
  ])("ignores a value that is %s", (_case, header) => {
    expect(parseRetryAfter(header, now)).toBeNull();
  });
});

describe("delayAfterResponse", () => {
  it("honours a longer Retry-After on 429 and 503", () => {
    expect(delayAfterResponse(1, 429, "600", now, noJitter)).toBe(600_000);
    expect(delayAfterResponse(1, 503, "Wed, 15 Jan 2025 11:00:00 GMT", now, noJitter)).toBe(3_600_000);
  });

  it("never retries sooner than the schedule because of a short Retry-After", () => {
    expect(delayAfterResponse(3, 429, "1", now, noJitter)).toBe(1_800_000);
  });

  it("ignores Retry-After on other answers and on network failures", () => {
    expect(delayAfterResponse(1, 500, "600", now, noJitter)).toBe(5_000);
    expect(delayAfterResponse(1, 404, "600", now, noJitter)).toBe(5_000);
    expect(delayAfterResponse(1, null, "600", now, noJitter)).toBe(5_000);
  });

  it("falls back to the schedule when Retry-After is absent or invalid", () => {
    expect(delayAfterResponse(2, 429, undefined, now, noJitter)).toBe(300_000);
    expect(delayAfterResponse(2, 503, "soon", now, noJitter)).toBe(300_000);
  });

  it("does not let Retry-After add attempts beyond the last one", () => {
    expect(delayAfterResponse(MAX_ATTEMPTS, 429, "60", now, noJitter)).toBeNull();
  });

  it("caps what the receiver can ask for at 24 hours", () => {
    expect(delayAfterResponse(1, 429, "604800", now, noJitter)).toBe(MAX_RETRY_AFTER_MS);
  });
});
