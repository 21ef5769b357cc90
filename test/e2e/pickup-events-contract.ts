import { randomUUID } from "node:crypto";
import { verifyWebhookSignature } from "../../services/webhooks/signing";
import type { HttpResult } from "../helpers/http";
import { ReceivedRequest, Receiver, startReceiver } from "../helpers/receivers";
import type { SystemUnderTest } from "./gateway-contract";
import { expectError, merchants, Merchant, PARCEL } from "./merchant-helpers";
import { createParcels, PICKUP_ADDRESS, pickupWindow } from "./network-contract";
import { relayHelpers } from "./relay-contract";

/**
 * Issue 44 B, the merchant's side of a pickup, through the APIs only: the pickup.* webhooks
 * (signed, in order), the missing parcel booked again, the whole way's parcel webhooks in order,
 * and the sandbox's simulated courier. Run inside networkContract's network block.
 */

type StaffApi = (method: string, path: string, body?: unknown, headers?: Record<string, string>) => Promise<HttpResult>;
interface Body {
  id: string;
  type: string;
  sandbox: boolean;
  data: { parcel?: { id: string }; pickup?: { id: string; status: string }; missing?: unknown[]; unexpected?: unknown[] };
}

export function pickupEventsContract(
  system: () => SystemUnderTest,
  network: () => Promise<{ courierApi: StaffApi; hubApi: StaffApi }>
): void {
  const m = merchants(system);
  const relay = relayHelpers(system);
  let receiver: Receiver;
  beforeAll(async () => {
    receiver = await startReceiver();
  });
  afterAll(() => receiver.close());

  /** A merchant with one webhook endpoint of `mode` on the receiver; its requests are on `path`. */
  async function merchantWithWebhook(mode: "live" | "sandbox"): Promise<{ merchant: Merchant; path: string; secret: string }> {
    const merchant = await m.create(`Pickup events ${randomUUID().slice(0, 8)}`, 100_000, 50_000);
    const path = `/pickups-${merchant.orgId}`;
    const res = await m.bo().call("POST", `/organizations/${merchant.orgId}/webhook-endpoints`, { url: `${receiver.url}${path}`, mode });
    expect(res.status).toBe(201);
    return { merchant, path, secret: res.body.secret };
  }
  const bodyOf = (r: ReceivedRequest): Body => JSON.parse(r.rawBody);
  const about = (path: string, subject: string) =>
    receiver.on(path).filter(r => bodyOf(r).data.pickup?.id === subject || bodyOf(r).data.parcel?.id === subject);

  test("pickup.completed lists the missing parcel, signed; it stays READY_FOR_PICKUP and is booked again; the whole way's webhooks arrive in order", async () => {
    const { merchant, path, secret } = await merchantWithWebhook("live");
    const code = await relay.relayPoint();
    const agent = await relay.agent(code);
    const { courierApi, hubApi } = await network();
    const parcels: Array<{ id: string; trackingNumber: string }> = [];
    for (let i = 0; i < 3; i++) {
      const res = await merchant.live("POST", "/parcels", { ...PARCEL, destinationRelayCode: code });
      expect(res.status).toBe(201);
      parcels.push(res.body);
    }
    const window = pickupWindow();
    const booked = await merchant.live("POST", "/pickups", {
      address: PICKUP_ADDRESS,
      readyAt: window.readyAt,
      closeAt: window.closeAt,
      parcelIds: parcels.map(p => p.id)
    });
    expect(booked.status).toBe(201);
    const pickupId: string = booked.body.id;
    for (const p of parcels.slice(0, 2)) {
      const scan = await courierApi(
        "POST",
        `/pickups/${pickupId}/scans`,
        { trackingNumber: p.trackingNumber },
        { "Idempotency-Key": randomUUID() }
      );
      expect(scan.status).toBe(200);
    }
    expect((await courierApi("POST", `/pickups/${pickupId}/close`)).status).toBe(200);

    await receiver.waitFor(() => about(path, pickupId).some(r => bodyOf(r).type === "pickup.completed"), 20_000);
    const pickupEvents = about(path, pickupId);
    expect(pickupEvents.map(r => bodyOf(r).type)).toEqual(["pickup.confirmed", "pickup.completed"]);
    const completed = pickupEvents[1];
    expect(verifyWebhookSignature(completed.rawBody, completed.headers["x-relay-signature"] as string, secret)).toBe(true);
    expect(completed.headers["x-relay-event"]).toBe("pickup.completed");
    expect(bodyOf(completed)).toEqual(
      expect.objectContaining({
        type: "pickup.completed",
        sequence: 0,
        sandbox: false,
        data: {
          pickup: expect.objectContaining({
            id: pickupId,
            confirmationNumber: booked.body.confirmationNumber,
            status: "PARTIALLY_COMPLETED"
          }),
          parcels: expect.arrayContaining(parcels.map(p => ({ id: p.id, trackingNumber: p.trackingNumber }))),
          missing: [{ id: parcels[2].id, trackingNumber: parcels[2].trackingNumber }],
          unexpected: []
        }
      })
    );
    // The events API lists it too, with the same body.
    const listed = await merchant.live("GET", "/events?type=pickup.completed");
    expect(listed.status).toBe(200);
    expect(listed.body.items).toContainEqual(bodyOf(completed));

    // The missing parcel stays READY_FOR_PICKUP and goes in the next pickup.
    expect((await merchant.live("GET", `/parcels/${parcels[2].id}`)).body.status).toBe("READY_FOR_PICKUP");
    const next = await merchant.live("POST", "/pickups", {
      address: PICKUP_ADDRESS,
      ...pickupWindow(3, 13),
      day: undefined,
      parcelIds: [parcels[2].id]
    });
    expect(next.status).toBe(201);
    expect(next.body.parcels).toEqual([{ id: parcels[2].id, state: "ANNOUNCED" }]);

    // The collected ones the whole way: hub in and out, the relay's arrival.
    for (const p of parcels.slice(0, 2)) {
      expect((await hubApi("POST", "/scans/in", { trackingNumber: p.trackingNumber }, { "Idempotency-Key": randomUUID() })).status).toBe(
        200
      );
      expect((await hubApi("POST", "/scans/out", { trackingNumber: p.trackingNumber })).status).toBe(200);
      expect((await agent("POST", "/arrivals", { trackingNumber: p.trackingNumber })).status).toBe(200);
    }
    const way = ["parcel.ready_for_pickup", "parcel.picked_up", "parcel.in_transit", "parcel.at_relay"];
    for (const p of parcels.slice(0, 2)) {
      await receiver.waitFor(() => about(path, p.id).some(r => bodyOf(r).type === "parcel.at_relay"), 20_000);
      expect(
        about(path, p.id)
          .map(r => bodyOf(r).type)
          .filter(t => way.includes(t))
      ).toEqual(way);
    }
  });

  test("sandbox: the simulator completes a sandbox pickup (its missing parcels left READY_FOR_PICKUP); a live key can neither simulate nor read it", async () => {
    const { merchant, path } = await merchantWithWebhook("sandbox");
    const ids = await createParcels(merchant, 2, "sandbox");
    const window = pickupWindow();
    const booked = await merchant.sandbox("POST", "/pickups", {
      address: PICKUP_ADDRESS,
      readyAt: window.readyAt,
      closeAt: window.closeAt,
      parcelIds: ids
    });
    expect(booked.status).toBe(201);
    const id: string = booked.body.id;

    expectError(await merchant.live("POST", `/sandbox/pickups/${id}/complete`, {}), 403, "SANDBOX_KEY_REQUIRED");
    expectError(
      await merchant.sandbox("POST", `/sandbox/pickups/${id}/complete`, { missingParcelIds: [randomUUID()] }),
      400,
      "VALIDATION_FAILED"
    );
    expectError(await merchant.live("GET", `/pickups/${id}`), 404, "PICKUP_NOT_FOUND");

    const key = randomUUID();
    const answers = await Promise.all(
      [1, 2].map(() =>
        merchant.sandbox("POST", `/sandbox/pickups/${id}/complete`, { missingParcelIds: [ids[1]] }, { "Idempotency-Key": key })
      )
    );
    for (const a of answers) {
      expect(a.status).toBe(200);
      expect(a.body).toEqual(expect.objectContaining({ status: "PARTIALLY_COMPLETED", missing: [ids[1]] }));
    }
    expect((await merchant.sandbox("GET", `/parcels/${ids[0]}`)).body.status).toBe("PICKED_UP");
    expect((await merchant.sandbox("GET", `/parcels/${ids[1]}`)).body.status).toBe("READY_FOR_PICKUP");

    await receiver.waitFor(() => about(path, id).some(r => bodyOf(r).type === "pickup.completed"), 20_000);
    const completed = about(path, id).filter(r => bodyOf(r).type === "pickup.completed");
    expect(completed).toHaveLength(1);
    expect(bodyOf(completed[0])).toEqual(
      expect.objectContaining({
        sandbox: true,
        data: expect.objectContaining({ missing: [{ id: ids[1], trackingNumber: expect.any(String) }] })
      })
    );
  });

  test("a pickup without an address goes to the organisation's stored one; none stored is a 409 in the error shape", async () => {
    const merchant = await m.create(`Pickup address ${randomUUID().slice(0, 8)}`, 100_000);
    const [id] = await createParcels(merchant, 1);
    const window = pickupWindow();
    const booking = { readyAt: window.readyAt, closeAt: window.closeAt, parcelIds: [id] };
    expect((await merchant.live("GET", "/organization/pickup-address")).body).toEqual({ address: null });
    expectError(await merchant.live("POST", "/pickups", booking), 409, "PICKUP_ADDRESS_MISSING");
    expect((await merchant.live("GET", `/parcels/${id}`)).body.status).toBe("CREATED");

    expectError(
      await merchant.live("PUT", "/organization/pickup-address", { line1: "", city: "Oran", wilaya: "31" }),
      400,
      "VALIDATION_FAILED",
      "line1"
    );
    const stored = await merchant.live("PUT", "/organization/pickup-address", PICKUP_ADDRESS);
    expect(stored.status).toBe(200);
    expect(stored.body).toEqual({ address: PICKUP_ADDRESS });
    expect((await merchant.live("GET", "/organization/pickup-address")).body).toEqual({ address: PICKUP_ADDRESS });
    const booked = await merchant.live("POST", "/pickups", booking);
    expect(booked.status).toBe(201);
    expect(booked.body.address).toEqual(PICKUP_ADDRESS);

    // The back-office sets it too; a booked pickup keeps the address it was booked with.
    const oran = { line1: "3 boulevard de la Soummam", city: "Oran", wilaya: "31" };
    expect((await m.bo().call("PUT", `/organizations/${merchant.orgId}/pickup-address`, oran)).status).toBe(200);
    expect((await m.bo().call("GET", `/organizations/${merchant.orgId}/pickup-address`)).body).toEqual({ address: oran });
    expect((await merchant.live("GET", `/pickups/${booked.body.id}`)).body.address).toEqual(PICKUP_ADDRESS);
    // Another organisation reads its own (none), never this one's.
    const other = await m.create(`Other address ${randomUUID().slice(0, 8)}`, 0);
    expect((await other.live("GET", "/organization/pickup-address")).body).toEqual({ address: null });
    expect((await m.bo().call("GET", `/organizations/${randomUUID()}/pickup-address`)).status).toBe(404);
  });
}
