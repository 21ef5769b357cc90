import {
  algiersClock,
  formatOpeningHours,
  isValidOpeningHours,
  OpeningHours,
  openingHoursSchema,
  openingStatusAt,
  TimeRange,
  weekdayName
} from "../../lib/opening-hours";

const r = (open: string, close: string): TimeRange => ({ open, close });
const SPLIT = [r("08:30", "12:30"), r("14:00", "18:30")];

/** A usual shop: Saturday to Thursday with a lunch break, Friday afternoon only. */
const SHOP: OpeningHours = { sat: SPLIT, sun: SPLIT, mon: SPLIT, tue: SPLIT, wed: SPLIT, thu: SPLIT, fri: [r("14:00", "18:00")] };

function problems(value: unknown): string[] {
  const { error } = openingHoursSchema().validate(value, { abortEarly: false, convert: false, errors: { wrap: { label: false } } });
  return error?.details.map(d => `${d.path.join(".")}: ${d.message}`) ?? [];
}

describe("openingHoursSchema (back-office)", () => {
  it("accepts split days, closed days, a day open until midnight and a night shift from midnight", () => {
    expect(problems(SHOP)).toEqual([]);
    expect(problems({ ...SHOP, fri: [] })).toEqual([]);
    expect(problems({ ...SHOP, thu: [r("00:00", "02:00"), r("07:00", "24:00")] })).toEqual([]);
    expect(problems({ ...SHOP, mon: [r("06:00", "08:00"), r("09:00", "12:00"), r("13:00", "17:00"), r("18:00", "23:00")] })).toEqual([]);
    // Back to back is allowed: two ranges that touch are not overlapping.
    expect(problems({ ...SHOP, tue: [r("08:00", "12:00"), r("12:00", "14:00")] })).toEqual([]);
    expect(isValidOpeningHours(SHOP)).toBe(true);
  });

  it("needs all seven days and nothing else", () => {
    const { sun: _sun, ...sixDays } = SHOP;
    expect(problems(sixDays)).toEqual(["sun: sun is required"]);
    expect(problems({ ...SHOP, sunday: [] })).toEqual(["sunday: sunday is not allowed"]);
    expect(problems(null)).toEqual([": value must be of type object"]);
  });

  it("refuses malformed times, naming the range", () => {
    expect(problems({ ...SHOP, mon: [r("8:30", "12:30")] })).toEqual(["mon.0.open: mon[0].open must be a time HH:MM, 00:00 to 23:59"]);
    expect(problems({ ...SHOP, mon: [r("08:30", "25:00")] })).toEqual(["mon.0.close: mon[0].close must be a time HH:MM, 00:01 to 24:00"]);
    expect(problems({ ...SHOP, mon: [r("24:00", "24:00")] })[0]).toMatch(/^mon\.0\.open/);
    expect(problems({ ...SHOP, mon: [{ open: "08:00" }] })).toEqual(["mon.0.close: mon[0].close is required"]);
    expect(problems({ ...SHOP, mon: [{ ...r("08:00", "12:00"), note: "x" }] })).toEqual(["mon.0.note: mon[0].note is not allowed"]);
  });

  it("refuses a range that closes before it opens or spans midnight", () => {
    expect(problems({ ...SHOP, wed: [r("18:00", "08:00")] })).toEqual([
      "wed.0: wed[0] must close after it opens (ranges do not span midnight)"
    ]);
    expect(problems({ ...SHOP, wed: [r("10:00", "10:00")] })).toEqual([
      "wed.0: wed[0] must close after it opens (ranges do not span midnight)"
    ]);
  });

  it("refuses overlapping or unordered ranges, and more than four a day", () => {
    expect(problems({ ...SHOP, sat: [r("08:00", "13:00"), r("12:30", "18:00")] })).toEqual([
      "sat: sat must list its ranges in order, without overlap"
    ]);
    expect(problems({ ...SHOP, sat: [r("14:00", "18:00"), r("08:00", "12:00")] })).toEqual([
      "sat: sat must list its ranges in order, without overlap"
    ]);
    const five = [r("01:00", "02:00"), r("03:00", "04:00"), r("05:00", "06:00"), r("07:00", "08:00"), r("09:00", "10:00")];
    expect(problems({ ...SHOP, sat: five })).toEqual(["sat: sat must contain less than or equal to 4 items"]);
    expect(isValidOpeningHours({ ...SHOP, sat: five })).toBe(false);
  });
});

describe("Algiers clock", () => {
  it("is UTC+1 all year (no summer time)", () => {
    // Friday 14 March 2025, 10:00 UTC = 11:00 in Algiers.
    expect(algiersClock(new Date("2025-03-14T10:00:00Z"))).toEqual({ day: "fri", minute: 11 * 60 });
    expect(algiersClock(new Date("2025-07-14T23:30:00Z"))).toEqual({ day: "tue", minute: 30 });
  });
});

describe("openingStatusAt", () => {
  it("is open inside a range, until its close", () => {
    // Saturday 15 March 2025, 09:00 in Algiers.
    expect(openingStatusAt(SHOP, new Date("2025-03-15T08:00:00Z"))).toEqual({ open: true, closesAt: "12:30" });
  });

  it("during the lunch break, opens again today", () => {
    expect(openingStatusAt(SHOP, new Date("2025-03-15T12:00:00Z"))).toEqual({
      open: false,
      opensAt: { day: "sat", time: "14:00", today: true }
    });
  });

  it("at closing time it is closed; after the last range, the next day that opens", () => {
    expect(openingStatusAt(SHOP, new Date("2025-03-15T17:30:00Z"))).toEqual({
      open: false,
      opensAt: { day: "sun", time: "08:30", today: false }
    });
    const fridayClosed = { ...SHOP, fri: [] };
    // Thursday 13 March, 20:00: Friday is closed, Saturday opens.
    expect(openingStatusAt(fridayClosed, new Date("2025-03-13T19:00:00Z"))).toEqual({
      open: false,
      opensAt: { day: "sat", time: "08:30", today: false }
    });
  });

  it("never opens when every day is closed", () => {
    const closed = { sat: [], sun: [], mon: [], tue: [], wed: [], thu: [], fri: [] };
    expect(openingStatusAt(closed, new Date())).toEqual({ open: false, opensAt: null });
  });
});

describe("formatOpeningHours", () => {
  it("groups consecutive days from Saturday, in French", () => {
    expect(formatOpeningHours({ ...SHOP, fri: [] }, "fr").map(row => [row.days, row.ranges.join(" ; ")])).toEqual([
      ["Du samedi au jeudi", "08:30–12:30 ; 14:00–18:30"],
      ["Vendredi", "Fermé"]
    ]);
  });

  it("in Arabic, with words around the times so that they read the same in either direction", () => {
    const rows = formatOpeningHours(SHOP, "ar");
    expect(rows.map(row => [row.days, row.ranges])).toEqual([
      ["من السبت إلى الخميس", ["من 08:30 إلى 12:30", "من 14:00 إلى 18:30"]],
      ["الجمعة", ["من 14:00 إلى 18:00"]]
    ]);
  });

  it("in English; a day that differs in the middle breaks the group; today is marked", () => {
    const rows = formatOpeningHours({ ...SHOP, tue: [r("09:00", "12:00")], fri: [] }, "en", "wed");
    expect(rows.map(row => [row.days, row.ranges.join(", "), row.includesToday])).toEqual([
      ["Saturday to Monday", "08:30–12:30, 14:00–18:30", false],
      ["Tuesday", "09:00–12:00", false],
      ["Wednesday to Thursday", "08:30–12:30, 14:00–18:30", true],
      ["Friday", "Closed", false]
    ]);
    expect(rows[3].closed).toBe(true);
  });

  it("names weekdays in each language", () => {
    expect(["fr", "ar", "en"].map(lang => weekdayName("fri", lang as "fr" | "ar" | "en"))).toEqual(["Vendredi", "الجمعة", "Friday"]);
  });
});
