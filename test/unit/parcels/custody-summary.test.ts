import { custodyOf } from "../../../services/parcels/custody/custody-summary";
import type { ParcelRecord, StoredCustody } from "../../../services/parcels/parcels.store";

/** Issue 44: the parcel view's `custody`, from the row alone (decision 0056). */

const CREATED_AT = new Date("2026-12-01T08:00:00Z");
const UPDATED_AT = new Date("2026-12-03T10:00:00Z");

function parcel(status: string, custody: StoredCustody | null = null): ParcelRecord {
  return {
    status,
    custody,
    destinationRelayCode: "DZ-16-ALGER-CENTRE",
    createdAt: CREATED_AT,
    updatedAt: UPDATED_AT
  } as ParcelRecord;
}

const courier: StoredCustody = { holder: "courier", since: new Date("2026-12-02T09:00:00Z"), name: "Yacine", wilaya: null };
const hub: StoredCustody = { holder: "hub", since: new Date("2026-12-02T15:00:00Z"), name: "HUB-16-BAB-EZZOUAR", wilaya: "16" };

describe("who holds a parcel", () => {
  test("with its merchant from its creation until the courier's scan", () => {
    for (const status of ["CREATED", "READY_FOR_PICKUP"]) {
      expect(custodyOf(parcel(status))).toEqual({ holder: "merchant", since: CREATED_AT.toISOString(), name: null, wilaya: null });
    }
  });

  test("in the network, the holder logistics last told, with what a merchant may see", () => {
    expect(custodyOf(parcel("PICKED_UP", courier))).toEqual({
      holder: "courier",
      since: courier.since.toISOString(),
      name: "Yacine",
      wilaya: null
    });
    expect(custodyOf(parcel("IN_TRANSIT", hub))).toEqual({
      holder: "hub",
      since: hub.since.toISOString(),
      name: "HUB-16-BAB-EZZOUAR",
      wilaya: "16"
    });
  });

  test("a status reached without a custody write (arrival, hand-over, operator) counts from its change", () => {
    // The courier's record is stale once the relay point has the parcel: the status wins.
    expect(custodyOf(parcel("AT_RELAY", courier))).toEqual({
      holder: "relay",
      since: UPDATED_AT.toISOString(),
      name: "DZ-16-ALGER-CENTRE",
      wilaya: null
    });
    expect(custodyOf(parcel("DELIVERED", hub))).toEqual({ holder: "recipient", since: UPDATED_AT.toISOString(), name: null, wilaya: null });
    expect(custodyOf(parcel("PICKED_UP"))).toEqual({ holder: "courier", since: UPDATED_AT.toISOString(), name: null, wilaya: null });
    expect(custodyOf(parcel("RETURNED", courier))).toEqual({
      holder: "merchant",
      since: UPDATED_AT.toISOString(),
      name: null,
      wilaya: null
    });
  });

  test("nobody once LOST or DAMAGED", () => {
    expect(custodyOf(parcel("LOST", courier))).toBeNull();
    expect(custodyOf(parcel("DAMAGED", hub))).toBeNull();
  });
});
