import relayPoints from "../../resources/relay-points.json";
import { PublicTrackingSource, toPublicTracking, toTrackingPageParcel } from "../../lib/public-tracking";
import type { RelayPointEntry } from "../../lib/relay-points";

const relay = (relayPoints as RelayPointEntry[]).find(p => p.code === "DZ-31-ORAN-CENTRE")!;

function source(overrides: Partial<PublicTrackingSource> = {}): PublicTrackingSource {
  return {
    trackingNumber: "RP123456785DZ",
    status: "IN_TRANSIT",
    mode: "live",
    codAmountDzd: 2500,
    history: [
      { toStatus: "IN_TRANSIT", createdAt: new Date("2025-03-11T09:20:00Z") },
      { toStatus: "PENDING", createdAt: "2025-03-10T08:11:59Z" },
      { toStatus: "CREATED", createdAt: "2025-03-10T08:12:00Z" },
      { toStatus: "PICKED_UP", createdAt: "2025-03-11T07:55:00.000Z" }
    ],
    relay,
    ...overrides
  };
}

describe("toPublicTracking", () => {
  it("answers exactly the public shape: events oldest first, the destination, the cash to bring", () => {
    expect(toPublicTracking(source())).toEqual({
      trackingNumber: "RP123456785DZ",
      status: "IN_TRANSIT",
      sandbox: false,
      events: [
        { status: "CREATED", occurredAt: "2025-03-10T08:12:00.000Z" },
        { status: "PICKED_UP", occurredAt: "2025-03-11T07:55:00.000Z" },
        { status: "IN_TRANSIT", occurredAt: "2025-03-11T09:20:00.000Z" }
      ],
      destination: {
        code: "DZ-31-ORAN-CENTRE",
        name: "Librairie El Bahia",
        city: "Oran",
        address: "12 Boulevard de la Soummam, Oran",
        openingHours: relay.openingHours
      },
      codToPayDzd: 2500,
      pickupDeadline: null,
      returnCodeSentAt: null
    });
  });

  it("copies nothing it does not name, whatever the caller passes along", () => {
    const leaky = {
      ...source(),
      id: "7f1c0b6e-3f5a-4b43-9a43-0a3c7f6b9e11",
      organizationId: "0b5d5c1e-8e43-4b7a-9d8e-2f0b7c6a1d22",
      recipientName: "Amina Benali",
      recipientPhone: "+213555123456",
      pricePaidDzd: 400,
      relay: { ...relay, active: true, internalNote: "key under the mat" }
    };
    const text = JSON.stringify(toPublicTracking(leaky));
    for (const secret of ["7f1c0b6e", "0b5d5c1e", "Amina", "555123456", "pricePaid", "400", "under the mat", "active"])
      expect(text).not.toContain(secret);
    expect(text).not.toContain("nameAr");
  });

  it("tells sandbox parcels, and COD-free parcels", () => {
    expect(toPublicTracking(source({ mode: "sandbox", codAmountDzd: null }))).toMatchObject({ sandbox: true, codToPayDzd: null });
  });

  it("keeps events of the same instant in their recorded order", () => {
    const at = "2025-03-12T13:05:00Z";
    const events = toPublicTracking(
      source({
        history: [
          { toStatus: "AT_RELAY", createdAt: at },
          { toStatus: "RELAY_NOTIFIED", createdAt: at }
        ]
      })
    )!.events;
    expect(events.map(e => e.status)).toEqual(["AT_RELAY", "RELAY_NOTIFIED"]);
  });

  it("a parcel still PENDING (not paid yet) does not exist publicly", () => {
    expect(toPublicTracking(source({ status: "PENDING" }))).toBeNull();
    expect(toTrackingPageParcel(source({ status: "PENDING" }))).toBeNull();
  });

  it("the page model adds the Arabic names and the position", () => {
    expect(toTrackingPageParcel(source())!.destination).toMatchObject({
      nameAr: "مكتبة الباهية",
      cityAr: "وهران",
      latitude: relay.latitude,
      longitude: relay.longitude
    });
    const { nameAr: _n, cityAr: _c, latitude: _la, longitude: _lo, ...bare } = relay;
    expect(toTrackingPageParcel(source({ relay: bare }))!.destination).toMatchObject({
      nameAr: null,
      cityAr: null,
      latitude: null,
      longitude: null
    });
  });
});
