import { randomUUID } from "node:crypto";
import type { SystemUnderTest } from "./gateway-contract";
import { http } from "../helpers/http";
import { apiResponseValidator } from "../helpers/openapi-validator";
import { parsePdf } from "../helpers/pdf";
import { expectError, Merchant, merchants, PARCEL } from "./merchant-helpers";
import { pickupEventsContract } from "./pickup-events-contract";
import { networkCrew, pickedUpParcels, staffApiOf } from "./network-walk";
import { relayHelpers } from "./relay-contract";
import { missortContract } from "./missort-contract";
import { firstMileWalkContract } from "./first-mile-walk-contract";
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
    const staffApi = staffApiOf(system);
    const wilaya16Hub = () => networkCrew(system);

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

    describe("the merchant's pickup webhooks and the sandbox simulator", () => pickupEventsContract(system, wilaya16Hub));
  });

  describe("manifests: one document, one scan, the merchant's count", () => {
    const courierOfWilaya16 = async () => {
      const bo = m.bo();
      const hub = await bo.call("POST", "/hubs", {
        code: `HUB-16-${randomUUID().slice(0, 6).toUpperCase()}`,
        wilaya: "16",
        name: "Rouiba",
        address: "ZI Rouiba"
      });
      const courier = await bo.call("POST", "/couriers", {
        firstName: "Nadir",
        lastName: "Saadi",
        phone: "+213 661 00 11 22",
        homeHubId: hub.body.id
      });
      const key = await bo.call("POST", "/staff-keys", { role: "courier", subjectId: courier.body.id, name: "Nadir's phone" });
      expect([hub.status, courier.status, key.status]).toEqual([201, 201, 201]);
      return (method: string, path: string, body?: unknown, headers: Record<string, string> = {}) =>
        http(system().baseUrl, method, `/api/courier/v1${path}`, {
          headers: { Authorization: `ApiKey ${key.body.key}`, ...headers },
          body
        });
    };
    const book = async (who: Merchant, parcelIds: string[]) => {
      const res = await who.live("POST", "/pickups", {
        address: PICKUP_ADDRESS,
        readyAt: pickupWindow().readyAt,
        closeAt: pickupWindow().closeAt,
        parcelIds
      });
      expect(res.status).toBe(201);
      return res.body;
    };
    /** The PDF behind a pdfUrl, through the gateway under test, checked against the document like every answer. */
    const download = async (url: string) => {
      const target = new URL(url);
      const path = target.pathname + target.search;
      const res = await fetch(system().baseUrl + path);
      const bytes = Buffer.from(await res.arrayBuffer());
      const json = (res.headers.get("content-type") ?? "").includes("application/json") ? JSON.parse(bytes.toString("utf8")) : undefined;
      apiResponseValidator().assert({
        method: "GET",
        path,
        status: res.status,
        headers: res.headers,
        body: json,
        text: bytes.toString("latin1")
      });
      return { status: res.status, type: res.headers.get("content-type"), bytes, json };
    };

    test("a pickup's manifest: its number, a line per parcel (a recipient hint only), totals and a signed A4 PDF; immutable, a parcel on one only", async () => {
      const ids: string[] = [];
      const tracking: string[] = [];
      for (const [cod, declared] of [
        [1500, 3000],
        [null, 12000],
        [2450.5, null]
      ] as const) {
        const res = await merchant.live("POST", "/parcels", {
          ...PARCEL,
          codAmountDzd: cod ?? undefined,
          declaredValueDzd: declared ?? undefined
        });
        expect(res.status).toBe(201);
        ids.push(res.body.id);
        tracking.push(res.body.trackingNumber);
      }
      const pickup = await book(merchant, ids);
      const key = `manifest-${randomUUID()}`;
      const answers = await Promise.all(
        [1, 2, 3].map(() => merchant.live("POST", "/manifests", { pickupId: pickup.id }, { "Idempotency-Key": key }))
      );
      expect(answers.map(a => a.status)).toEqual([201, 201, 201]);
      expect(new Set(answers.map(a => a.body.id)).size).toBe(1);
      const made = answers[0];
      expect(made.headers.get("location")).toContain(`/manifests/${made.body.id}`);
      expect(made.body).toEqual(
        expect.objectContaining({
          number: expect.stringMatching(/^MF-\d{8}-[2-9A-Z]{6}$/),
          pickupDate: pickupWindow().day,
          address: PICKUP_ADDRESS,
          pickupId: pickup.id,
          totals: { parcels: 3, codAmountDzd: 3950.5, declaredValueDzd: 15000 },
          pdfUrl: expect.stringContaining(`/labels/manifests/${made.body.id}.pdf?`)
        })
      );
      expect(made.body.lines.map((l: { trackingNumber: string }) => l.trackingNumber).sort()).toEqual([...tracking].sort());
      // The recipient as a hint: the first name and the phone's last two digits, nothing more.
      for (const l of made.body.lines)
        expect(l).toEqual(expect.objectContaining({ recipientHint: "Amina ••56", relayCode: PARCEL.destinationRelayCode }));
      expect(JSON.stringify(made.body)).not.toContain("Benali");
      expectError(
        await merchant.live("POST", "/manifests", { pickupId: pickup.id, surprise: 1 }, { "Idempotency-Key": key }),
        400,
        "VALIDATION_FAILED"
      );
      expectError(
        await merchant.live(
          "POST",
          "/manifests",
          { parcelIds: ids, address: PICKUP_ADDRESS, pickupDate: pickupWindow().day },
          { "Idempotency-Key": key }
        ),
        422,
        "IDEMPOTENCY_KEY_REUSED"
      );

      // A parcel is on one manifest only: a second one is refused, naming the first.
      const again = await merchant.live("POST", "/manifests", {
        parcelIds: [ids[1]],
        address: PICKUP_ADDRESS,
        pickupDate: pickupWindow().day
      });
      expectError(again, 409, "PARCEL_ALREADY_ON_MANIFEST", "parcelIds");
      expect(again.body.details[0].message).toContain(made.body.number);

      const pdf = await download(made.body.pdfUrl);
      expect({ status: pdf.status, type: pdf.type }).toEqual({ status: 200, type: "application/pdf" });
      const { text } = await parsePdf(pdf.bytes);
      expect(text).toContain(made.body.number);
      for (const t of tracking) expect(text).toContain(t);
      expect(text).toContain("Total : 3 colis");
      const forged = made.body.pdfUrl.replace(/signature=([0-9a-f])/, (_: string, c: string) => `signature=${c === "0" ? "1" : "0"}`);
      expect((await download(forged)).json).toEqual(expect.objectContaining({ status: 403, code: "LABEL_URL_INVALID" }));

      const read = await merchant.live("GET", `/manifests/${made.body.id}`);
      expect(read.status).toBe(200);
      expect({ ...read.body, pdfUrl: null }).toEqual({ ...made.body, pdfUrl: null });
      const listed = await merchant.live("GET", `/manifests?pickupId=${pickup.id}`);
      expect(listed.body.items.map((x: { id: string }) => x.id)).toEqual([made.body.id]);
      expect(
        (await merchant.live("GET", `/manifests?pickupDate=${pickupWindow().day}&size=100`)).body.items.map((x: { id: string }) => x.id)
      ).toContain(made.body.id);

      // Another organisation, or the sandbox key, never sees it.
      expectError(await other.live("GET", `/manifests/${made.body.id}`), 404, "MANIFEST_NOT_FOUND");
      expectError(await merchant.sandbox("GET", `/manifests/${made.body.id}`), 404, "MANIFEST_NOT_FOUND");
      expect((await other.live("GET", "/manifests")).body.items.map((x: { id: string }) => x.id)).not.toContain(made.body.id);
      expect((await merchant.sandbox("GET", "/manifests")).body.items.map((x: { id: string }) => x.id)).not.toContain(made.body.id);
      expectError(await other.live("POST", "/manifests", { pickupId: pickup.id }), 404, "PICKUP_NOT_FOUND");
    });

    test("a sandbox key makes sandbox manifests of sandbox parcels, marked on the PDF, which the live key never sees", async () => {
      const [id] = await createParcels(merchant, 1, "sandbox");
      const made = await merchant.sandbox("POST", "/manifests", {
        parcelIds: [id],
        address: PICKUP_ADDRESS,
        pickupDate: pickupWindow().day
      });
      expect(made.status).toBe(201);
      expectError(await merchant.live("GET", `/manifests/${made.body.id}`), 404, "MANIFEST_NOT_FOUND");
      expect((await merchant.live("GET", "/manifests?size=100")).body.items.map((x: { id: string }) => x.id)).not.toContain(made.body.id);
      const { text } = await parsePdf((await download(made.body.pdfUrl)).bytes);
      expect(text).toContain("SANDBOX");
    });

    test("bad input is a 4xx in the error shape", async () => {
      const [id] = await createParcels(merchant, 1);
      const day = pickupWindow().day;
      expectError(await merchant.live("POST", "/manifests", {}), 400, "VALIDATION_FAILED", "pickupId");
      expectError(await merchant.live("POST", "/manifests", { pickupId: randomUUID(), parcelIds: [id] }), 400, "VALIDATION_FAILED");
      expectError(await merchant.live("POST", "/manifests", { parcelIds: [id], pickupDate: day }), 400, "VALIDATION_FAILED", "address");
      expectError(
        await merchant.live("POST", "/manifests", { parcelIds: [id], address: PICKUP_ADDRESS, pickupDate: "2020-01-01" }),
        400,
        "VALIDATION_FAILED",
        "pickupDate"
      );
      expectError(
        await merchant.live("POST", "/manifests", { parcelIds: [id], address: PICKUP_ADDRESS, pickupDate: "2031-02-30" }),
        400,
        "VALIDATION_FAILED",
        "pickupDate"
      );
      expectError(
        await merchant.live("POST", "/manifests", { parcelIds: ["nope"], address: PICKUP_ADDRESS, pickupDate: day }),
        400,
        "VALIDATION_FAILED"
      );
      expectError(
        await merchant.live("POST", "/manifests", { parcelIds: [randomUUID()], address: PICKUP_ADDRESS, pickupDate: day }),
        404,
        "PARCEL_NOT_FOUND"
      );
      // Another organisation's parcel is as unknown as one that does not exist; so is a live parcel to the sandbox key.
      expectError(
        await other.live("POST", "/manifests", { parcelIds: [id], address: PICKUP_ADDRESS, pickupDate: day }),
        404,
        "PARCEL_NOT_FOUND"
      );
      expectError(
        await merchant.sandbox("POST", "/manifests", { parcelIds: [id], address: PICKUP_ADDRESS, pickupDate: day }),
        404,
        "PARCEL_NOT_FOUND"
      );
      expectError(await merchant.live("POST", "/manifests", { pickupId: randomUUID() }), 404, "PICKUP_NOT_FOUND");
      expectError(await merchant.live("GET", `/manifests/${randomUUID()}`), 404, "MANIFEST_NOT_FOUND");
      expectError(await merchant.live("GET", "/manifests/not-a-uuid"), 400, "VALIDATION_FAILED");
      expectError(await merchant.live("GET", "/manifests?pickupDate=2026-13-45"), 400, "VALIDATION_FAILED", "pickupDate");
      expectError(await merchant.live("GET", "/manifests?size=0"), 400, "VALIDATION_FAILED");
    });

    test("the courier's one scan announces every listed parcel to the pickup; the merchant's count code collects them at closing", async () => {
      const courierApi = await courierOfWilaya16();
      const ids = await createParcels(merchant, 3);
      // The pickup was booked for the first parcel only; the manifest lists all three.
      const pickup = await book(merchant, [ids[0]]);
      const manifest = await merchant.live("POST", "/manifests", {
        parcelIds: ids,
        address: PICKUP_ADDRESS,
        pickupDate: pickupWindow().day
      });
      expect(manifest.status).toBe(201);

      const key = randomUUID();
      const scans = await Promise.all(
        [1, 2].map(() =>
          courierApi("POST", `/pickups/${pickup.id}/manifest-scans`, { manifestNumber: manifest.body.number }, { "Idempotency-Key": key })
        )
      );
      for (const scan of scans) {
        expect(scan.status).toBe(200);
        expect([...scan.body.announced].sort()).toEqual([...ids].sort());
      }
      expect(scans.flatMap(s => s.body.added).sort()).toEqual([ids[1], ids[2]].sort());
      for (const id of ids) expect((await merchant.live("GET", `/parcels/${id}`)).body.status).toBe("READY_FOR_PICKUP");

      // One parcel by its own scan; the other two by the merchant's count.
      const tracking = (await merchant.live("GET", `/parcels/${ids[0]}`)).body.trackingNumber;
      expect(
        (await courierApi("POST", `/pickups/${pickup.id}/scans`, { trackingNumber: tracking }, { "Idempotency-Key": randomUUID() })).body
          .outcome
      ).toBe("COLLECTED");

      const view = await merchant.live("GET", `/pickups/${pickup.id}`);
      expect(view.body.countCode).toMatch(/^\d{6}$/);
      const run = await courierApi("GET", "/run");
      expect(run.body.items.find((p: { id: string }) => p.id === pickup.id)).not.toHaveProperty("countCode");
      const wrong = String((Number(view.body.countCode) + 1) % 1_000_000).padStart(6, "0");

      const close = (body: unknown) => courierApi("POST", `/pickups/${pickup.id}/close`, body, { "Idempotency-Key": randomUUID() });
      expectError(await close({ countCode: wrong, count: 3 }), 409, "COUNT_CODE_INCORRECT", "countCode");
      expectError(await close({ countCode: view.body.countCode, count: 2 }), 409, "PICKUP_COUNT_MISMATCH", "count");
      expectError(await close({ countCode: view.body.countCode }), 400, "VALIDATION_FAILED");
      expect((await merchant.live("GET", `/pickups/${pickup.id}`)).body.status).toBe("IN_PROGRESS");
      const closed = await close({ countCode: view.body.countCode, count: 3 });
      expect(closed.status).toBe(200);
      expect(closed.body).toEqual(expect.objectContaining({ status: "COMPLETED", missing: [], unexpected: [] }));
      for (const id of ids) expect((await merchant.live("GET", `/parcels/${id}`)).body.status).toBe("PICKED_UP");
      const trail = await m.bo().call("GET", `/parcels/${ids[1]}/custody`);
      expect(trail.body.trail.map((e: { givenBy: string; holder: string; scan: string }) => `${e.givenBy}→${e.holder} ${e.scan}`)).toEqual([
        "merchant→courier pickup.counted"
      ]);
      // Closed, the pickup shows no code any more.
      expect((await merchant.live("GET", `/pickups/${pickup.id}`)).body.countCode).toBeNull();
    });

    test("another merchant's manifest is no manifest for this stop; five wrong count codes lock the count", async () => {
      const courierApi = await courierOfWilaya16();
      const [mine] = await createParcels(merchant, 1);
      const pickup = await book(merchant, [mine]);
      const [theirs] = await createParcels(other, 1);
      const foreign = await other.live("POST", "/manifests", {
        parcelIds: [theirs],
        address: PICKUP_ADDRESS,
        pickupDate: pickupWindow().day
      });
      expect(foreign.status).toBe(201);
      expectError(
        await courierApi("POST", `/pickups/${pickup.id}/manifest-scans`, { manifestNumber: foreign.body.number }),
        404,
        "MANIFEST_NOT_FOUND"
      );
      expectError(
        await courierApi("POST", `/pickups/${pickup.id}/manifest-scans`, { manifestNumber: "MF-1" }),
        400,
        "VALIDATION_FAILED",
        "manifestNumber"
      );
      expect((await other.live("GET", `/parcels/${theirs}`)).body.status).toBe("CREATED");

      const code = (await merchant.live("GET", `/pickups/${pickup.id}`)).body.countCode;
      const wrong = String((Number(code) + 7) % 1_000_000).padStart(6, "0");
      const close = (countCode: string) =>
        courierApi("POST", `/pickups/${pickup.id}/close`, { countCode, count: 1 }, { "Idempotency-Key": randomUUID() });
      for (let i = 0; i < 5; i++) expectError(await close(wrong), 409, "COUNT_CODE_INCORRECT");
      expectError(await close(code), 423, "COUNT_CODE_LOCKED");
      expect((await merchant.live("GET", `/parcels/${mine}`)).body.status).toBe("READY_FOR_PICKUP");
    });
  });
  describe("mis-sorts (decision 0058)", () => missortContract(system));
  describe("acceptance 1: the first and middle mile in one walk", () => firstMileWalkContract(system));
  describe("custody: who holds the parcel, in the partner view and the back-office trail", () => {
    const relay = relayHelpers(system);

    test("merchant → courier (first name) → hub (code, wilaya) → courier → relay (code); the trail has both sides of each hand-off", async () => {
      const code = await relay.relayPoint();
      const agent = await relay.agent(code);
      const crew = await networkCrew(system);
      const created = await merchant.live("POST", "/parcels", { ...PARCEL, destinationRelayCode: code });
      expect(created.body.custody).toEqual({ holder: "merchant", since: created.body.createdAt, name: null, wilaya: null });
      const [parcel] = await pickedUpParcels(merchant, crew, 1, { destinationRelayCode: code });
      const custody = async () => (await merchant.live("GET", `/parcels/${parcel.id}`)).body.custody;

      const withCourier = await custody();
      expect(withCourier).toEqual({ holder: "courier", since: expect.any(String), name: "Yacine", wilaya: null });
      await crew.hubApi("POST", "/scans/in", { trackingNumber: parcel.trackingNumber }, { "Idempotency-Key": randomUUID() });
      const atHub = await custody();
      expect(atHub).toEqual({ holder: "hub", since: expect.any(String), name: crew.hub.code, wilaya: "16" });
      expect(Date.parse(atHub.since)).toBeGreaterThanOrEqual(Date.parse(withCourier.since));
      await crew.hubApi("POST", "/scans/out", { trackingNumber: parcel.trackingNumber }, { "Idempotency-Key": randomUUID() });
      expect(await custody()).toEqual(expect.objectContaining({ holder: "courier" }));
      expect((await agent("POST", "/arrivals", { trackingNumber: parcel.trackingNumber })).status).toBe(200);
      expect(await custody()).toEqual(expect.objectContaining({ holder: "relay", name: code }));
      // Another organisation sees nothing of it, custody included.
      expectError(await other.live("GET", `/parcels/${parcel.id}`), 404, "PARCEL_NOT_FOUND");

      const trail = (await m.bo().call("GET", `/parcels/${parcel.id}/custody`)).body.trail as {
        holder: string;
        givenBy: string;
        since: string;
        confirmedBy: string | null;
      }[];
      // The agent's arrival closes the last hand-off (decision 0057).
      expect(trail.map(e => `${e.givenBy}→${e.holder}`)).toEqual(["merchant→courier", "courier→hub", "hub→courier", "courier→relay"]);
      for (const e of trail) expect(e.since).toEqual(expect.any(String));
      expect(trail[1].confirmedBy).toEqual(expect.stringContaining("hub:"));
    });
  });

  networkRunsContract(system);
}
