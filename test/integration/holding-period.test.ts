import { randomBytes, randomUUID } from "node:crypto";
import { ServiceBroker } from "moleculer";
import { createSystem } from "../../bin/system";
import { loadConfig } from "../../lib/config";
import { acquireDatabase, releaseDatabase } from "../../lib/db/connection";
import type { Database } from "../../lib/db/database";
import type { KeyMode } from "../../lib/api-keys";
import type { ParcelView } from "../../lib/parcel-view";
import type { PublicTracking } from "../../lib/public-tracking";
import { checkMoneyInvariant } from "../helpers/money-invariant";
import { TestEngine, testEngines } from "../helpers/engines";

/**
 * The holding period on both engines: a parcel that reaches its relay point gets a deadline by
 * whichever path it arrives (operator transition, sandbox trigger), shown in the parcel view and
 * in public tracking.
 */

const HOLDING_DAYS = 5;
const DAY_MS = 24 * 3600 * 1000;

describe.each(testEngines("holding period"))("holding period on %s", (_engine, open) => {
  let broker: ServiceBroker;
  let db: Database;
  let config: ReturnType<typeof loadConfig>;
  let database: TestEngine;
  let orgId: string;

  beforeAll(async () => {
    database = await open();
    config = loadConfig({
      ...database.env,
      SERVICES: "auth,wallet,parcels",
      BACKOFFICE_TOKEN: "t",
      ENCRYPTION_KEY: randomBytes(32).toString("hex"),
      LABEL_URL_SECRET: "l",
      SWEEP_INTERVAL_MS: "3600000",
      HOLDING_INTERVAL_MS: "60000",
      HOLDING_DAYS: String(HOLDING_DAYS)
    });
    broker = await createSystem(config, { logger: false });
    await broker.start();
    db = await acquireDatabase(config);
    orgId = (await broker.call<{ id: string }, object>("auth.createOrganization", { name: "Holding SARL" })).id;
    for (const mode of ["live", "sandbox"]) await broker.call("wallet.topUp", { organizationId: orgId, mode, amountDzd: 100_000 });
  }, 60_000);

  afterAll(async () => {
    await broker.stop();
    await releaseDatabase(config);
    await database.drop();
  });

  const meta = (mode: KeyMode) => ({
    auth: {
      keyId: randomUUID(),
      keyPrefix: "rp_test",
      organizationId: orgId,
      organizationName: "Holding SARL",
      mode,
      scopes: ["parcels:read", "parcels:write"],
      rateLimitPerMinute: null
    }
  });

  async function create(mode: KeyMode = "live", extra: object = {}, organizationId = orgId): Promise<ParcelView> {
    const m = meta(mode);
    m.auth.organizationId = organizationId;
    return broker.call<ParcelView, object>(
      "parcels.create",
      { recipientName: "Amina", recipientPhone: "+213555123456", weightG: 800, destinationRelayCode: "DZ-16-ALGER-CENTRE", ...extra },
      { meta: m }
    );
  }
  const read = (id: string, mode: KeyMode = "live") => broker.call<ParcelView, object>("parcels.get", { id }, { meta: meta(mode) });
  const operator = (id: string, toStatus: string) => broker.call<ParcelView, object>("parcels.transition", { id, toStatus });
  async function toRelay(id: string): Promise<ParcelView> {
    for (const status of ["READY_FOR_PICKUP", "PICKED_UP", "IN_TRANSIT"]) await operator(id, status);
    return operator(id, "AT_RELAY");
  }
  const arrivedAt = async (id: string) =>
    (
      await db.query<{ created_at: Date }>(
        "SELECT created_at FROM parcels.status_history WHERE parcel_id = $1 AND to_status = 'AT_RELAY' ORDER BY id DESC LIMIT 1",
        [id]
      )
    )[0].created_at;

  test("no deadline before arrival; on arrival (operator) it is arrival + HOLDING_DAYS, in the view and public tracking", async () => {
    const parcel = await create();
    expect(parcel.pickupDeadline).toBeNull();
    expect(parcel.returnFeeDzd).toBeNull();
    const atRelay = await toRelay(parcel.id);
    expect(atRelay.pickupDeadline).not.toBeNull();
    expect(Date.parse(atRelay.pickupDeadline!)).toBe((await arrivedAt(parcel.id)).getTime() + HOLDING_DAYS * DAY_MS);
    expect((await read(parcel.id)).pickupDeadline).toBe(atRelay.pickupDeadline);
    const tracking = await broker.call<PublicTracking, object>("parcels.publicTracking", { trackingNumber: parcel.trackingNumber });
    expect(tracking.pickupDeadline).toBe(atRelay.pickupDeadline);
  });

  test("a relay point with its own holding days gives its parcels that many days, not HOLDING_DAYS", async () => {
    await db.query("UPDATE parcels.relay_points SET holding_days = 2 WHERE code = 'DZ-31-ORAN-HAI-ESSALEM'");
    const parcel = await create("live", { destinationRelayCode: "DZ-31-ORAN-HAI-ESSALEM" });
    const atRelay = await toRelay(parcel.id);
    expect(Date.parse(atRelay.pickupDeadline!)).toBe((await arrivedAt(parcel.id)).getTime() + 2 * DAY_MS);
  });

  test("a sandbox parcel moved to AT_RELAY by the trigger gets its deadline too", async () => {
    const parcel = await create("sandbox");
    await broker.call("parcels.triggerSandboxEvent", { id: parcel.id, toStatus: "AT_RELAY" }, { meta: meta("sandbox") });
    const after = await read(parcel.id, "sandbox");
    expect(Date.parse(after.pickupDeadline!)).toBe((await arrivedAt(parcel.id)).getTime() + HOLDING_DAYS * DAY_MS);
  });

  const pass = () => broker.call<{ expired: number; feesCharged: number }, object>("parcels.runHoldingPass", {});
  const pastDeadline = (id: string) =>
    db.query("UPDATE parcels.parcels SET pickup_deadline = now() - interval '1 second' WHERE id = $1", [id]);
  const wallet = (organizationId = orgId, mode: KeyMode = "live") =>
    broker.call<{ balanceDzd: number; entries: { kind: string; amountDzd: number; parcelId: string | null }[] }, object>("wallet.get", {
      organizationId,
      mode
    });
  const history = async (id: string) =>
    db.query<{ to_status: string; reason: string | null; actor: string }>(
      "SELECT to_status, reason, actor FROM parcels.status_history WHERE parcel_id = $1 ORDER BY id",
      [id]
    );
  const events = async (id: string) =>
    (
      await db.query<{ type: string; payload: { reason: string | null } | string }>(
        "SELECT type, payload FROM parcels.outbox WHERE parcel_id = $1 ORDER BY id",
        [id]
      )
    ).map(e => ({ type: e.type, reason: (typeof e.payload === "string" ? JSON.parse(e.payload) : e.payload).reason }));
  const feesOf = async (parcelId: string, organizationId = orgId, mode: KeyMode = "live") =>
    (await wallet(organizationId, mode)).entries.filter(e => e.kind === "return_fee" && e.parcelId === parcelId);

  test("past its deadline, a parcel goes back once: RETURN_PENDING/PICKUP_EXPIRED, COD NOT_COLLECTED, event, return fee", async () => {
    const parcel = await create("live", { codAmountDzd: 2500 });
    await toRelay(parcel.id);
    await operator(parcel.id, "RELAY_NOTIFIED");
    const before = (await wallet()).balanceDzd;
    await pastDeadline(parcel.id);
    expect((await pass()).expired).toBeGreaterThanOrEqual(1);
    const after = await read(parcel.id);
    expect(after).toMatchObject({ status: "RETURN_PENDING", codStatus: "NOT_COLLECTED" });
    // Half the shipping price (400 DZD for 800 g), not of the COD fee the price also holds (issue 26).
    expect(parcel.pricePaidDzd).toBe(450);
    const fee = 200;
    expect(after.returnFeeDzd).toBe(fee);
    expect((await history(parcel.id)).at(-1)).toEqual({ to_status: "RETURN_PENDING", reason: "PICKUP_EXPIRED", actor: "holding-period" });
    expect((await events(parcel.id)).at(-1)).toEqual({ type: "parcel.return_pending", reason: "PICKUP_EXPIRED" });
    expect(await feesOf(parcel.id)).toEqual([expect.objectContaining({ amountDzd: fee })]);
    expect((await wallet()).balanceDzd).toBeCloseTo(before - fee, 2);

    await pass();
    await pass();
    expect((await history(parcel.id)).filter(h => h.to_status === "RETURN_PENDING")).toHaveLength(1);
    expect(await feesOf(parcel.id)).toHaveLength(1);
  });

  test("a parcel whose deadline has not passed stays on the shelf", async () => {
    const parcel = await create();
    await toRelay(parcel.id);
    await pass();
    expect((await read(parcel.id)).status).toBe("AT_RELAY");
  });

  test("several passes at once (several instances): each overdue parcel expires once, its fee charged once", async () => {
    const parcels = await Promise.all(Array.from({ length: 6 }, () => create()));
    for (const p of parcels) {
      await toRelay(p.id);
      await pastDeadline(p.id);
    }
    const results = await Promise.all(Array.from({ length: 4 }, () => pass()));
    expect(results.reduce((n, r) => n + r.expired, 0)).toBeGreaterThanOrEqual(parcels.length);
    for (const p of parcels) {
      expect((await history(p.id)).filter(h => h.to_status === "RETURN_PENDING")).toHaveLength(1);
      expect((await events(p.id)).filter(e => e.type === "parcel.return_pending")).toHaveLength(1);
      expect(await feesOf(p.id)).toHaveLength(1);
    }
  });

  test("expiry racing a hand-over: exactly one wins, and the money matches the winner", async () => {
    const outcomes = { delivered: 0, returned: 0 };
    for (let round = 0; round < 6; round++) {
      const parcel = await create("live", { codAmountDzd: 1200 });
      await toRelay(parcel.id);
      const { pickupPin } = await broker.call<{ pickupPin: string }, object>("parcels.recipientContact", { parcelId: parcel.id });
      await pastDeadline(parcel.id);
      const [handover] = await Promise.allSettled([
        broker.call("parcels.transition", { id: parcel.id, toStatus: "DELIVERED", pin: pickupPin }),
        pass()
      ]);
      await pass();
      const after = await read(parcel.id);
      const statuses = (await history(parcel.id)).map(h => h.to_status);
      if (after.status === "DELIVERED") {
        outcomes.delivered++;
        expect(handover.status).toBe("fulfilled");
        expect(after.codStatus).toBe("COLLECTED");
        expect(statuses).not.toContain("RETURN_PENDING");
        expect(await feesOf(parcel.id)).toEqual([]);
        expect(after.returnFeeDzd).toBeNull();
      } else {
        outcomes.returned++;
        expect(after).toMatchObject({ status: "RETURN_PENDING", codStatus: "NOT_COLLECTED" });
        expect(handover).toMatchObject({ status: "rejected", reason: { type: "INVALID_TRANSITION" } });
        expect(statuses).not.toContain("DELIVERED");
        expect(await feesOf(parcel.id)).toHaveLength(1);
      }
    }
    expect(outcomes.delivered + outcomes.returned).toBe(6);
  });

  test("any entry into RETURN_PENDING charges the fee: an operator's return from IN_TRANSIT, a sandbox trigger (sandbox wallet)", async () => {
    const live = await create();
    for (const status of ["READY_FOR_PICKUP", "PICKED_UP", "IN_TRANSIT", "RETURN_PENDING"]) await operator(live.id, status);
    expect(await feesOf(live.id)).toHaveLength(1);
    expect((await read(live.id)).returnFeeDzd).toBe(Math.round(live.pricePaidDzd * 50) / 100);

    const sandbox = await create("sandbox");
    const trigger = (toStatus: string) =>
      broker.call("parcels.triggerSandboxEvent", { id: sandbox.id, toStatus }, { meta: meta("sandbox") });
    await trigger("RETURN_PENDING");
    await trigger("AT_RELAY");
    await trigger("RETURN_PENDING");
    await pass();
    expect(await feesOf(sandbox.id, orgId, "sandbox")).toHaveLength(1);
    expect(await feesOf(sandbox.id, orgId, "live")).toEqual([]);
  });

  test("a return fee is never refused for want of balance: the wallet goes below zero, creates answer 402 until a top-up", async () => {
    const poor = (await broker.call<{ id: string }, object>("auth.createOrganization", { name: "Petit Budget" })).id;
    await broker.call("wallet.topUp", { organizationId: poor, mode: "live", amountDzd: 500 });
    const parcel = await create("live", {}, poor);
    const left = (await wallet(poor)).balanceDzd;
    expect(left).toBeLessThan(parcel.pricePaidDzd / 2);
    for (const status of ["READY_FOR_PICKUP", "PICKED_UP", "IN_TRANSIT", "RETURN_PENDING"]) await operator(parcel.id, status);
    await pass();
    const fee = Math.round(parcel.pricePaidDzd * 50) / 100;
    expect((await wallet(poor)).balanceDzd).toBeCloseTo(left - fee, 2);
    expect((await wallet(poor)).balanceDzd).toBeLessThan(0);
    await expect(create("live", {}, poor)).rejects.toMatchObject({ type: "INSUFFICIENT_BALANCE" });

    // The wallet's charge itself is idempotent: a repeat answers the first, charges nothing.
    const again = await broker.call<{ chargedCentimes: number }, object>("wallet.chargeReturnFee", {
      parcelId: parcel.id,
      organizationId: poor,
      mode: "live",
      amountCentimes: Math.round(fee * 100)
    });
    expect(again.chargedCentimes).toBe(Math.round(fee * 100));
    expect(await feesOf(parcel.id, poor)).toHaveLength(1);
    expect((await wallet(poor)).balanceDzd).toBeCloseTo(left - fee, 2);

    await broker.call("wallet.topUp", { organizationId: poor, mode: "live", amountDzd: 1000 });
    expect((await create("live", {}, poor)).status).toBe("CREATED");
  });

  test("a fee the wallet did not acknowledge stays owed and is charged by a later pass", async () => {
    const parcel = await create();
    for (const status of ["READY_FOR_PICKUP", "PICKED_UP", "IN_TRANSIT"]) await operator(parcel.id, status);
    // As after a crash between the return's commit and the wallet's answer.
    await db.transaction(async tx => {
      await tx.query(
        "UPDATE parcels.parcels SET status = 'RETURN_PENDING', return_fee_centimes = 100, return_fee_pending = true WHERE id = $1",
        [parcel.id]
      );
      await tx.query(
        "INSERT INTO parcels.status_history (parcel_id, from_status, to_status, reason, actor) VALUES ($1, 'IN_TRANSIT', 'RETURN_PENDING', null, 'test')",
        [parcel.id]
      );
    });
    expect((await read(parcel.id)).returnFeeDzd).toBeNull();
    expect((await pass()).feesCharged).toBeGreaterThanOrEqual(1);
    expect(await feesOf(parcel.id)).toEqual([expect.objectContaining({ amountDzd: 1 })]);
    expect((await read(parcel.id)).returnFeeDzd).toBe(1);
  });

  const setDeadline = (id: string, hoursFromNow: number) =>
    db.query("UPDATE parcels.parcels SET pickup_deadline = now() + make_interval(secs => $2::double precision) WHERE id = $1", [
      id,
      hoursFromNow * 3600
    ]);
  const outboxOf = async (id: string) =>
    (
      await db.query<{ type: string; payload: unknown }>("SELECT type, payload FROM parcels.outbox WHERE parcel_id = $1 ORDER BY id", [id])
    ).map(e => ({ type: e.type, body: (typeof e.payload === "string" ? JSON.parse(e.payload) : e.payload) as Record<string, any> }));

  test("the reminder: PICKUP_REMINDER_HOURS (48) before the deadline, once per deadline, with passes racing", async () => {
    const parcel = await create();
    await toRelay(parcel.id);
    await setDeadline(parcel.id, 49);
    await pass();
    expect((await outboxOf(parcel.id)).map(e => e.type)).not.toContain("parcel.pickup_reminder");

    await setDeadline(parcel.id, 47);
    const results = await Promise.all(Array.from({ length: 4 }, () => pass()));
    expect(results.reduce((n, r) => n + (r as { reminded?: number }).reminded!, 0)).toBeGreaterThanOrEqual(1);
    await pass();
    const events = await outboxOf(parcel.id);
    const reminders = events.filter(e => e.type === "parcel.pickup_reminder");
    expect(reminders).toHaveLength(1);
    const [reminder] = reminders;
    const current = await read(parcel.id);
    expect(current.status).toBe("AT_RELAY");
    expect(reminder.body).toMatchObject({
      type: "parcel.pickup_reminder",
      reason: null,
      sandbox: false,
      sequence: events.length,
      data: { previousStatus: "AT_RELAY", parcel: { id: parcel.id, status: "AT_RELAY", pickupDeadline: current.pickupDeadline } }
    });

    // A new deadline (an operator's correction) is reminded again, once.
    await setDeadline(parcel.id, 30);
    await Promise.all([pass(), pass()]);
    expect((await outboxOf(parcel.id)).filter(e => e.type === "parcel.pickup_reminder")).toHaveLength(2);
  });

  test("no reminder for a deadline already past (that is an expiry), nor for a parcel no longer on the shelf", async () => {
    const parcel = await create();
    await toRelay(parcel.id);
    const { pickupPin } = await broker.call<{ pickupPin: string }, object>("parcels.recipientContact", { parcelId: parcel.id });
    await broker.call("parcels.transition", { id: parcel.id, toStatus: "DELIVERED", pin: pickupPin });
    await setDeadline(parcel.id, 1);
    await pass();
    expect((await outboxOf(parcel.id)).map(e => e.type)).not.toContain("parcel.pickup_reminder");
  });

  const extend = (id: string, days: number, mode: KeyMode = "live", organizationId = orgId) => {
    const m = meta(mode);
    m.auth.organizationId = organizationId;
    return broker.call<ParcelView, object>("parcels.extendPickup", { id, days }, { meta: m });
  };

  test("the merchant's extension: later deadline and parcel.pickup_extended, once; only on the shelf; 404 across organisations and modes", async () => {
    const parcel = await create();
    await expect(extend(parcel.id, 2)).rejects.toMatchObject({ type: "PARCEL_NOT_AT_RELAY" });
    const atRelay = await toRelay(parcel.id);
    await expect(extend(parcel.id, 2, "sandbox")).rejects.toMatchObject({ type: "PARCEL_NOT_FOUND" });
    await expect(extend(parcel.id, 2, "live", randomUUID())).rejects.toMatchObject({ type: "PARCEL_NOT_FOUND" });
    for (const days of [0, 8, 1.5]) await expect(extend(parcel.id, days)).rejects.toMatchObject({ type: "VALIDATION_FAILED" });

    const outcomes = await Promise.allSettled([extend(parcel.id, 3), extend(parcel.id, 3)]);
    expect(outcomes.map(o => o.status).sort()).toEqual(["fulfilled", "rejected"]);
    const extended = (outcomes.find(o => o.status === "fulfilled") as PromiseFulfilledResult<ParcelView>).value;
    expect((outcomes.find(o => o.status === "rejected") as PromiseRejectedResult).reason).toMatchObject({ type: "EXTENSION_ALREADY_USED" });
    expect(Date.parse(extended.pickupDeadline!)).toBe(Date.parse(atRelay.pickupDeadline!) + 3 * DAY_MS);
    expect(extended.status).toBe("AT_RELAY");
    await expect(extend(parcel.id, 1)).rejects.toMatchObject({ type: "EXTENSION_ALREADY_USED" });
    const events = (await outboxOf(parcel.id)).filter(e => e.type === "parcel.pickup_extended");
    expect(events).toHaveLength(1);
    expect(events[0].body.data).toMatchObject({ previousStatus: "AT_RELAY", parcel: { pickupDeadline: extended.pickupDeadline } });
  });

  test("an operator's correction: any deadline while on the shelf; one in the past sends the parcel back", async () => {
    const parcel = await create();
    const put = (pickupDeadline: string) => broker.call<ParcelView, object>("parcels.setPickupDeadline", { id: parcel.id, pickupDeadline });
    await expect(put(new Date(Date.now() + DAY_MS).toISOString())).rejects.toMatchObject({ type: "PARCEL_NOT_AT_RELAY" });
    await toRelay(parcel.id);
    for (const bad of ["2026-13-45T00:00:00Z", "tomorrow", "2026-03-20", new Date(Date.now() + 61 * DAY_MS).toISOString()]) {
      await expect(put(bad)).rejects.toMatchObject({ type: "VALIDATION_FAILED" });
    }
    await expect(
      broker.call("parcels.setPickupDeadline", { id: randomUUID(), pickupDeadline: "2026-03-20T18:00:00Z" })
    ).rejects.toMatchObject({
      type: "PARCEL_NOT_FOUND"
    });
    const later = new Date(Date.now() + 10 * DAY_MS);
    later.setUTCMilliseconds(0);
    expect((await put(later.toISOString())).pickupDeadline).toBe(later.toISOString());
    expect((await put("2020-01-01T00:00:00+01:00")).pickupDeadline).toBe("2019-12-31T23:00:00.000Z");
    await pass();
    expect(await read(parcel.id)).toMatchObject({ status: "RETURN_PENDING", returnFeeDzd: Math.round(parcel.pricePaidDzd * 50) / 100 });
    expect((await history(parcel.id)).at(-1)).toMatchObject({ to_status: "RETURN_PENDING", reason: "PICKUP_EXPIRED" });
  });

  test("the money invariant holds after all of it (returns and fees included)", async () => {
    if (!database.url) return;
    await pass();
    const report = await checkMoneyInvariant(database.url);
    expect(report.violations).toEqual([]);
    expect(report.returnFeePending).toBe(0);
    expect(report.returnFees).toBeGreaterThan(5);
  });
});
