import { addDays, daysBetween, isClosedOn, weekdayOf } from "../../../services/parcels/calendar-date";
import { closureLength, closureProblems, closureStatusOf, MAX_CLOSURE_DAYS, noticeWindow } from "../../../services/parcels/relay/closures";
import type { OpeningHours } from "../../../lib/opening-hours";

/** The pure rules of relay closures (issue 22); the integration suite runs them against both engines. */

const HOURS: OpeningHours = {
  sat: [{ open: "08:30", close: "18:30" }],
  sun: [{ open: "08:30", close: "18:30" }],
  mon: [{ open: "08:30", close: "18:30" }],
  tue: [{ open: "08:30", close: "18:30" }],
  wed: [{ open: "08:30", close: "18:30" }],
  thu: [{ open: "08:30", close: "12:30" }],
  fri: []
};

describe("days, Algiers time", () => {
  test("day arithmetic across months and years", () => {
    expect(addDays("2026-12-30", 3)).toBe("2027-01-02");
    expect(addDays("2026-03-01", -1)).toBe("2026-02-28");
    expect(daysBetween("2026-12-01", "2026-12-07")).toBe(6);
    expect(weekdayOf("2026-11-27")).toBe("fri");
  });

  test("the notice window starts on the Algiers day (UTC+1): 23:30 UTC is already tomorrow", () => {
    expect(noticeWindow(new Date("2026-11-26T23:30:00Z"), 2)).toEqual({ from: "2026-11-27", to: "2026-11-29" });
    expect(noticeWindow(new Date("2026-11-26T22:59:00Z"), 0)).toEqual({ from: "2026-11-26", to: "2026-11-26" });
  });
});

describe("a new closure's days", () => {
  const today = "2026-11-26";
  test("first and last days included, at most 60", () => {
    expect(closureLength({ from: today, to: today })).toBe(1);
    expect(closureProblems({ from: today, to: addDays(today, MAX_CLOSURE_DAYS - 1) }, today)).toEqual([]);
    expect(closureProblems({ from: today, to: addDays(today, MAX_CLOSURE_DAYS) }, today)).toEqual([
      { field: "to", message: expect.stringContaining("at most 60 days") }
    ]);
  });

  test("to before from, or a closure already over, is refused on to; one that began and goes on is not", () => {
    expect(closureProblems({ from: "2026-12-02", to: "2026-12-01" }, today)[0].field).toBe("to");
    expect(closureProblems({ from: "2026-11-20", to: "2026-11-25" }, today)[0].message).toContain("over");
    expect(closureProblems({ from: "2026-11-20", to: today }, today)).toEqual([]);
  });

  test("a closure begins at most 60 days ahead, refused on from", () => {
    expect(closureProblems({ from: addDays(today, 60), to: addDays(today, 60) }, today)).toEqual([]);
    expect(closureProblems({ from: addDays(today, 61), to: addDays(today, 61) }, today)).toEqual([
      { field: "from", message: expect.stringContaining("at most 60 days ahead") }
    ]);
    expect(closureProblems({ from: "2099-01-01", to: "2099-01-30" }, today)[0].field).toBe("from");
  });
});

describe("what the search says", () => {
  const closures = [{ from: "2026-11-26", to: "2026-11-28", reason: "inventaire" }];
  // 10:00 in Algiers on Thursday 26 November 2026.
  const thursdayMorning = new Date("2026-11-26T09:00:00Z");

  test("closed today: not open now, whatever the hours", () => {
    expect(closureStatusOf({ openingHours: HOURS }, closures, thursdayMorning)).toEqual({ closures, openNow: false });
    expect(isClosedOn(closures, "2026-11-28")).toBe(true);
    expect(isClosedOn(closures, "2026-11-29")).toBe(false);
  });

  test("otherwise open now within today's hours, or always when the hours are unknown", () => {
    expect(closureStatusOf({ openingHours: HOURS }, [], thursdayMorning).openNow).toBe(true);
    expect(closureStatusOf({ openingHours: HOURS }, [], new Date("2026-11-26T13:00:00Z")).openNow).toBe(false);
    expect(closureStatusOf({ openingHours: null }, [], new Date("2026-11-27T02:00:00Z")).openNow).toBe(true);
  });
});
