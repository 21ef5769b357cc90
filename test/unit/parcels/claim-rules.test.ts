import { claimRefusal, maxCompensationCentimes } from "../../../services/parcels/claims/claim-rules";
import { buildEvidence } from "../../../services/parcels/claims/evidence";

const NOW = new Date("2026-03-20T12:00:00Z");
const DAY = 86_400_000;
const policy = { lostAfterDays: 10 };
const ago = (days: number) => new Date(NOW.getTime() - days * DAY);
const facts = (over: object = {}) => ({
  status: "IN_TRANSIT" as const,
  lastChangeAt: ago(1),
  evidence: { refusal: null, handover: null },
  compensated: false,
  ...over
});

describe("when a claim may be opened", () => {
  test("LOST: a LOST parcel, or one silent for LOST_AFTER_DAYS while PICKED_UP or IN_TRANSIT", () => {
    expect(claimRefusal("LOST", facts({ status: "LOST" }), NOW, policy)).toBeNull();
    expect(claimRefusal("LOST", facts({ lastChangeAt: ago(10) }), NOW, policy)).toBeNull();
    expect(claimRefusal("LOST", facts({ status: "PICKED_UP", lastChangeAt: ago(11) }), NOW, policy)).toBeNull();
    expect(claimRefusal("LOST", facts({ lastChangeAt: ago(9.9) }), NOW, policy)).toMatch(/after 10 days without a status change/);
    expect(claimRefusal("LOST", facts({ status: "AT_RELAY", lastChangeAt: ago(30) }), NOW, policy)).toMatch(/this one is AT_RELAY/);
    expect(claimRefusal("LOST", facts({ lastChangeAt: ago(3) }), NOW, { lostAfterDays: 2 })).toBeNull();
  });

  test("DAMAGED / MISSING_CONTENT: DAMAGED, delivered at most 7 days ago, or refused at the relay point", () => {
    const handover = (days: number) => ({
      refusal: null,
      handover: { occurredAt: ago(days).toISOString(), relayCode: "DZ-X", codCollectedDzd: null }
    });
    const refusal = { refusal: { reason: "cassé", occurredAt: ago(40).toISOString(), relayCode: "DZ-X" }, handover: null };
    expect(claimRefusal("DAMAGED", facts({ status: "DAMAGED" }), NOW, policy)).toBeNull();
    expect(claimRefusal("MISSING_CONTENT", facts({ status: "DELIVERED", evidence: handover(7) }), NOW, policy)).toBeNull();
    expect(claimRefusal("DAMAGED", facts({ status: "DELIVERED", evidence: handover(7.01) }), NOW, policy)).toMatch(/within 7 days/);
    expect(claimRefusal("DAMAGED", facts({ status: "RETURNED", evidence: refusal }), NOW, policy)).toBeNull();
    expect(claimRefusal("DAMAGED", facts(), NOW, policy)).toMatch(/this one is IN_TRANSIT/);
  });

  test("a parcel is compensated once", () => {
    expect(claimRefusal("DAMAGED", facts({ status: "DAMAGED", compensated: true }), NOW, policy)).toMatch(/already approved/);
  });

  test("the maximum: the declared value, or the free allowance, capped", () => {
    expect(maxCompensationCentimes(2_000_000, 500_000, 15_000_000)).toBe(2_000_000);
    expect(maxCompensationCentimes(null, 500_000, 15_000_000)).toBe(500_000);
    expect(maxCompensationCentimes(40_000_000, 500_000, 15_000_000)).toBe(15_000_000);
    expect(maxCompensationCentimes(0, 500_000, 15_000_000)).toBe(0);
  });
});

describe("the evidence", () => {
  const line = (from: string | null, to: string, actor: string, daysAgo: number, reason: string | null = null) => ({
    fromStatus: from,
    toStatus: to,
    actor,
    reason,
    createdAt: ago(daysAgo)
  });
  const parcel = {
    destinationRelayCode: "DZ-16-X",
    declaredValueCentimes: 2_000_000,
    priceCentimes: 45_000,
    codAmountCentimes: 150_000,
    codStatus: "NOT_COLLECTED"
  };

  test("who moved it and where, the last scan and its age, the refusal, no hand-over, the declared value and insurance", () => {
    const evidence = buildEvidence(
      {
        parcel,
        history: [
          line("PENDING", "CREATED", "merchant", 5),
          line("CREATED", "PICKED_UP", "operator", 4),
          line("PICKED_UP", "IN_TRANSIT", "operator", 3),
          line("IN_TRANSIT", "AT_RELAY", "operator", 2),
          line("AT_RELAY", "RELAY_NOTIFIED", "notifications", 2),
          line("RELAY_NOTIFIED", "RETURN_PENDING", "operator", 1.5, "abîmé")
        ],
        tillCentimes: null,
        insuranceCentimes: 15_000,
        insuredValueCentimes: 2_000_000
      },
      NOW
    );
    expect(evidence.statusHistory.map(m => [m.status, m.by, m.relayCode])).toEqual([
      ["CREATED", "merchant", null],
      ["PICKED_UP", "operator", null],
      ["IN_TRANSIT", "operator", null],
      ["AT_RELAY", "operator", "DZ-16-X"],
      ["RELAY_NOTIFIED", "system", "DZ-16-X"],
      ["RETURN_PENDING", "operator", "DZ-16-X"]
    ]);
    expect(evidence.statusHistory[0].previousStatus).toBeNull();
    expect(evidence.lastScan).toEqual({ status: "RETURN_PENDING", occurredAt: ago(1.5).toISOString(), ageHours: 36, relayCode: "DZ-16-X" });
    expect(evidence.refusal).toEqual({ reason: "abîmé", occurredAt: ago(1.5).toISOString(), relayCode: "DZ-16-X" });
    expect(evidence).toMatchObject({
      handover: null,
      declaredValueDzd: 20_000,
      insuredValueDzd: 20_000,
      insurancePaidDzd: 150,
      pricePaidDzd: 450
    });
  });

  test("an expiry is no refusal; a hand-over shows the cash the agent took", () => {
    const expired = buildEvidence(
      {
        parcel,
        history: [line("RELAY_NOTIFIED", "RETURN_PENDING", "holding-period", 1, "PICKUP_EXPIRED")],
        tillCentimes: null,
        insuranceCentimes: 0,
        insuredValueCentimes: 2_000_000
      },
      NOW
    );
    expect(expired.refusal).toBeNull();
    expect(expired.lastScan).toBeNull();
    const delivered = buildEvidence(
      {
        parcel: { ...parcel, codStatus: "COLLECTED" },
        history: [line("RELAY_NOTIFIED", "DELIVERED", "operator", 1)],
        tillCentimes: 150_000,
        insuranceCentimes: 0,
        insuredValueCentimes: 2_000_000
      },
      NOW
    );
    expect(delivered.handover).toEqual({ occurredAt: ago(1).toISOString(), relayCode: "DZ-16-X", codCollectedDzd: 1500 });
  });
});
