import { randomBytes, randomUUID } from "node:crypto";
import { ServiceBroker } from "moleculer";
import { createSystem } from "../../bin/system";
import { loadConfig } from "../../lib/config";
import { acquireDatabase, releaseDatabase } from "../../lib/db/connection";
import type { Database } from "../../lib/db/database";
import type { KeyMode } from "../../lib/api-keys";
import { algiersDate } from "../../lib/cod";
import type { WebhookBody } from "../../lib/events";
import type { ParcelView } from "../../lib/parcel-view";
import { positionOf, RelayPointEntry } from "../../lib/relay-points";
import { addDays, weekdayOf } from "../../services/parcels/calendar-date";
import { listRelayPoints } from "../../services/parcels/relay-points.store";
import { rankByDistance, searchRelayPoints } from "../../services/parcels/relay-search";
import { searchRelayPoints as searchInDatabase } from "../../services/parcels/relay-points.store";
import { closuresOf } from "../../services/parcels/relay/closures.store";
import { checkMoneyInvariant } from "../helpers/money-invariant";
import { waitFor } from "../helpers/parcel-events";
import { TestEngine, testEngines } from "../helpers/engines";

/**
 * Relay closures (issue 22) on both engines: the back-office's and the agent's closures and their
 * rules, RELAY_CLOSED on create, quote and batch items with the nearest open relay points and
 * nothing debited, the search's closures, openNow and openOn, a closure added while parcels wait
 * on the shelf (later deadlines) or are on their way (affected parcels, relay.closure_announced),
 * and, on PostgreSQL, a closure added through one parcels instance refused by another.
 */

const DAY_MS = 86_400_000;

const systemConfig = (env: Record<string, string>, encryptionKey: string) =>
  loadConfig({
    ...env,
    SERVICES: "auth,wallet,parcels,webhooks,notifications",
    BACKOFFICE_TOKEN: "t",
    ENCRYPTION_KEY: encryptionKey,
    LABEL_URL_SECRET: "l",
    SWEEP_INTERVAL_MS: "3600000",
    HOLDING_INTERVAL_MS: "60000",
    OUTBOX_INTERVAL_MS: "60000",
    WEBHOOK_WORKER_INTERVAL_MS: "60000"
  });

interface Failure {
  type: string;
  code: number;
  data?: { details?: { field: string; message: string; relayCode?: string; distanceKm?: number }[] };
}

/** The error a call threw (the validation middleware throws synchronously on a local call: wrapped). */
async function failure(call: () => Promise<unknown>): Promise<Failure> {
  try {
    await call();
  } catch (err) {
    return err as Failure;
  }
  throw new Error("expected the call to fail");
}

describe.each(testEngines("relay closures"))("relay closures on %s", (_engine, open) => {
  let broker: ServiceBroker;
  let db: Database;
  let config: ReturnType<typeof loadConfig>;
  let database: TestEngine;
  let orgId: string;
  let otherOrgId: string;
  const encryptionKey = randomBytes(32).toString("hex");
  const today = algiersDate(new Date());

  beforeAll(async () => {
    database = await open();
    config = systemConfig(database.env, encryptionKey);
    broker = await createSystem(config, { logger: false });
    await broker.start();
    db = await acquireDatabase(config);
    orgId = (await broker.call<{ id: string }, object>("auth.createOrganization", { name: "Closures SARL" })).id;
    otherOrgId = (await broker.call<{ id: string }, object>("auth.createOrganization", { name: "Autre SARL" })).id;
    for (const org of [orgId, otherOrgId]) {
      for (const mode of ["live", "sandbox"]) await broker.call("wallet.topUp", { organizationId: org, mode, amountDzd: 100_000 });
    }
  }, 60_000);

  afterAll(async () => {
    await broker.stop();
    await releaseDatabase(config);
    await database.drop();
  });

  const meta = (mode: KeyMode = "live", organizationId = orgId) => ({
    auth: {
      keyId: randomUUID(),
      keyPrefix: "rp_test",
      organizationId,
      organizationName: "Closures SARL",
      mode,
      scopes: ["parcels:read", "parcels:write"],
      rateLimitPerMinute: null
    }
  });
  const PARCEL = { recipientName: "Amina", recipientPhone: "+213555123456", weightG: 800 };
  const create = (destinationRelayCode: string, organizationId = orgId, extra: object = {}) =>
    broker.call<ParcelView, object>(
      "parcels.create",
      { ...PARCEL, destinationRelayCode, ...extra },
      { meta: meta("live", organizationId) }
    );
  const quote = (destinationRelayCode: string) => broker.call("parcels.quote", { weightG: 800, destinationRelayCode }, { meta: meta() });
  const close = (code: string, from: string, to: string, reason: string | null = null) =>
    broker.call<Record<string, unknown>, object>("parcels.addRelayClosure", { code, from, to, ...(reason ? { reason } : {}) });
  const balance = async (organizationId = orgId) =>
    (await broker.call<{ balanceDzd: number }, object>("wallet.get", { organizationId, mode: "live" })).balanceDzd;
  const operator = (id: string, toStatus: string) => broker.call<ParcelView, object>("parcels.transition", { id, toStatus });
  async function moveTo(id: string, last: string): Promise<ParcelView> {
    let parcel: ParcelView | null = null;
    for (const status of ["READY_FOR_PICKUP", "PICKED_UP", "IN_TRANSIT", "AT_RELAY"]) {
      parcel = await operator(id, status);
      if (status === last) break;
    }
    return parcel!;
  }
  const relayPoints = () => listRelayPoints(db);

  describe("the back-office's closures", () => {
    test("201 with the closure, listed by GET, removed by DELETE (204, then 404 CLOSURE_NOT_FOUND)", async () => {
      const created = await close("DZ-16-KOUBA", addDays(today, 20), addDays(today, 26), "travaux");
      expect(created).toMatchObject({
        relayCode: "DZ-16-KOUBA",
        from: addDays(today, 20),
        to: addDays(today, 26),
        reason: "travaux",
        days: 7,
        announcedBy: "backoffice",
        shelfParcelsExtended: 0,
        parcelsOnTheWay: 0,
        merchantsNotified: 0
      });
      const listed = await broker.call<{ items: { id: string }[] }, object>("parcels.listRelayClosures", { code: "DZ-16-KOUBA" });
      expect(listed.items.map(c => c.id)).toEqual([created.id]);
      await broker.call("parcels.removeRelayClosure", { code: "DZ-16-KOUBA", id: created.id });
      expect((await broker.call<{ items: unknown[] }, object>("parcels.listRelayClosures", { code: "DZ-16-KOUBA" })).items).toEqual([]);
      expect(await failure(() => broker.call("parcels.removeRelayClosure", { code: "DZ-16-KOUBA", id: created.id }))).toMatchObject({
        type: "CLOSURE_NOT_FOUND",
        code: 404
      });
    });

    test.each([
      ["to before from", 5, 4, "to"],
      ["more than 60 days", 1, 61, "to"],
      ["already over", -5, -1, "to"],
      ["beginning more than 60 days ahead", 61, 61, "from"]
    ])("400 naming the field: %s", async (_label, fromOffset, toOffset, field) => {
      const err = await failure(() => close("DZ-16-KOUBA", addDays(today, fromOffset), addDays(today, toOffset)));
      expect(err).toMatchObject({ type: "VALIDATION_FAILED", code: 400 });
      expect(err.data?.details?.[0].field).toBe(field);
    });

    test("exactly 60 days, and a closure that began yesterday and goes on, are accepted", async () => {
      const long = await close("DZ-16-KOUBA", addDays(today, 60), addDays(today, 119));
      expect(long.days).toBe(60);
      const ongoing = await close("DZ-16-KOUBA", addDays(today, -1), addDays(today, 1));
      expect(ongoing.days).toBe(3);
      for (const c of [long, ongoing]) await broker.call("parcels.removeRelayClosure", { code: "DZ-16-KOUBA", id: c.id });
    });

    test("400 for a day that does not exist or is not a date; 404 for an unknown relay point", async () => {
      for (const from of ["2026-02-30", "03/12/2026", ""]) {
        expect(await failure(async () => close("DZ-16-KOUBA", from, addDays(today, 3)))).toMatchObject({ type: "VALIDATION_FAILED" });
      }
      expect(await failure(() => close("DZ-99-NOWHERE", today, today))).toMatchObject({ type: "RELAY_POINT_NOT_FOUND", code: 404 });
      expect(await failure(() => broker.call("parcels.listRelayClosures", { code: "DZ-99-NOWHERE" }))).toMatchObject({
        type: "RELAY_POINT_NOT_FOUND"
      });
    });

    test("a relay agent announces a closure of its own point: the back-office sees it, announced by the agent", async () => {
      const agent = { agent: { keyId: randomUUID(), keyPrefix: "ra_test", relayCode: "DZ-16-BAB-EZZOUAR" } };
      const announced = await broker.call<{ id: string; announcedBy: string }, object>(
        "parcels.relayAnnounceClosure",
        { from: addDays(today, 30), to: addDays(today, 31), reason: "congé" },
        { meta: agent }
      );
      expect(announced.announcedBy).toBe("agent");
      const seen = await broker.call<{ items: { id: string; announcedBy: string }[] }, object>("parcels.listRelayClosures", {
        code: "DZ-16-BAB-EZZOUAR"
      });
      expect(seen.items).toEqual([expect.objectContaining({ id: announced.id, announcedBy: "agent", reason: "congé" })]);
      const own = await broker.call<{ items: { id: string }[] }, object>("parcels.relayClosures", {}, { meta: agent });
      expect(own.items.map(c => c.id)).toEqual([announced.id]);
    });
  });

  describe("new parcels to a closed relay point: 409 RELAY_CLOSED", () => {
    let expected: string[];

    beforeAll(async () => {
      // Alger Centre closes in two days (within CLOSURE_NOTICE_DAYS); its nearest neighbour is closed today.
      const points = await relayPoints();
      const centre = points.find(p => p.code === "DZ-16-ALGER-CENTRE")!;
      const others = points.filter(p => p.active && p.code !== centre.code);
      const ranked = rankByDistance(others, positionOf(centre)!, Number.POSITIVE_INFINITY).map(r => r.entry.code);
      await close(ranked[0], today, today, "inventaire");
      await close(centre.code, addDays(today, 2), addDays(today, 4), "congés");
      expected = ranked.slice(1, 4);
    });

    test("create: 409 with the three nearest open relay points by code and distance; nothing debited", async () => {
      const before = await balance();
      const err = await failure(() => create("DZ-16-ALGER-CENTRE"));
      expect(err).toMatchObject({ type: "RELAY_CLOSED", code: 409 });
      const details = err.data!.details!;
      expect(details.map(d => d.relayCode)).toEqual(expected);
      expect(details.every(d => d.field === "destinationRelayCode" && typeof d.distanceKm === "number")).toBe(true);
      expect(details.map(d => d.distanceKm)).toEqual([...details.map(d => d.distanceKm!)].sort((a, b) => a - b));
      expect(await balance()).toBe(before);
      const rows = await db.query<{ n: number }>(
        "SELECT count(*)::int AS n FROM parcels.parcels WHERE organization_id = $1 AND destination_relay_code = 'DZ-16-ALGER-CENTRE'",
        [orgId]
      );
      expect(rows[0].n).toBe(0);
    });

    test("quote: the same 409; a suggested point is quoted and created", async () => {
      expect(await failure(() => quote("DZ-16-ALGER-CENTRE"))).toMatchObject({ type: "RELAY_CLOSED" });
      await expect(quote(expected[0])).resolves.toMatchObject({ priceDzd: expect.any(Number) });
      await expect(create(expected[0])).resolves.toMatchObject({ status: "CREATED", destinationRelayCode: expected[0] });
    });

    test("batch: the item to the closed point answers 409 RELAY_CLOSED and is not debited; the others are created", async () => {
      const before = await balance();
      const result = await broker.call<
        { created: number; failed: number; items: { status: number; error: Failure | null; parcel: ParcelView | null }[] },
        object
      >(
        "parcels.createBatch",
        {
          items: [
            { ...PARCEL, destinationRelayCode: "DZ-16-ALGER-CENTRE" },
            { ...PARCEL, destinationRelayCode: expected[1] }
          ]
        },
        { meta: meta() }
      );
      expect(result.created).toBe(1);
      expect(result.items[0]).toMatchObject({ status: 409, error: { code: "RELAY_CLOSED" } });
      expect(result.items[1].parcel!.pricePaidDzd).toBeGreaterThan(0);
      expect(await balance()).toBe(before - result.items[1].parcel!.pricePaidDzd);
    });

    test("a closure beyond the notice days refuses nothing yet", async () => {
      await close("DZ-16-DAR-EL-BEIDA", addDays(today, config.closureNoticeDays + 1), addDays(today, 10));
      await expect(create("DZ-16-DAR-EL-BEIDA")).resolves.toMatchObject({ status: "CREATED" });
    });

    test("a creation replayed with its Idempotency-Key after the closure answers the first parcel again", async () => {
      const key = `closure-${randomUUID()}`;
      const first = await broker.call<ParcelView, object>(
        "parcels.create",
        { ...PARCEL, destinationRelayCode: "DZ-16-HYDRA" },
        { meta: { ...meta(), idempotencyKey: key } }
      );
      await close("DZ-16-HYDRA", today, addDays(today, 1));
      const again = await broker.call<ParcelView, object>(
        "parcels.create",
        { ...PARCEL, destinationRelayCode: "DZ-16-HYDRA" },
        { meta: { ...meta(), idempotencyKey: key } }
      );
      expect(again.id).toBe(first.id);
      expect(await failure(() => create("DZ-16-HYDRA"))).toMatchObject({ type: "RELAY_CLOSED" });
    });
  });

  describe("the partner search", () => {
    const search = (query: object) =>
      broker.call<{ items: (RelayPointEntry & { closures: unknown[]; openNow: boolean })[]; totalElements: number }, object>(
        "parcels.searchRelayPoints",
        query,
        { meta: meta() }
      );

    beforeAll(async () => {
      await close("DZ-16-KOUBA", addDays(today, 7), addDays(today, 9), "Aïd");
      await close("DZ-16-KOUBA", today, today);
    });

    test("each point carries its current and future closures, and openNow (false while closed today)", async () => {
      const { items } = await search({ q: "kouba" });
      const point = items.find(p => p.code === "DZ-16-KOUBA")!;
      expect(point.closures).toEqual([
        { from: today, to: today, reason: null },
        { from: addDays(today, 7), to: addDays(today, 9), reason: "Aïd" }
      ]);
      expect(point.openNow).toBe(false);
      const open = (await search({ q: "cheraga" })).items.find(p => p.code === "DZ-16-CHERAGA")!;
      expect(open.closures).toEqual([]);
      expect(typeof open.openNow).toBe("boolean");
    });

    test("openOn keeps only the points open that day: not closed, and open that weekday", async () => {
      const closedDay = addDays(today, 8);
      const onClosedDay = await search({ wilaya: "16", openOn: closedDay, size: 100 });
      expect(onClosedDay.items.map(p => p.code)).not.toContain("DZ-16-KOUBA");
      const point = (await relayPoints()).find(p => p.code === "DZ-16-KOUBA")!;
      let openDay = addDays(today, 10);
      while (point.openingHours !== null && point.openingHours[weekdayOf(openDay)].length === 0) openDay = addDays(openDay, 1);
      expect((await search({ wilaya: "16", openOn: openDay, size: 100 })).items.map(p => p.code)).toContain("DZ-16-KOUBA");
      const shut = (await relayPoints()).filter(p => p.wilaya === "16" && p.openingHours?.fri.length === 0);
      let friday = today;
      while (weekdayOf(friday) !== "fri") friday = addDays(friday, 1);
      const onFriday = (await search({ wilaya: "16", openOn: friday, size: 100 })).items.map(p => p.code);
      for (const p of shut) expect(onFriday).not.toContain(p.code);
      expect(await failure(async () => search({ openOn: "2026-13-01" }))).toMatchObject({ type: "VALIDATION_FAILED" });
    });

    test.each([
      { openOn: "OFFSET:8" },
      { openOn: "OFFSET:8", wilaya: "16" },
      { openOn: "OFFSET:0", near: { latitude: 36.75, longitude: 3.05 }, radiusKm: 30 },
      { openOn: "FRIDAY" }
    ])("the store's search with openOn answers as the reference: %j", async raw => {
      let day = raw.openOn.startsWith("OFFSET:") ? addDays(today, Number(raw.openOn.slice(7))) : today;
      if (raw.openOn === "FRIDAY") while (weekdayOf(day) !== "fri") day = addDays(day, 1);
      const entries = await relayPoints();
      const closed = await closuresOf(
        db,
        entries.map(e => e.code),
        today
      );
      for (const [page, size] of [
        [0, 20],
        [1, 3]
      ]) {
        const query = { ...raw, openOn: day, page, size };
        expect(await searchInDatabase(db, query)).toEqual(searchRelayPoints(entries, query, closed));
      }
    });
  });

  describe("parcels already addressed to the point when a closure is added", () => {
    let onShelf: ParcelView;
    let onTheWay: ParcelView[];
    let created: Record<string, unknown>;

    beforeAll(async () => {
      onShelf = await moveTo((await create("DZ-16-CHERAGA")).id, "AT_RELAY");
      const inTransit = await moveTo((await create("DZ-16-CHERAGA")).id, "IN_TRANSIT");
      const justCreated = await create("DZ-16-CHERAGA");
      const otherOrgs = await create("DZ-16-CHERAGA", otherOrgId);
      onTheWay = [inTransit, justCreated, otherOrgs];
      created = await close("DZ-16-CHERAGA", addDays(today, 3), addDays(today, 5), "travaux");
    });

    test("those on the shelf get the closure's days inside their holding window, with parcel.pickup_extended", async () => {
      expect(created).toMatchObject({ shelfParcelsExtended: 1, parcelsOnTheWay: 3, merchantsNotified: 2 });
      const after = await broker.call<ParcelView, object>("parcels.get", { id: onShelf.id }, { meta: meta() });
      expect(Date.parse(after.pickupDeadline!)).toBe(Date.parse(onShelf.pickupDeadline!) + 3 * DAY_MS);
      const events = await db.query<{ type: string; payload: { reason: string; data: { parcel: ParcelView } } }>(
        "SELECT type, payload FROM parcels.outbox WHERE parcel_id = $1 ORDER BY id",
        [onShelf.id]
      );
      const extended = events.at(-1)!;
      expect(extended.type).toBe("parcel.pickup_extended");
      expect(extended.payload.reason).toContain(`${addDays(today, 3)} to ${addDays(today, 5)}`);
      expect(extended.payload.data.parcel.pickupDeadline).toBe(after.pickupDeadline);
    });

    test("the merchant's own extension is still unused afterwards", async () => {
      const extended = await broker.call<ParcelView, object>("parcels.extendPickup", { id: onShelf.id, days: 2 }, { meta: meta() });
      expect(extended.pickupDeadline).not.toBeNull();
    });

    test("those on the way are listed for the operator, oldest first", async () => {
      const page = await broker.call<{ items: { id: string; organizationId: string; status: string }[]; totalElements: number }, object>(
        "parcels.listAffectedParcels",
        { code: "DZ-16-CHERAGA" }
      );
      expect(page.totalElements).toBe(3);
      expect(page.items.map(p => p.id)).toEqual(onTheWay.map(p => p.id));
      expect(page.items.map(p => p.status)).toEqual(["IN_TRANSIT", "CREATED", "CREATED"]);
      expect(await failure(() => broker.call("parcels.listAffectedParcels", { code: "DZ-99-NOWHERE" }))).toMatchObject({
        type: "RELAY_POINT_NOT_FOUND"
      });
    });

    test("each merchant gets one relay.closure_announced naming its own parcels of the point, in its events", async () => {
      await broker.call("parcels.relayOutbox", {});
      const eventsOf = async (organizationId: string) =>
        (
          await broker.call<{ items: WebhookBody[] }, object>(
            "webhooks.listEvents",
            { type: "relay.closure_announced", limit: 100 },
            { meta: meta("live", organizationId) }
          )
        ).items.filter(e => (e.data as { relay: { code: string } }).relay.code === "DZ-16-CHERAGA");
      const mine = await eventsOf(orgId);
      const theirs = await eventsOf(otherOrgId);
      expect(mine).toHaveLength(1);
      expect(theirs).toHaveLength(1);
      expect(mine[0]).toMatchObject({
        type: "relay.closure_announced",
        sandbox: false,
        sequence: 0,
        data: {
          relay: { code: "DZ-16-CHERAGA" },
          closure: { id: created.id, from: addDays(today, 3), to: addDays(today, 5), reason: "travaux" },
          parcels: [
            { id: onTheWay[0].id, trackingNumber: onTheWay[0].trackingNumber, status: "IN_TRANSIT" },
            { id: onTheWay[1].id, trackingNumber: onTheWay[1].trackingNumber, status: "CREATED" }
          ]
        }
      });
      expect(theirs[0]).toMatchObject({ data: { parcels: [{ id: onTheWay[2].id }] } });
    });
  });

  describe("closures extend only what they close (issue 26)", () => {
    const POINT = "DZ-31-ORAN-CENTRE";
    const agent = { agent: { keyId: randomUUID(), keyPrefix: "ra_test", relayCode: POINT } };
    let parcel: ParcelView;
    let arrivalDeadline: number;

    const announce = (from: string, to: string) =>
      broker.call<Record<string, unknown>, object>("parcels.relayAnnounceClosure", { from, to, reason: "congé" }, { meta: agent });
    const remove = (id: unknown) => broker.call("parcels.removeRelayClosure", { code: POINT, id });
    const deadlineOf = async (id = parcel.id) =>
      Date.parse((await broker.call<ParcelView, object>("parcels.get", { id }, { meta: meta() })).pickupDeadline!);
    const closureLines = (id = parcel.id) =>
      db.query<{ pickup_deadline: Date; actor: string }>(
        "SELECT pickup_deadline, actor FROM parcels.pickup_history WHERE parcel_id = $1 AND kind = 'closure' ORDER BY id",
        [id]
      );

    beforeAll(async () => {
      parcel = await moveTo((await create(POINT)).id, "AT_RELAY");
      arrivalDeadline = Date.parse(parcel.pickupDeadline!);
    });

    test("the audit's repro: five identical far-future closures by one agent move nothing; 2099 is refused on from", async () => {
      const refused = await failure(() => announce("2099-01-01", "2099-01-30"));
      expect(refused).toMatchObject({ type: "VALIDATION_FAILED", code: 400 });
      expect(refused.data?.details?.[0]).toMatchObject({ field: "from", message: expect.stringContaining("60 days ahead") });
      const far = [];
      for (let i = 0; i < 5; i++) far.push(await announce(addDays(today, 50), addDays(today, 59)));
      expect(far.map(c => c.shelfParcelsExtended)).toEqual([0, 0, 0, 0, 0]);
      expect(await deadlineOf()).toBe(arrivalDeadline);
      for (const closure of far) await remove(closure.id);
      expect(await deadlineOf()).toBe(arrivalDeadline);
      expect(await closureLines()).toEqual([]);
    });

    test("five identical closures inside the window move the deadline by their days once, and back when the last goes", async () => {
      const same = [];
      for (let i = 0; i < 5; i++) same.push(await announce(addDays(today, 2), addDays(today, 4)));
      expect(same.map(c => c.shelfParcelsExtended)).toEqual([1, 0, 0, 0, 0]);
      expect(await deadlineOf()).toBe(arrivalDeadline + 3 * DAY_MS);
      for (const closure of same.slice(0, 4)) await remove(closure.id);
      expect(await deadlineOf()).toBe(arrivalDeadline + 3 * DAY_MS);
      await remove(same[4].id);
      expect(await deadlineOf()).toBe(arrivalDeadline);
      // One history line per change of the deadline, with who made it.
      expect((await closureLines()).map(l => [l.pickup_deadline.getTime(), l.actor])).toEqual([
        [arrivalDeadline + 3 * DAY_MS, "relay-agent"],
        [arrivalDeadline, "backoffice"]
      ]);
    });

    test("announce/remove cycles: the closed days while it exists, the arrival deadline after each removal", async () => {
      for (let cycle = 0; cycle < 8; cycle++) {
        const closure = await announce(addDays(today, 1), addDays(today, 6));
        expect(await deadlineOf()).toBe(arrivalDeadline + 6 * DAY_MS);
        await remove(closure.id);
        expect(await deadlineOf()).toBe(arrivalDeadline);
      }
    });

    test("overlapping closures count each day once; removing one keeps the days the other closes", async () => {
      const first = await close(POINT, addDays(today, 2), addDays(today, 4));
      const second = await close(POINT, addDays(today, 3), addDays(today, 6));
      expect(await deadlineOf()).toBe(arrivalDeadline + 5 * DAY_MS);
      await remove(first.id);
      expect(await deadlineOf()).toBe(arrivalDeadline + 4 * DAY_MS);
      await remove(second.id);
      expect(await deadlineOf()).toBe(arrivalDeadline);
    });

    test("the extension from closures is at most the holding period (7 days here), however long they are", async () => {
      const long = await close(POINT, today, addDays(today, 59));
      expect(await deadlineOf()).toBe(arrivalDeadline + 7 * DAY_MS);
      await remove(long.id);
      expect(await deadlineOf()).toBe(arrivalDeadline);
    });

    test("a removal never brings the deadline before now + 1 day", async () => {
      const soon = await moveTo((await create(POINT)).id, "AT_RELAY");
      const base = Date.now() + 2 * 3_600_000;
      await broker.call("parcels.setPickupDeadline", { id: soon.id, pickupDeadline: new Date(base).toISOString() });
      const closure = await close(POINT, today, addDays(today, 2));
      expect(await deadlineOf(soon.id)).toBeGreaterThan(base + 2 * DAY_MS);
      const before = Date.now();
      await remove(closure.id);
      const after = Date.now();
      const deadline = await deadlineOf(soon.id);
      expect(deadline).toBeGreaterThanOrEqual(before + DAY_MS);
      expect(deadline).toBeLessThanOrEqual(after + DAY_MS);
      expect(await deadlineOf()).toBe(arrivalDeadline);
    });
  });

  // Both read PostgreSQL from outside the system: an in-memory PGlite has no outside.
  if (_engine === "PostgreSQL")
    test("the money invariant holds", async () => {
      const report = await checkMoneyInvariant(database.url!);
      expect(report.violations).toEqual([]);
    });

  if (_engine === "PostgreSQL")
    // No transporter between the two brokers here: no broadcast reaches the second, only its
    // change-counter check (decision 0038); the two-instance test on NATS covers the broadcast.
    test("distributed: a closure added through one parcels instance is refused by another within the directory's check", async () => {
      const second = await createSystem(systemConfig(database.env, encryptionKey), { logger: false });
      await second.start();
      try {
        const relay = "DZ-09-BOUFARIK";
        const quoteOnSecond = () => second.call("parcels.quote", { weightG: 800, destinationRelayCode: relay }, { meta: meta() });
        await expect(quoteOnSecond()).resolves.toBeDefined();
        await close(relay, today, addDays(today, 3));
        const refused = await waitFor(
          () =>
            quoteOnSecond().then(
              () => null,
              (err: Failure) => err
            ),
          err => err !== null
        );
        expect(refused).toMatchObject({ type: "RELAY_CLOSED" });
      } finally {
        await second.stop();
      }
    }, 60_000);
});
