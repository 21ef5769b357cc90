import { randomUUID } from "node:crypto";
import type { SystemUnderTest } from "./gateway-contract";
import { expectError, Merchant, merchants, PARCEL } from "./merchant-helpers";

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
}
