import { occurredAtOf } from "../../lib/occurred-at";

/** The range of a counter operation's time (issue 27): 72 hours back, a few seconds of drift ahead. */
describe("occurredAtOf", () => {
  const now = new Date("2026-11-26T12:00:00Z");
  const codeOf = (given: string) => {
    try {
      occurredAtOf(given, now);
      return "accepted";
    } catch (err) {
      return (err as { type: string }).type;
    }
  };

  test("not given: null (now)", () => expect(occurredAtOf(null, now)).toBeNull());

  test("72 hours back to 10 seconds ahead are accepted, as the instant given", () => {
    expect(occurredAtOf("2026-11-23T12:00:00Z", now)?.toISOString()).toBe("2026-11-23T12:00:00.000Z");
    expect(occurredAtOf("2026-11-26T13:00:05+01:00", now)?.toISOString()).toBe("2026-11-26T12:00:05.000Z");
    expect(codeOf("2026-11-26T12:00:10Z")).toBe("accepted");
  });

  test("further back or ahead is OCCURRED_AT_OUT_OF_RANGE; not a date-time is VALIDATION_FAILED", () => {
    expect(codeOf("2026-11-23T11:59:59Z")).toBe("OCCURRED_AT_OUT_OF_RANGE");
    expect(codeOf("2026-11-26T12:00:11Z")).toBe("OCCURRED_AT_OUT_OF_RANGE");
    expect(codeOf("2026-02-30T12:00:00Z")).toBe("VALIDATION_FAILED");
  });
});
