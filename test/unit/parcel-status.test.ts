import { AppError } from "../../lib/errors";
import {
  CANCELLABLE_STATUSES,
  PARCEL_STATUSES,
  ParcelStatus,
  assertCancellable,
  assertOperatorTransition,
  canTransition,
  eventTypeFor,
  isParcelStatus
} from "../../lib/parcel-status";

// The graph of DESIGN §3, written out independently of the module so a typo in either shows.
const ALLOWED: Array<[ParcelStatus, ParcelStatus]> = [
  ["CREATED", "READY_FOR_PICKUP"],
  ["READY_FOR_PICKUP", "PICKED_UP"],
  ["PICKED_UP", "IN_TRANSIT"],
  ["PICKED_UP", "LOST"],
  ["PICKED_UP", "DAMAGED"],
  ["IN_TRANSIT", "AT_RELAY"],
  ["IN_TRANSIT", "RETURN_PENDING"],
  ["IN_TRANSIT", "LOST"],
  ["IN_TRANSIT", "DAMAGED"],
  ["AT_RELAY", "RELAY_NOTIFIED"],
  ["AT_RELAY", "DELIVERED"],
  ["AT_RELAY", "RETURN_PENDING"],
  ["AT_RELAY", "LOST"],
  ["AT_RELAY", "DAMAGED"],
  ["RELAY_NOTIFIED", "DELIVERED"],
  ["RELAY_NOTIFIED", "RETURN_PENDING"],
  ["RETURN_PENDING", "RETURNED"],
  ["RETURN_PENDING", "LOST"]
];

function thrownType(fn: () => void): string | undefined {
  try {
    fn();
    return undefined;
  } catch (e) {
    expect(e).toBeInstanceOf(AppError);
    return (e as AppError).type;
  }
}

describe("PARCEL_STATUSES", () => {
  it("lists the twelve SPEC §3 values in order", () => {
    expect(PARCEL_STATUSES).toEqual([
      "CREATED",
      "READY_FOR_PICKUP",
      "PICKED_UP",
      "IN_TRANSIT",
      "AT_RELAY",
      "RELAY_NOTIFIED",
      "DELIVERED",
      "RETURN_PENDING",
      "RETURNED",
      "LOST",
      "DAMAGED",
      "CANCELLED"
    ]);
  });

  it("recognises exactly those values", () => {
    for (const s of PARCEL_STATUSES) expect(isParcelStatus(s)).toBe(true);
    for (const x of ["PENDING", "created", "", "DELIVERED ", null, undefined, 3, {}]) {
      expect(isParcelStatus(x)).toBe(false);
    }
  });
});

describe("operator transitions", () => {
  it.each(ALLOWED)("allows %s → %s", (from, to) => {
    expect(canTransition(from, to)).toBe(true);
    expect(() => assertOperatorTransition(from, to)).not.toThrow();
  });

  it("forbids every pair outside the graph", () => {
    const allowed = new Set(ALLOWED.map(([f, t]) => `${f}>${t}`));
    let forbidden = 0;
    for (const from of PARCEL_STATUSES) {
      for (const to of PARCEL_STATUSES) {
        if (allowed.has(`${from}>${to}`)) continue;
        forbidden++;
        expect([from, to, canTransition(from, to)]).toEqual([from, to, false]);
      }
    }
    expect(forbidden).toBe(12 * 12 - ALLOWED.length);
  });

  it.each<[ParcelStatus, ParcelStatus]>([
    ["CREATED", "DELIVERED"],
    ["CREATED", "CANCELLED"], // cancel is its own path, not an operator move
    ["READY_FOR_PICKUP", "IN_TRANSIT"],
    ["IN_TRANSIT", "PICKED_UP"],
    ["RELAY_NOTIFIED", "AT_RELAY"],
    ["RELAY_NOTIFIED", "LOST"],
    ["DELIVERED", "RETURN_PENDING"],
    ["RETURNED", "IN_TRANSIT"],
    ["LOST", "AT_RELAY"],
    ["DAMAGED", "DELIVERED"],
    ["CANCELLED", "READY_FOR_PICKUP"],
    ["AT_RELAY", "AT_RELAY"]
  ])("refuses %s → %s with INVALID_TRANSITION (409)", (from, to) => {
    expect(canTransition(from, to)).toBe(false);
    expect(thrownType(() => assertOperatorTransition(from, to))).toBe("INVALID_TRANSITION");
  });

  it("has no way out of a terminal status", () => {
    for (const from of ["DELIVERED", "RETURNED", "LOST", "DAMAGED", "CANCELLED"] as const) {
      for (const to of PARCEL_STATUSES) expect(canTransition(from, to)).toBe(false);
    }
  });

  it("refuses unknown statuses instead of crashing", () => {
    expect(canTransition("PENDING" as ParcelStatus, "CREATED")).toBe(false);
    expect(canTransition("CREATED", "toString" as ParcelStatus)).toBe(false);
  });
});

describe("cancellation", () => {
  it("is possible from CREATED and READY_FOR_PICKUP only", () => {
    expect([...CANCELLABLE_STATUSES].sort()).toEqual(["CREATED", "READY_FOR_PICKUP"]);
    for (const s of PARCEL_STATUSES) {
      const cancellable = s === "CREATED" || s === "READY_FOR_PICKUP";
      expect(thrownType(() => assertCancellable(s))).toBe(cancellable ? undefined : "PARCEL_NOT_CANCELLABLE");
    }
  });

  it("answers 409", () => {
    try {
      assertCancellable("IN_TRANSIT");
      throw new Error("expected a refusal");
    } catch (e) {
      expect((e as AppError).code).toBe(409);
    }
  });
});

describe("eventTypeFor", () => {
  it("is parcel.<status in lower case>", () => {
    expect(eventTypeFor("DELIVERED")).toBe("parcel.delivered");
    expect(eventTypeFor("READY_FOR_PICKUP")).toBe("parcel.ready_for_pickup");
    expect(eventTypeFor("CREATED")).toBe("parcel.created");
    expect(new Set(PARCEL_STATUSES.map(eventTypeFor)).size).toBe(12);
  });
});
