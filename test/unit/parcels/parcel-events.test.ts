import { EVENT_SOURCES, eventSourceOf, toParcelEventView } from "../../../services/parcels/parcel-events";

describe("a parcel's history as its merchant reads it", () => {
  it("names who made each change with one of four sources", () => {
    expect(["merchant", "operator", "sandbox", "notifications", "sweeper", "something-new"].map(eventSourceOf)).toEqual([
      "merchant",
      "operator",
      "sandbox",
      "system",
      "system",
      "system"
    ]);
    expect(eventSourceOf("constructor")).toBe("system");
    expect([...EVENT_SOURCES]).toEqual(["merchant", "operator", "sandbox", "system", "recipient"]);
  });

  it("reads the internal PENDING before a creation as no previous status", () => {
    const at = new Date("2026-03-01T10:00:00.000Z");
    expect(toParcelEventView({ fromStatus: "PENDING", toStatus: "CREATED", reason: null, actor: "merchant", createdAt: at })).toEqual({
      status: "CREATED",
      previousStatus: null,
      occurredAt: "2026-03-01T10:00:00.000Z",
      reason: null,
      source: "merchant"
    });
    expect(
      toParcelEventView({
        fromStatus: "AT_RELAY",
        toStatus: "RELAY_NOTIFIED",
        reason: "pick-up SMS sent",
        actor: "notifications",
        createdAt: at
      })
    ).toMatchObject({ status: "RELAY_NOTIFIED", previousStatus: "AT_RELAY", reason: "pick-up SMS sent", source: "system" });
  });

  it("shows no row whose status is not one of the twelve", () => {
    expect(toParcelEventView({ fromStatus: null, toStatus: "PENDING", reason: null, actor: "merchant", createdAt: new Date() })).toBeNull();
  });
});
