import type { RunStop } from "../../web/courier/api";
import { countDifference, hubHandIn, pickupTally, runProgress, stopKey, stopKeysOf } from "../../web/courier/progress";
import { COINS_DZD, denominationsOf, NOTES_DZD, totalDzd } from "../../web/shared/denominations";

/**
 * The courier app's arithmetic (web/courier/progress.ts, web/shared/denominations.ts): what the
 * courier reads before leaving a merchant, the run's progress, and what a count of cash sums to.
 */
const stop = (kind: RunStop["kind"], ref: string, extra: Partial<RunStop> = {}): RunStop => ({
  position: 0,
  kind,
  pickupId: kind === "PICKUP" ? ref : null,
  confirmationNumber: null,
  address: null,
  readyAt: null,
  closeAt: null,
  hubId: kind === "HUB" ? ref : null,
  hubCode: null,
  relayCode: kind === "RELAY" ? ref : null,
  parcelCount: 0,
  otherCount: 0,
  deliver: [],
  collectReturns: [],
  instruction: "",
  ...extra
});

describe("a merchant's pickup before the courier leaves", () => {
  const listed = ["p1", "p2", "p3", "p4", "p5"];

  test("nothing scanned: every listed parcel is missing", () => {
    expect(pickupTally(listed, [])).toEqual({ expected: 5, scanned: 0, missing: 5, unexpected: [], waiting: 0 });
  });

  test("four of five collected: one missing, seen before leaving", () => {
    const scans = ["p1", "p2", "p3", "p4"].map((id, i) => ({ trackingNumber: `RP00000000${i}DZ`, parcelId: id, outcome: "COLLECTED" }));
    expect(pickupTally(listed, scans)).toMatchObject({ scanned: 4, missing: 1, unexpected: [] });
  });

  test("a parcel not listed is unexpected, and covers no listed one", () => {
    const scans = [
      { trackingNumber: "RP000000001DZ", parcelId: "p1", outcome: "COLLECTED" },
      { trackingNumber: "RP999999999DZ", parcelId: "other", outcome: "UNEXPECTED" }
    ];
    expect(pickupTally(listed, scans)).toMatchObject({ scanned: 1, missing: 4, unexpected: ["RP999999999DZ"] });
  });

  test("scans waiting offline count as scanned until the server answers", () => {
    const scans = [{ trackingNumber: "RP000000001DZ" }, { trackingNumber: "RP000000002DZ" }];
    expect(pickupTally(listed, scans)).toMatchObject({ scanned: 2, missing: 3, waiting: 2 });
  });

  test("the same label scanned twice (typed with a dash, lower case) counts once", () => {
    const scans = [
      { trackingNumber: "RP000000001DZ", parcelId: "p1", outcome: "COLLECTED" },
      { trackingNumber: "rp00000-0001dz", parcelId: "p1", outcome: "ALREADY" }
    ];
    expect(pickupTally(listed, scans)).toMatchObject({ scanned: 1, missing: 4 });
  });

  test("more scans than listed never make a negative missing", () => {
    const scans = ["a", "b", "c"].map(n => ({ trackingNumber: n }));
    expect(pickupTally(["p1"], scans).missing).toBe(0);
  });
});

describe("the run's progress", () => {
  const stops = [stop("PICKUP", "pu-1"), stop("HUB", "hub-1"), stop("RELAY", "DZ-16-A"), stop("RELAY", "DZ-16-B")];

  test("a stop is known by its kind and what it is about, whatever its position", () => {
    expect(stopKey(stops[2])).toBe("RELAY:DZ-16-A");
    expect(stopKey({ ...stops[2], position: 7 } as RunStop)).toBe(stopKey(stops[2]));
    expect(stopKey(stops[0])).not.toBe(stopKey(stops[1]));
  });

  test("stops done, the next one, parcels and cash aboard", () => {
    const day = { done: ["PICKUP:pu-1", "HUB:hub-1"], aboard: ["A", "B", "A"], cashAboardDzd: 4500 };
    expect(runProgress(stops, day)).toEqual({ stopsDone: 2, stops: 4, parcelsAboard: 2, cashAboardDzd: 4500, next: 2 });
  });

  test("a stop done out of order: the next is the first not done", () => {
    expect(runProgress(stops, { done: ["HUB:hub-1"], aboard: [], cashAboardDzd: 0 }).next).toBe(0);
  });

  test("every stop done: no next stop", () => {
    expect(runProgress(stops, { done: stopKeysOf(stops), aboard: [], cashAboardDzd: 0 }).next).toBeNull();
  });

  test("the hub visited twice (morning and evening): two stops, the second not done with the first", () => {
    const twice = [...stops, stop("HUB", "hub-1")];
    expect(stopKeysOf(twice)).toEqual(["PICKUP:pu-1", "HUB:hub-1", "RELAY:DZ-16-A", "RELAY:DZ-16-B", "HUB:hub-1#2"]);
    const progress = runProgress(twice, { done: stopKeysOf(stops), aboard: [], cashAboardDzd: 0 });
    expect({ done: progress.stopsDone, next: progress.next }).toEqual({ done: 4, next: 4 });
  });
});

describe("cash counted by denomination", () => {
  test("the notes and coins a courier counts in Algeria", () => {
    expect(NOTES_DZD).toEqual([2000, 1000, 500, 200]);
    expect(COINS_DZD).toEqual([200, 100, 50, 20, 10, 5]);
  });

  test("the 200 DZD note and coin are one face value for the API; empty and bad lines are left out", () => {
    const count = denominationsOf([
      { face: 2000, kind: "note", count: 3 },
      { face: 200, kind: "note", count: 2 },
      { face: 200, kind: "coin", count: 1 },
      { face: 50, kind: "coin", count: Number.NaN },
      { face: 10, kind: "coin", count: -4 },
      { face: 5, kind: "coin", count: 0 }
    ]);
    expect(count).toEqual({ "2000": 3, "200": 3 });
    expect(totalDzd(count)).toBe(6600);
  });

  test("nothing counted is 0 DZD", () => {
    expect(totalDzd(denominationsOf([]))).toBe(0);
  });

  test("the difference shown: counted minus expected, none when nothing is expected", () => {
    expect(countDifference(6500, 7000)).toBe(-500);
    expect(countDifference(7000, 7000)).toBe(0);
    expect(countDifference(7000, null)).toBeNull();
  });
});

describe("the hub stop's list of parcels to hand in", () => {
  const none = new Set<string>();

  test("before the stop read the run (or offline): the phone's copy, less what was loaded here", () => {
    expect(hubHandIn(["A", "B", "C"], null, new Set(["B"]), none)).toEqual({ list: ["A", "C"], taken: [] });
  });

  test("the server's list once read: what the hub scanned in leaves the list and is taken off the parcels aboard", () => {
    expect(hubHandIn(["A", "B"], ["B"], none, none)).toEqual({ list: ["B"], taken: ["A"] });
  });

  test("a scan still waiting in the outbox stays listed and aboard (the server does not know it yet)", () => {
    expect(hubHandIn(["A", "B"], ["B"], none, new Set(["A"]))).toEqual({ list: ["B", "A"], taken: [] });
  });

  test("a parcel loaded here is neither to hand in nor taken", () => {
    expect(hubHandIn(["A", "B"], ["B"], new Set(["A"]), none)).toEqual({ list: ["B"], taken: [] });
  });

  test("what the server lists and the phone did not record is listed too", () => {
    expect(hubHandIn([], ["Z"], none, none)).toEqual({ list: ["Z"], taken: [] });
  });
});
