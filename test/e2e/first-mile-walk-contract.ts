import { randomUUID } from "node:crypto";
import { ReceivedRequest, Receiver, startReceiver } from "../helpers/receivers";
import type { SystemUnderTest } from "./gateway-contract";
import { merchants, PARCEL } from "./merchant-helpers";
import { networkCrew } from "./network-walk";
import { relayHelpers } from "./relay-contract";
// A cycle with network-contract.ts, which calls this contract: only functions are imported, used once tests run.
import { PICKUP_ADDRESS, pickupWindow } from "./network-contract";

/**
 * Issue 44, acceptance 1, as one walk through the APIs only (no back-office transition): a pickup
 * of 5 with its manifest, the courier's one manifest scan and 4 parcel scans, the stop closed (the
 * 5th missing in pickup.completed), the 4 through the hub (in, the sort answer, out), the courier's
 * run to the relay point, the counter's pass and the agent's arrivals: AT_RELAY, the custody trail
 * with both sides of each hand-off, and the merchant's webhooks in order.
 */

interface Body {
  type: string;
  data: { parcel?: { id: string }; pickup?: { id: string }; missing?: Array<{ id: string }> };
}

export function firstMileWalkContract(system: () => SystemUnderTest): void {
  const m = merchants(system);
  const relay = relayHelpers(system);
  let receiver: Receiver;
  beforeAll(async () => {
    receiver = await startReceiver();
  });
  afterAll(() => receiver.close());

  test("5 booked with a manifest; 4 collected, the 5th missing; the 4 by hub and run to AT_RELAY; both sides of each hand-off; webhooks in order", async () => {
    const merchant = await m.create(`First mile ${randomUUID().slice(0, 8)}`, 100_000, 10_000);
    const path = `/first-mile-${merchant.orgId}`;
    const endpoint = await m
      .bo()
      .call("POST", `/organizations/${merchant.orgId}/webhook-endpoints`, { url: `${receiver.url}${path}`, mode: "live" });
    expect(endpoint.status).toBe(201);
    const bodyOf = (r: ReceivedRequest): Body => JSON.parse(r.rawBody);
    const typesAbout = (id: string) =>
      receiver
        .on(path)
        .map(bodyOf)
        .filter(b => b.data.parcel?.id === id || b.data.pickup?.id === id)
        .map(b => b.type);

    // A relay point of the hub's wilaya: the courier's own run delivers it.
    const code = await relay.relayPoint({ wilaya: "16" });
    const agent = await relay.agent(code);
    const crew = await networkCrew(system);
    const parcels: Array<{ id: string; trackingNumber: string }> = [];
    for (let i = 0; i < 5; i++) {
      const res = await merchant.live("POST", "/parcels", { ...PARCEL, destinationRelayCode: code });
      expect(res.status).toBe(201);
      parcels.push(res.body);
    }
    const window = pickupWindow();
    const pickup = await merchant.live("POST", "/pickups", {
      address: PICKUP_ADDRESS,
      readyAt: window.readyAt,
      closeAt: window.closeAt,
      parcelIds: parcels.map(p => p.id)
    });
    expect(pickup.status).toBe(201);
    const manifest = await merchant.live("POST", "/manifests", { pickupId: pickup.body.id });
    expect(manifest.status).toBe(201);
    expect(manifest.body.lines.map((l: { trackingNumber: string }) => l.trackingNumber).sort()).toEqual(
      parcels.map(p => p.trackingNumber).sort()
    );
    const pdf = await fetch(system().baseUrl + new URL(manifest.body.pdfUrl).pathname + new URL(manifest.body.pdfUrl).search);
    expect(pdf.status).toBe(200);
    expect(
      Buffer.from(await pdf.arrayBuffer())
        .subarray(0, 5)
        .toString("latin1")
    ).toBe("%PDF-");

    // The courier's morning: the pickup is a stop of its run; one scan of the manifest, then 4 parcels.
    const morning = await crew.courierApi("GET", `/run?date=${window.readyAt.slice(0, 10)}`);
    expect(morning.status).toBe(200);
    expect(morning.body.run.stops).toContainEqual(expect.objectContaining({ kind: "PICKUP", pickupId: pickup.body.id, parcelCount: 5 }));
    const announced = await crew.courierApi(
      "POST",
      `/pickups/${pickup.body.id}/manifest-scans`,
      { manifestNumber: manifest.body.number },
      { "Idempotency-Key": randomUUID() }
    );
    expect(announced.status).toBe(200);
    const collected = parcels.slice(0, 4);
    for (const p of collected) {
      const scan = await crew.courierApi(
        "POST",
        `/pickups/${pickup.body.id}/scans`,
        { trackingNumber: p.trackingNumber },
        { "Idempotency-Key": randomUUID() }
      );
      expect({ status: scan.status, outcome: scan.body.outcome }).toEqual({ status: 200, outcome: "COLLECTED" });
    }
    const closed = await crew.courierApi("POST", `/pickups/${pickup.body.id}/close`, {}, { "Idempotency-Key": randomUUID() });
    expect(closed.body).toEqual(expect.objectContaining({ status: "PARTIALLY_COMPLETED", missing: [parcels[4].id] }));
    await receiver.waitFor(() => typesAbout(pickup.body.id).includes("pickup.completed"), 20_000);
    const completed = receiver
      .on(path)
      .map(bodyOf)
      .find(b => b.type === "pickup.completed" && b.data.pickup?.id === pickup.body.id);
    expect(completed?.data.missing?.map(p => p.id)).toEqual([parcels[4].id]);

    // The hub: in (the sort answer names the relay point), then the run's relay stop, out with the courier.
    for (const p of collected) {
      const scanIn = await crew.hubApi("POST", "/scans/in", { trackingNumber: p.trackingNumber }, { "Idempotency-Key": randomUUID() });
      expect(scanIn.body).toEqual(
        expect.objectContaining({ outcome: "SORTED", status: "IN_TRANSIT", sort: expect.stringContaining(code) })
      );
    }
    const today = await crew.courierApi("GET", "/run");
    const relayStop = (today.body.run.stops as Array<{ kind: string; relayCode: string | null; deliver: string[] }>).find(
      s => s.kind === "RELAY" && s.relayCode === code
    );
    expect(relayStop?.deliver.sort()).toEqual(collected.map(p => p.trackingNumber).sort());
    // Both sides of the hub's hand-off: the station scans each parcel out, the courier scans it aboard.
    for (const p of collected) {
      const out = await crew.hubApi("POST", "/scans/out", { trackingNumber: p.trackingNumber }, { "Idempotency-Key": randomUUID() });
      expect(out.body.outcome).toBe("DISPATCHED");
      const load = await crew.courierApi(
        "POST",
        `/relays/${code}/load`,
        { trackingNumber: p.trackingNumber },
        { "Idempotency-Key": randomUUID() }
      );
      expect(load.body.outcome).toBe("LOADED");
    }

    // The relay point: the courier scans the counter's pass, the agent scans each parcel in.
    const pass = await agent("POST", "/courier-pass");
    expect(pass.status).toBe(200);
    const visit = await crew.courierApi("POST", `/relays/${code}/arrive`, { pass: pass.body.pass }, { "Idempotency-Key": randomUUID() });
    expect(visit.status).toBe(200);
    for (const p of collected) expect((await agent("POST", "/arrivals", { trackingNumber: p.trackingNumber })).status).toBe(200);

    for (const p of collected) {
      // AT_RELAY, or RELAY_NOTIFIED already where the pick-up SMS goes out at once.
      expect(["AT_RELAY", "RELAY_NOTIFIED"]).toContain((await merchant.live("GET", `/parcels/${p.id}`)).body.status);
      const trail = (await m.bo().call("GET", `/parcels/${p.id}/custody`)).body.trail as Array<Record<string, string | null>>;
      expect(trail.map(e => `${e.givenBy}→${e.holder}`)).toEqual(["merchant→courier", "courier→hub", "hub→courier", "courier→relay"]);
      // Both sides: who gave and who took, each one named.
      for (const entry of trail) expect([entry.givenById, entry.holderId]).not.toContain(null);
      expect(trail.map(e => e.confirmedBy)).toEqual([
        null,
        expect.stringContaining("hub:"),
        `courier:${crew.courier.id}`,
        expect.anything()
      ]);
    }
    expect((await merchant.live("GET", `/parcels/${parcels[4].id}`)).body.status).toBe("READY_FOR_PICKUP");

    const way = ["parcel.ready_for_pickup", "parcel.picked_up", "parcel.in_transit", "parcel.at_relay"];
    for (const p of collected) {
      await receiver.waitFor(() => typesAbout(p.id).includes("parcel.at_relay"), 20_000);
      expect(typesAbout(p.id).filter(t => way.includes(t))).toEqual(way);
    }
  });
}
