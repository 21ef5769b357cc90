import { randomUUID } from "node:crypto";
import type { SystemUnderTest } from "./gateway-contract";
import { http } from "../helpers/http";
import { expectError, Merchant, merchants, PARCEL } from "./merchant-helpers";
import { relayHelpers } from "./relay-contract";
import { networkRunsContract } from "./network-runs-contract";

/**
 * Issue 44, the first and middle mile, through the APIs only: a merchant books pickups and
 * cancels them; organisations and modes never see each other's.
 */

/** The next day (Algiers) that is no Friday, and a window on it: readyAt, closeAt with Algiers' offset. */
export function pickupWindow(hours = 3, startHour = 9): { readyAt: string; closeAt: string; day: string } {
  const algiersDay = (at: Date) => new Date(at.getTime() + 3_600_000).toISOString().slice(0, 10);
  let at = new Date(Date.now() + 86_400_000);
  if (new Date(`${algiersDay(at)}T12:00:00Z`).getUTCDay() === 5) at = new Date(at.getTime() + 86_400_000);
  const day = algiersDay(at);
  const hh = (h: number) => String(h).padStart(2, "0");
  return { day, readyAt: `${day}T${hh(startHour)}:00:00+01:00`, closeAt: `${day}T${hh(startHour + hours)}:00:00+01:00` };
}

/** The next Friday (Algiers), which is no pickup day by default. */
function nextFriday(): string {
  const at = new Date(Date.now() + 86_400_000);
  while (at.getUTCDay() !== 5) at.setUTCDate(at.getUTCDate() + 1);
  return at.toISOString().slice(0, 10);
}

export const PICKUP_ADDRESS = { line1: "12 rue Didouche Mourad", city: "Alger Centre", wilaya: "16" };

export async function createParcels(m: Merchant, count: number, mode: "live" | "sandbox" = "live"): Promise<string[]> {
  const ids: string[] = [];
  for (let i = 0; i < count; i++) {
    const res = await m[mode]("POST", "/parcels", PARCEL);
    expect(res.status).toBe(201);
    ids.push(res.body.id);
  }
  return ids;
}

export function networkContract(system: () => SystemUnderTest): void {
  const m = merchants(system);
  let merchant: Merchant;
  let other: Merchant;

  beforeAll(async () => {
    merchant = await m.create(`Pickups ${randomUUID().slice(0, 8)}`, 100_000, 50_000);
    other = await m.create(`Other ${randomUUID().slice(0, 8)}`, 10_000);
  }, 60_000);

  const statusOf = async (id: string, mode: "live" | "sandbox" = "live") => (await merchant[mode]("GET", `/parcels/${id}`)).body.status;

  describe("pickups", () => {
    test("a booked pickup is confirmed with its window, confirmation number and cancelBy; its parcels are READY_FOR_PICKUP", async () => {
      const ids = await createParcels(merchant, 2);
      const window = pickupWindow();
      const res = await merchant.live("POST", "/pickups", { address: PICKUP_ADDRESS, ...window, day: undefined, parcelIds: ids });
      expect(res.status).toBe(201);
      expect(res.headers.get("location")).toContain(`/pickups/${res.body.id}`);
      expect(res.body).toEqual(
        expect.objectContaining({
          status: "CONFIRMED",
          confirmationNumber: expect.stringMatching(/^PU-\d{8}-[2-9A-Z]{6}$/),
          readyAt: new Date(window.readyAt).toISOString(),
          closeAt: new Date(window.closeAt).toISOString(),
          missing: [],
          unexpected: []
        })
      );
      expect(new Date(res.body.cancelBy).getTime()).toBeLessThanOrEqual(new Date(window.readyAt).getTime());
      expect(res.body.parcels).toEqual(expect.arrayContaining(ids.map(id => ({ id, state: "ANNOUNCED" }))));
      for (const id of ids) expect(await statusOf(id)).toBe("READY_FOR_PICKUP");

      const read = await merchant.live("GET", `/pickups/${res.body.id}`);
      expect(read.status).toBe(200);
      expect(read.body.id).toBe(res.body.id);
      const list = await merchant.live("GET", "/pickups?status=CONFIRMED");
      expect(list.status).toBe(200);
      expect(list.body.items.map((p: { id: string }) => p.id)).toContain(res.body.id);
      expect((await merchant.live("GET", "/pickups?status=CANCELLED")).body.items.map((p: { id: string }) => p.id)).not.toContain(
        res.body.id
      );
    });

    test("a parcel is in one pickup at a time; a parcel past CREATED or unknown is refused", async () => {
      const [id] = await createParcels(merchant, 1);
      const body = { address: PICKUP_ADDRESS, readyAt: pickupWindow().readyAt, closeAt: pickupWindow().closeAt, parcelIds: [id] };
      expect((await merchant.live("POST", "/pickups", body)).status).toBe(201);
      expectError(await merchant.live("POST", "/pickups", body), 409, "PARCEL_NOT_PICKABLE");
      expectError(await merchant.live("POST", "/pickups", { ...body, parcelIds: [randomUUID()] }), 404, "PARCEL_NOT_FOUND");
      // Another organisation's parcel is as unknown as one that does not exist.
      expectError(await other.live("POST", "/pickups", body), 404, "PARCEL_NOT_FOUND");
    });

    test("allCreated books every CREATED parcel not yet in a pickup", async () => {
      const fresh = await m.create(`All ${randomUUID().slice(0, 8)}`, 10_000);
      const ids = await createParcels(fresh, 3);
      const res = await fresh.live("POST", "/pickups", {
        address: PICKUP_ADDRESS,
        readyAt: pickupWindow().readyAt,
        closeAt: pickupWindow().closeAt,
        allCreated: true
      });
      expect(res.status).toBe(201);
      expect(res.body.parcels.map((p: { id: string }) => p.id).sort()).toEqual([...ids].sort());
      expectError(
        await fresh.live("POST", "/pickups", {
          address: PICKUP_ADDRESS,
          readyAt: pickupWindow().readyAt,
          closeAt: pickupWindow().closeAt,
          allCreated: true
        }),
        409,
        "PARCEL_NOT_PICKABLE"
      );
    });

    test("windows: at least 2 hours, the same day, not in the past, no Friday; bad input is a 400 in the error shape", async () => {
      const [id] = await createParcels(merchant, 1);
      const base = { address: PICKUP_ADDRESS, parcelIds: [id] };
      const short = pickupWindow(1);
      expectError(
        await merchant.live("POST", "/pickups", { ...base, readyAt: short.readyAt, closeAt: short.closeAt }),
        400,
        "PICKUP_WINDOW_INVALID",
        "closeAt"
      );
      const friday = nextFriday();
      expectError(
        await merchant.live("POST", "/pickups", { ...base, readyAt: `${friday}T09:00:00+01:00`, closeAt: `${friday}T12:00:00+01:00` }),
        400,
        "PICKUP_WINDOW_INVALID",
        "readyAt"
      );
      expectError(
        await merchant.live("POST", "/pickups", { ...base, readyAt: "2020-01-01T09:00:00+01:00", closeAt: "2020-01-01T12:00:00+01:00" }),
        400,
        "PICKUP_WINDOW_INVALID"
      );
      expectError(
        await merchant.live("POST", "/pickups", { ...base, readyAt: "tomorrow", closeAt: "later" }),
        400,
        "VALIDATION_FAILED",
        "readyAt"
      );
      expectError(
        await merchant.live("POST", "/pickups", { address: PICKUP_ADDRESS, ...pickupWindow(), day: undefined }),
        400,
        "VALIDATION_FAILED"
      );
      expectError(
        await merchant.live("POST", "/pickups", { ...base, ...pickupWindow(), day: undefined, surprise: 1 }),
        400,
        "VALIDATION_FAILED"
      );
      expectError(await merchant.live("GET", "/pickups/not-a-uuid"), 400, "VALIDATION_FAILED");
      expect(await statusOf(id)).toBe("CREATED");
    });

    test("cancel until cancelBy: CANCELLED, the parcels back to CREATED; twice answers the same", async () => {
      const ids = await createParcels(merchant, 2);
      const booked = (
        await merchant.live("POST", "/pickups", {
          address: PICKUP_ADDRESS,
          readyAt: pickupWindow().readyAt,
          closeAt: pickupWindow().closeAt,
          parcelIds: ids
        })
      ).body;
      expectError(await other.live("POST", `/pickups/${booked.id}/cancel`), 404, "PICKUP_NOT_FOUND");
      const res = await merchant.live("POST", `/pickups/${booked.id}/cancel`);
      expect(res.status).toBe(200);
      expect(res.body.status).toBe("CANCELLED");
      expect(res.body.parcels.map((p: { state: string }) => p.state)).toEqual(["RELEASED", "RELEASED"]);
      for (const id of ids) expect(await statusOf(id)).toBe("CREATED");
      expect((await merchant.live("POST", `/pickups/${booked.id}/cancel`)).body.status).toBe("CANCELLED");
      // Released, the parcels can be booked again.
      expect(
        (
          await merchant.live("POST", "/pickups", {
            address: PICKUP_ADDRESS,
            readyAt: pickupWindow().readyAt,
            closeAt: pickupWindow().closeAt,
            parcelIds: ids
          })
        ).status
      ).toBe(201);
    });

    test("one Idempotency-Key sent concurrently books one pickup; another body with it is 422", async () => {
      const ids = await createParcels(merchant, 2);
      const body = { address: PICKUP_ADDRESS, readyAt: pickupWindow().readyAt, closeAt: pickupWindow().closeAt, parcelIds: ids };
      const key = `pickup-${randomUUID()}`;
      const answers = await Promise.all(
        Array.from({ length: 5 }, () => merchant.live("POST", "/pickups", body, { "Idempotency-Key": key }))
      );
      // The latecomers find the first one's pickup (by the key's unique index): every answer is that pickup.
      expect(answers.map(a => a.status)).toEqual([201, 201, 201, 201, 201]);
      expect(new Set(answers.map(a => a.body.id)).size).toBe(1);
      const ok = answers;
      const again = await merchant.live("POST", "/pickups", body, { "Idempotency-Key": key });
      expect(again.body.id).toBe(ok[0].body.id);
      expectError(
        await merchant.live("POST", "/pickups", { ...body, instructions: "gate B" }, { "Idempotency-Key": key }),
        422,
        "IDEMPOTENCY_KEY_REUSED"
      );
    });

    test("organisations and modes are isolated: another organisation or a sandbox key never reads a live pickup", async () => {
      const [id] = await createParcels(merchant, 1);
      const booked = (
        await merchant.live("POST", "/pickups", {
          address: PICKUP_ADDRESS,
          readyAt: pickupWindow().readyAt,
          closeAt: pickupWindow().closeAt,
          parcelIds: [id]
        })
      ).body;
      expectError(await other.live("GET", `/pickups/${booked.id}`), 404, "PICKUP_NOT_FOUND");
      expectError(await merchant.sandbox("GET", `/pickups/${booked.id}`), 404, "PICKUP_NOT_FOUND");
      expectError(await merchant.sandbox("POST", `/pickups/${booked.id}/cancel`), 404, "PICKUP_NOT_FOUND");
      expect((await other.live("GET", "/pickups")).body.items.map((p: { id: string }) => p.id)).not.toContain(booked.id);
      // A sandbox key cannot book a live parcel either.
      expectError(
        await merchant.sandbox("POST", "/pickups", {
          address: PICKUP_ADDRESS,
          readyAt: pickupWindow().readyAt,
          closeAt: pickupWindow().closeAt,
          parcelIds: [id]
        }),
        404,
        "PARCEL_NOT_FOUND"
      );
    });
  });

  describe("the network: courier, hub and relay, both sides of every hand-off", () => {
    const relay = relayHelpers(system);
    const staffApi =
      (api: "courier" | "hub", key: string) =>
      (method: string, path: string, body?: unknown, headers: Record<string, string> = {}) =>
        http(system().baseUrl, method, `/api/${api}/v1${path}`, { headers: { Authorization: `ApiKey ${key}`, ...headers }, body });
    const wilaya16Hub = async () => {
      const bo = m.bo();
      const hub = await bo.call("POST", "/hubs", {
        code: `HUB-16-${randomUUID().slice(0, 6).toUpperCase()}`,
        wilaya: "16",
        name: "Bab Ezzouar",
        address: "ZI Bab Ezzouar"
      });
      expect(hub.status).toBe(201);
      const courier = await bo.call("POST", "/couriers", {
        firstName: "Yacine",
        lastName: "Haddad",
        phone: "+213 661 23 45 67",
        homeHubId: hub.body.id
      });
      expect(courier.status).toBe(201);
      const courierKey = await bo.call("POST", "/staff-keys", { role: "courier", subjectId: courier.body.id, name: "Yacine's phone" });
      const hubKey = await bo.call("POST", "/staff-keys", { role: "hub", subjectId: hub.body.id, name: "sort station 1" });
      expect([courierKey.status, hubKey.status]).toEqual([201, 201]);
      return {
        hub: hub.body,
        courier: courier.body,
        courierApi: staffApi("courier", courierKey.body.key),
        hubApi: staffApi("hub", hubKey.body.key),
        courierKey: courierKey.body,
        hubKey: hubKey.body
      };
    };

    test("a pickup of 5: 4 scanned, the stop closed, the 5th missing; the 4 through a hub to their relay, AT_RELAY; the trail shows both sides", async () => {
      const code = await relay.relayPoint();
      const agent = await relay.agent(code);
      const { courierApi, hubApi, courier, hub } = await wilaya16Hub();
      const ids: string[] = [];
      const tracking = new Map<string, string>();
      for (let i = 0; i < 5; i++) {
        const res = await merchant.live("POST", "/parcels", { ...PARCEL, destinationRelayCode: code });
        expect(res.status).toBe(201);
        ids.push(res.body.id);
        tracking.set(res.body.id, res.body.trackingNumber);
      }
      const booked = await merchant.live("POST", "/pickups", {
        address: PICKUP_ADDRESS,
        readyAt: pickupWindow().readyAt,
        closeAt: pickupWindow().closeAt,
        parcelIds: ids
      });
      expect(booked.status).toBe(201);

      const run = await courierApi("GET", "/run");
      expect(run.status).toBe(200);
      expect(run.body.items.map((p: { id: string }) => p.id)).toContain(booked.body.id);

      for (const id of ids.slice(0, 4)) {
        const key = randomUUID();
        const answers = await Promise.all(
          [1, 2].map(() =>
            courierApi("POST", `/pickups/${booked.body.id}/scans`, { trackingNumber: tracking.get(id) }, { "Idempotency-Key": key })
          )
        );
        for (const a of answers)
          expect({ status: a.status, outcome: a.body.outcome, parcel: a.body.status }).toEqual({
            status: 200,
            outcome: "COLLECTED",
            parcel: "PICKED_UP"
          });
      }
      const closed = await courierApi("POST", `/pickups/${booked.body.id}/close`);
      expect(closed.status).toBe(200);
      expect(closed.body).toEqual(expect.objectContaining({ status: "PARTIALLY_COMPLETED", missing: [ids[4]], unexpected: [] }));
      expect((await merchant.live("GET", `/pickups/${booked.body.id}`)).body.missing).toEqual([ids[4]]);
      expect(await statusOf(ids[4])).toBe("READY_FOR_PICKUP");

      for (const id of ids.slice(0, 4)) {
        const scanIn = await hubApi("POST", "/scans/in", { trackingNumber: tracking.get(id) }, { "Idempotency-Key": randomUUID() });
        expect(scanIn.status).toBe(200);
        expect(scanIn.body).toEqual(
          expect.objectContaining({ outcome: "SORTED", status: "IN_TRANSIT", sort: expect.stringContaining(code) })
        );
        expect((await hubApi("POST", "/scans/out", { trackingNumber: tracking.get(id) })).body.outcome).toBe("DISPATCHED");
        expect((await agent("POST", "/arrivals", { trackingNumber: tracking.get(id) })).status).toBe(200);
        expect(await statusOf(id)).toBe("AT_RELAY");
      }

      // The parcel's history (each status a webhook, as for every change), in order.
      const history = (await merchant.live("GET", `/parcels/${ids[0]}/events`)).body.items.map((e: { status: string }) => e.status);
      const order = ["CREATED", "READY_FOR_PICKUP", "PICKED_UP", "IN_TRANSIT", "AT_RELAY"];
      expect(history.filter((t: string) => order.includes(t))).toEqual(order);

      const trail = await m.bo().call("GET", `/parcels/${ids[0]}/custody`);
      expect(trail.status).toBe(200);
      expect(trail.body.trail.map((e: { givenBy: string; holder: string }) => `${e.givenBy}→${e.holder}`)).toEqual([
        "merchant→courier",
        "courier→hub",
        "hub→courier",
        // The agent's arrival closes the hand-off (decision 0057).
        "courier→relay"
      ]);
      expect(trail.body.trail[0].holderId).toBe(courier.id);
      expect(trail.body.trail[1].holderId).toBe(hub.id);
    });

    test("a courier acts only on its run: another wilaya's courier neither lists, scans nor closes a pickup (404, as if none)", async () => {
      const parcel = await merchant.live("POST", "/parcels", PARCEL);
      expect(parcel.status).toBe(201);
      const booked = await merchant.live("POST", "/pickups", {
        address: PICKUP_ADDRESS,
        readyAt: pickupWindow().readyAt,
        closeAt: pickupWindow().closeAt,
        parcelIds: [parcel.body.id]
      });
      expect(booked.status).toBe(201);
      const bo = m.bo();
      const oran = await bo.call("POST", "/hubs", {
        code: `HUB-31-${randomUUID().slice(0, 6).toUpperCase()}`,
        wilaya: "31",
        name: "Es Senia",
        address: "ZI Es Senia"
      });
      const courier = await bo.call("POST", "/couriers", {
        firstName: "Amine",
        lastName: "Belkacem",
        phone: "+213 662 11 22 33",
        homeHubId: oran.body.id
      });
      const key = await bo.call("POST", "/staff-keys", { role: "courier", subjectId: courier.body.id, name: "Amine's phone" });
      expect([oran.status, courier.status, key.status]).toEqual([201, 201, 201]);
      const otherCourier = staffApi("courier", key.body.key);
      const run = await otherCourier("GET", "/run");
      expect(run.body.items.map((p: { id: string }) => p.id)).not.toContain(booked.body.id);
      const headers = { "Idempotency-Key": randomUUID() };
      const scan = { trackingNumber: parcel.body.trackingNumber };
      expectError(await otherCourier("POST", `/pickups/${booked.body.id}/scans`, scan, headers), 404, "PICKUP_NOT_FOUND");
      expectError(
        await otherCourier("POST", `/pickups/${booked.body.id}/close`, {}, { "Idempotency-Key": randomUUID() }),
        404,
        "PICKUP_NOT_FOUND"
      );
      // Nothing moved: the parcel waits for its own courier, the pickup is still open.
      expect((await merchant.live("GET", `/parcels/${parcel.body.id}`)).body.status).toBe("READY_FOR_PICKUP");
      expect((await merchant.live("GET", `/pickups/${booked.body.id}`)).body.status).toBe("CONFIRMED");
    });

    test("keys: a courier key opens the courier API only, a revoked key nothing; a partner key neither; bad input is a 4xx", async () => {
      const { courierApi, hubApi, courierKey } = await wilaya16Hub();
      expect((await courierApi("GET", "/run")).status).toBe(200);
      const courierOnHub = staffApi("hub", courierKey.key);
      expectError(await courierOnHub("POST", "/scans/in", { trackingNumber: "RP000000000DZ" }), 401, "UNAUTHENTICATED");
      expectError(await hubApi("POST", "/scans/in", { trackingNumber: "not a label" }), 400, "VALIDATION_FAILED", "trackingNumber");
      expectError(await hubApi("POST", "/scans/in", { trackingNumber: "RP000000000DZ" }), 404, "PARCEL_NOT_FOUND");
      expectError(
        await hubApi("POST", "/scans/in", { trackingNumber: "RP000000000DZ", occurredAt: "2020-01-01T00:00:00Z" }),
        400,
        "OCCURRED_AT_OUT_OF_RANGE"
      );
      const listed = await m.bo().call("GET", `/staff-keys?subjectId=${courierKey.subjectId}`);
      expect(listed.body.map((k: { id: string }) => k.id)).toContain(courierKey.id);
      expect((await m.bo().call("DELETE", `/staff-keys/${courierKey.id}`)).status).toBe(204);
      expectError(await courierApi("GET", "/run"), 401, "UNAUTHENTICATED");
      expectError(
        await http(system().baseUrl, "GET", "/api/courier/v1/run", { headers: { Authorization: "ApiKey rp_live_nope" } }),
        401,
        "UNAUTHENTICATED"
      );
    });
  });

  networkRunsContract(system);
}
