import type { ParcelRecord } from "../../services/parcels/parcels.store";
import { toParcelView } from "../../services/parcels/parcel-view";

function record(overrides: Partial<ParcelRecord> = {}): ParcelRecord {
  return {
    id: "3f6c8e1a-5b2d-4c7e-9a10-2b3c4d5e6f70",
    organizationId: "9b1d2c3e-4f5a-4b6c-8d7e-0f1a2b3c4d5e",
    mode: "live",
    trackingNumber: "RP123456789DZ",
    status: "AT_RELAY",
    destinationRelayCode: "DZ-16-ALGER-CENTRE",
    priceCentimes: 40_000,
    codAmountCentimes: 250_000,
    declaredValueCentimes: 1_000_000,
    codStatus: "PENDING",
    pickupDeadline: new Date("2026-12-01T18:00:00Z"),
    returnFeeCentimes: null,
    returnFeePending: false,
    direction: "OUTBOUND",
    returnOf: null,
    createdAt: new Date("2026-11-20T09:00:00Z"),
    updatedAt: new Date("2026-11-21T10:30:00Z"),
    ...overrides
  } as ParcelRecord;
}

describe("the parcel view", () => {
  test("of a frozen record is the view of the same record unfrozen, with its own label URL each time", () => {
    const frozen = Object.freeze(record());
    const expected = toParcelView(record(), "https://x/labels/a.pdf");
    expect(toParcelView(frozen, "https://x/labels/a.pdf")).toStrictEqual(expected);
    expect(Object.keys(toParcelView(frozen, null))).toEqual(Object.keys(expected));
    expect(toParcelView(frozen, null).labelUrl).toBeNull();
    expect(toParcelView(frozen, "https://x/labels/b.pdf").labelUrl).toBe("https://x/labels/b.pdf");
  });

  test("of a frozen record is a new object each time: what a caller adds to one is not in the next", () => {
    const frozen = Object.freeze(record());
    const first = toParcelView(frozen, null);
    first.warnings = [{ code: "RECIPIENT_PHONE_NOT_MOBILE", message: "x" } as never];
    first.status = "DELIVERED";
    const second = toParcelView(frozen, null);
    expect(second).not.toBe(first);
    expect(second.warnings).toBeUndefined();
    expect(second.status).toBe("AT_RELAY");
  });

  test("of a record that is not frozen follows its changes", () => {
    const live = record();
    expect(toParcelView(live, null).status).toBe("AT_RELAY");
    live.status = "PICKED_UP";
    expect(toParcelView(live, null).status).toBe("PICKED_UP");
  });
});
