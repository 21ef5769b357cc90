import { algiersDate, algiersMonth, codStatusAfter, initialCodStatus } from "../../lib/cod";
import { PARCEL_STATUSES } from "../../lib/parcel-status";
import { generatePickupPin, judgePin, MAX_PIN_FAILURES, pinMatches, PIN_PATTERN } from "../../lib/pickup-pin";

describe("the COD status", () => {
  test("a parcel has one only with an amount above 0", () => {
    expect([initialCodStatus(null), initialCodStatus(0), initialCodStatus(1)]).toEqual([null, null, "PENDING"]);
  });

  test("PENDING becomes COLLECTED on DELIVERED, NOT_COLLECTED when the parcel cannot reach its recipient, and nothing else", () => {
    const after = Object.fromEntries(PARCEL_STATUSES.map(s => [s, codStatusAfter("PENDING", s)]));
    expect(after).toEqual({
      CREATED: "PENDING",
      READY_FOR_PICKUP: "PENDING",
      PICKED_UP: "PENDING",
      IN_TRANSIT: "PENDING",
      AT_RELAY: "PENDING",
      RELAY_NOTIFIED: "PENDING",
      DELIVERED: "COLLECTED",
      RETURN_PENDING: "NOT_COLLECTED",
      RETURNED: "NOT_COLLECTED",
      LOST: "NOT_COLLECTED",
      DAMAGED: "NOT_COLLECTED",
      CANCELLED: "NOT_COLLECTED"
    });
  });

  test("it only moves forward: collected, remitted and not collected stay; no COD stays none", () => {
    for (const status of PARCEL_STATUSES) {
      expect(codStatusAfter("COLLECTED", status)).toBe("COLLECTED");
      expect(codStatusAfter("REMITTED", status)).toBe("REMITTED");
      expect(codStatusAfter("NOT_COLLECTED", status)).toBe("NOT_COLLECTED");
      expect(codStatusAfter(null, status)).toBeNull();
    }
  });

  test("days and months are Algiers' (UTC+1)", () => {
    expect(algiersDate(new Date("2026-03-31T23:30:00Z"))).toBe("2026-04-01");
    expect(algiersMonth(new Date("2026-12-31T23:30:00Z"))).toEqual({ month: "2027-01", from: "2027-01-01", until: "2027-02-01" });
    expect(algiersMonth(new Date("2026-03-14T10:00:00Z"))).toEqual({ month: "2026-03", from: "2026-03-01", until: "2026-04-01" });
  });
});

describe("the pick-up PIN", () => {
  test("six digits, leading zeros kept, spread over the whole range", () => {
    const pins = Array.from({ length: 2000 }, generatePickupPin);
    expect(pins.every(p => PIN_PATTERN.test(p))).toBe(true);
    expect(new Set(pins).size).toBeGreaterThan(1990);
    expect(new Set(pins.map(p => p[0])).size).toBe(10);
  });

  test("matches exactly", () => {
    expect(pinMatches("012345", "012345")).toBe(true);
    for (const other of ["012346", "12345", "0123456", "", "012345 "]) expect(pinMatches("012345", other)).toBe(false);
  });

  test("a wrong PIN counts, the fifth locks, and a locked parcel refuses even the right one", () => {
    expect(judgePin("123456", "123456", 0)).toEqual({ ok: true });
    expect(judgePin("123456", null, 2)).toEqual({ ok: false, reason: "missing", failures: 2, attemptsLeft: 3 });
    expect(judgePin("123456", "000000", 0)).toEqual({ ok: false, reason: "wrong", failures: 1, attemptsLeft: 4 });
    expect(judgePin("123456", "000000", MAX_PIN_FAILURES - 1)).toEqual({ ok: false, reason: "wrong", failures: 5, attemptsLeft: 0 });
    expect(judgePin("123456", "123456", MAX_PIN_FAILURES)).toEqual({ ok: false, reason: "locked", failures: 5, attemptsLeft: 0 });
  });
});
