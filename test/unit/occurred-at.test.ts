import { boundOccurredAt, occurredAtOf, withinStory } from "../../lib/occurred-at";

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

/** Issue 43: the time within the parcel's story and the device's, the rule the relay API and the logistics scans share. */
describe("boundOccurredAt", () => {
  const now = new Date("2026-11-26T12:00:00Z");
  const at = (iso: string) => new Date(iso);
  const story = { now, previousEventAt: at("2026-11-26T08:00:00Z"), pairedAt: at("2026-11-20T09:00:00Z") };

  test("a time after the previous event and the pairing, within the clock's range, is itself", () => {
    expect(boundOccurredAt(at("2026-11-26T09:30:00Z"), story)).toEqual({ ok: true, at: at("2026-11-26T09:30:00Z") });
    expect(boundOccurredAt(null, story)).toEqual({ ok: true, at: now });
  });

  test("before the previous event: refused with that reason; within a phone's drift of it: the event's time", () => {
    expect(boundOccurredAt(at("2026-11-26T07:59:49Z"), story)).toEqual({
      ok: false,
      reason: "before-previous-event",
      message: "is before the parcel's previous event (2026-11-26T08:00:00.000Z)"
    });
    expect(boundOccurredAt(at("2026-11-24T12:00:00Z"), story)).toMatchObject({ ok: false, reason: "before-previous-event" });
    expect(boundOccurredAt(at("2026-11-26T07:59:51Z"), story)).toEqual({ ok: true, at: at("2026-11-26T08:00:00Z") });
  });

  test("before the device was paired: refused with that reason, whatever the parcel's story", () => {
    const paired = { now, previousEventAt: at("2026-11-25T08:00:00Z"), pairedAt: at("2026-11-26T10:00:00Z") };
    expect(boundOccurredAt(at("2026-11-26T09:00:00Z"), paired)).toEqual({
      ok: false,
      reason: "before-pairing",
      message: "is before this device was paired (2026-11-26T10:00:00.000Z)"
    });
    expect(boundOccurredAt(at("2026-11-26T09:59:55Z"), paired)).toEqual({ ok: true, at: at("2026-11-26T10:00:00Z") });
    expect(boundOccurredAt(at("2026-11-26T09:00:00Z"), { ...paired, pairedAt: null })).toMatchObject({ ok: true });
  });

  test("the clock's bounds come first: the future, and more than 72 hours back", () => {
    expect(boundOccurredAt(at("2026-11-26T12:00:11Z"), story)).toMatchObject({ ok: false, reason: "future" });
    expect(boundOccurredAt(at("2026-11-23T11:59:59Z"), { ...story, previousEventAt: null, pairedAt: null })).toMatchObject({
      ok: false,
      reason: "too-old"
    });
  });

  test("withinStory throws OCCURRED_AT_OUT_OF_RANGE naming occurredAt and the reason; null stays null (now)", () => {
    expect(withinStory(null, story)).toBeNull();
    try {
      withinStory(at("2026-11-26T07:00:00Z"), story);
      throw new Error("accepted");
    } catch (err) {
      expect(err).toMatchObject({
        type: "OCCURRED_AT_OUT_OF_RANGE",
        code: 400,
        data: { details: [{ field: "occurredAt", message: "is before the parcel's previous event (2026-11-26T08:00:00.000Z)" }] }
      });
    }
  });
});
