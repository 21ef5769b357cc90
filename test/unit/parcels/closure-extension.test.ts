import { closedDaysBetween, closureExtensionDays, deadlineWithClosures } from "../../../services/parcels/relay/closure-extension";

/** How far closures move a parcel's deadline (decision 0029): pure, recomputed from the base deadline. */

const DAY_MS = 86_400_000;

describe("closed days inside a window", () => {
  test("overlapping and identical closures count each day once; days outside the window do not count", () => {
    const same = { from: "2026-12-02", to: "2026-12-04" };
    expect(closedDaysBetween([same, same, same, same, same], "2026-12-01", "2026-12-10")).toBe(3);
    expect(closedDaysBetween([same, { from: "2026-12-03", to: "2026-12-06" }], "2026-12-01", "2026-12-10")).toBe(5);
    expect(closedDaysBetween([{ from: "2026-11-25", to: "2026-12-02" }], "2026-12-01", "2026-12-10")).toBe(2);
    expect(closedDaysBetween([{ from: "2099-01-01", to: "2099-02-28" }], "2026-12-01", "2026-12-10")).toBe(0);
    expect(
      closedDaysBetween(
        [
          { from: "2026-12-01", to: "2026-12-01" },
          { from: "2026-12-02", to: "2026-12-02" }
        ],
        "2026-12-01",
        "2026-12-10"
      )
    ).toBe(2);
  });
});

describe("the extension of a parcel's holding window", () => {
  const window = { firstDay: "2026-12-01", baseLastDay: "2026-12-08", maxDays: 7 };

  test("a far-future closure, five times over, adds nothing", () => {
    const far = { from: "2099-01-01", to: "2099-01-30" };
    expect(closureExtensionDays([far, far, far, far, far], window)).toBe(0);
  });

  test("the closed days inside the window, the window growing with them", () => {
    expect(closureExtensionDays([{ from: "2026-12-03", to: "2026-12-05" }], window)).toBe(3);
    // 12-09 lies just past the base deadline: it counts once the first closure brought the deadline there.
    expect(
      closureExtensionDays(
        [
          { from: "2026-12-08", to: "2026-12-08" },
          { from: "2026-12-09", to: "2026-12-09" }
        ],
        window
      )
    ).toBe(2);
    expect(closureExtensionDays([{ from: "2026-12-10", to: "2026-12-12" }], window)).toBe(0);
  });

  test("at most the holding period, however long the closures", () => {
    expect(closureExtensionDays([{ from: "2026-12-02", to: "2027-01-30" }], window)).toBe(7);
  });

  test("closed days before the parcel arrived take nothing from its recipient", () => {
    expect(closureExtensionDays([{ from: "2026-11-20", to: "2026-11-30" }], window)).toBe(0);
  });
});

describe("the deadline with the closures' days", () => {
  const now = new Date("2026-12-05T10:00:00Z");
  const base = new Date("2026-12-08T10:00:00Z");

  test("base plus the days, later or earlier", () => {
    const current = new Date(base.getTime() + 3 * DAY_MS);
    expect(deadlineWithClosures({ base, days: 5, current, now })).toEqual(new Date(base.getTime() + 5 * DAY_MS));
    expect(deadlineWithClosures({ base, days: 0, current, now })).toEqual(base);
  });

  test("a removal never brings the deadline before now + 1 day, and leaves one already sooner as it is", () => {
    const early = new Date("2026-12-05T12:00:00Z");
    expect(deadlineWithClosures({ base: early, days: 0, current: new Date("2026-12-09T12:00:00Z"), now })).toEqual(
      new Date(now.getTime() + DAY_MS)
    );
    const soon = new Date("2026-12-05T20:00:00Z");
    expect(deadlineWithClosures({ base: new Date("2026-12-05T11:00:00Z"), days: 0, current: soon, now })).toEqual(soon);
  });
});
