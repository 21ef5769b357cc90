import { randomUUID } from "node:crypto";
import type { Database } from "../../lib/db/database";
import { decryptField, encryptField } from "../../lib/crypto";
import { eraseOldSms, pruneErasedSms } from "../../services/notifications/retention.store";
import { compactHistory } from "../../services/parcels/history-compaction.store";
import { eventCount } from "../../services/parcels/parcels.store";
import { erasePersonalData } from "../../services/parcels/retention.store";
import { pruneExpiredKeys } from "../../services/parcels/relay/relay-idempotency.store";
import { Merchant, PARCEL } from "../e2e/merchant-helpers";
import { relayHelpers } from "../e2e/relay-contract";
import { EngineDatabase, inProcessSystem } from "../helpers/in-process-system";
import { checkMoneyInvariant } from "../helpers/money-invariant";
import { createTestDatabase } from "../helpers/postgres";
import { describeWithServers } from "../helpers/servers";

/**
 * Issue 48, retention (decision 0061), on each database engine: past PII_RETENTION_DAYS after a
 * parcel's final status, its personal data is gone from every table that held it (each is read
 * here), once however often the pass runs; what is recent or still under way is kept; the money
 * invariant holds; the partner API and the public tracking answer.
 */

const DAYS = 180;
const NAME = "Yasmine Bouzid";
const PHONE_DIGITS = "555 12 34 56";

function onEngine(databaseEnv: () => Promise<EngineDatabase>): void {
  const { broker, system, config } = inProcessSystem(databaseEnv, async (_running, url) => {
    if (!url) return;
    expect((await checkMoneyInvariant(url)).violations).toEqual([]);
  });
  const h = relayHelpers(system);
  const m = h.m;
  const dbOf = (service: string) => (broker().getLocalService(service) as unknown as { db: Database }).db;
  const key = () => config().secrets.encryptionKey!;
  let merchant: Merchant;
  const create = async () => {
    const res = await merchant.live("POST", "/parcels", { ...PARCEL, recipientName: NAME, recipientPhone: `+213 ${PHONE_DIGITS}` });
    expect(res.status).toBe(201);
    return res.body as { id: string; trackingNumber: string };
  };
  const age = async (parcelId: string) => {
    await dbOf("parcels").query("UPDATE parcels.parcels SET updated_at = updated_at - make_interval(days => $2::int) WHERE id = $1", [
      parcelId,
      DAYS + 1
    ]);
    await dbOf("notifications").query(
      "UPDATE notifications.sms_messages SET created_at = created_at - make_interval(days => $2::int) WHERE parcel_id = $1",
      [parcelId, DAYS + 1]
    );
  };
  /** Every personal field each table holds of a parcel, decrypted. */
  const personal = async (parcelId: string) => {
    const [parcel] = await dbOf("parcels").query<{
      recipient_name_enc: string;
      recipient_phone_enc: string;
      pickup_pin_enc: string | null;
    }>("SELECT recipient_name_enc, recipient_phone_enc, pickup_pin_enc FROM parcels.parcels WHERE id = $1", [parcelId]);
    const pins = await dbOf("parcels").query<{ pin_enc: string }>("SELECT pin_enc FROM parcels.replaced_pickup_pins WHERE parcel_id = $1", [
      parcelId
    ]);
    const claims = await dbOf("parcels").query<{ evidence: unknown }>("SELECT evidence FROM parcels.claims WHERE parcel_id = $1", [
      parcelId
    ]);
    const sms = await dbOf("notifications").query<{
      phone_enc: string;
      body: string;
      body_enc: string | null;
      phone_digest: string | null;
    }>("SELECT phone_enc, body, body_enc, phone_digest FROM notifications.sms_messages WHERE parcel_id = $1", [parcelId]);
    return {
      name: decryptField(parcel.recipient_name_enc, key()),
      phone: decryptField(parcel.recipient_phone_enc, key()),
      pin: parcel.pickup_pin_enc && decryptField(parcel.pickup_pin_enc, key()),
      replacedPins: pins.length,
      claimNotes: JSON.stringify(claims.map(c => c.evidence)).match(/"reason":"[^"]+"/g) ?? [],
      sms: sms.map(s => ({
        phone: decryptField(s.phone_enc, key()),
        body: s.body_enc ? decryptField(s.body_enc, key()) : s.body,
        digest: s.phone_digest
      }))
    };
  };
  const erase = async () => ({
    parcels: await erasePersonalData(dbOf("parcels"), key(), DAYS, 1_000),
    sms: await eraseOldSms(dbOf("notifications"), key(), DAYS, 1_000)
  });

  beforeAll(async () => {
    merchant = await m.create("Retention SARL", 100_000);
  });

  test("past the period, every table forgets the recipient; recent or open parcels keep theirs; a second pass changes nothing", async () => {
    // Delivered, after its pick-up SMS (the PIN, the number, the text) and a replaced PIN.
    const code = await h.relayPoint();
    const agent = await h.agent(code);
    const delivered = await h.inTransit(merchant, code, { recipientName: NAME, recipientPhone: `+213 ${PHONE_DIGITS}` });
    expect((await agent("POST", "/arrivals", { trackingNumber: delivered.trackingNumber })).status).toBe(200);
    const pin = await system().sms.pinOf(delivered.trackingNumber);
    await dbOf("parcels").query("INSERT INTO parcels.replaced_pickup_pins (parcel_id, pin_enc) VALUES ($1, $2)", [
      delivered.id,
      encryptField("123456", key())
    ]);
    const before = await personal(delivered.id);
    expect((await agent("POST", "/handovers", { trackingNumber: delivered.trackingNumber, pin, codCollectedDzd: 0 })).status).toBe(200);
    // Damaged, with a claim whose evidence carries the notes of its moves.
    const damaged = await create();
    await m.move(damaged.id, "READY_FOR_PICKUP", "PICKED_UP", "DAMAGED");
    const claim = await merchant.live("POST", `/parcels/${damaged.id}/claims`, {
      type: "DAMAGED",
      description: "Carton écrasé",
      amountClaimedDzd: 100
    });
    expect(claim.status).toBe(201);
    // Still under way however old, and final but recent: both kept.
    const underWay = await create();
    await m.move(underWay.id, "READY_FOR_PICKUP");
    const recent = await create();
    expect((await merchant.live("POST", `/parcels/${recent.id}/cancel`)).status).toBe(200);

    expect(before).toMatchObject({ name: NAME, pin: expect.stringMatching(/^\d{6}$/), replacedPins: 1 });
    expect(before.sms).toEqual([expect.objectContaining({ body: expect.stringContaining(delivered.trackingNumber) })]);
    expect((await personal(damaged.id)).claimNotes.length).toBeGreaterThan(0);
    const notes = async (parcelId: string) =>
      (
        await dbOf("parcels").query<{ reason: string | null }>("SELECT reason FROM parcels.status_history WHERE parcel_id = $1", [parcelId])
      ).filter(r => r.reason !== null).length;
    expect(await notes(damaged.id)).toBeGreaterThan(0);
    for (const parcel of [delivered, damaged, underWay]) await age(parcel.id);

    expect(await erase()).toEqual({ parcels: 2, sms: 1 });
    for (const parcel of [delivered, damaged]) {
      const after = await personal(parcel.id);
      expect(after).toEqual({
        name: "",
        phone: "",
        pin: null,
        replacedPins: 0,
        claimNotes: [],
        sms: after.sms.map(() => ({ phone: "", body: "", digest: null }))
      });
    }
    expect((await personal(delivered.id)).sms).toHaveLength(1);
    expect((await notes(damaged.id)) + (await notes(delivered.id))).toBe(0);
    expect(await notes(underWay.id)).toBeGreaterThan(0);
    for (const parcel of [underWay, recent])
      expect(await personal(parcel.id)).toMatchObject({ name: NAME, phone: expect.stringContaining("213") });
    expect(await erase()).toEqual({ parcels: 0, sms: 0 });

    // The partner API and the tracking page still answer: statuses, dates, amounts, evidence's facts.
    const read = await merchant.live("GET", `/parcels/${delivered.id}`);
    expect(read.body).toMatchObject({ status: "DELIVERED", trackingNumber: delivered.trackingNumber, pricePaidDzd: expect.any(Number) });
    const claimRead = await merchant.live("GET", `/claims/${claim.body.id}`);
    expect(claimRead.status).toBe(200);
    expect(claimRead.body.evidence.statusHistory.map((move: { status: string; reason: unknown }) => [move.status, move.reason])).toEqual([
      ["CREATED", null],
      ["READY_FOR_PICKUP", null],
      ["PICKED_UP", null],
      ["DAMAGED", null]
    ]);
    const events = await merchant.live("GET", `/parcels/${damaged.id}/events`);
    expect(events.body.items.map((e: { status: string; reason: unknown }) => e.reason)).toEqual([null, null, null, null]);
    const tracking = await fetch(`${system().baseUrl}/api/public/v1/tracking/${delivered.trackingNumber}`);
    expect(tracking.status).toBe(200);
    expect(await tracking.text()).not.toContain("Yasmine");
  }, 60_000);

  test("past HISTORY_COMPACT_DAYS an ended parcel's history leaves the table and reads the same; erased SMS rows go after SMS_LOG_RETENTION_DAYS", async () => {
    const HISTORY_DAYS = 365;
    const parcels = dbOf("parcels");
    const sms = dbOf("notifications");
    const olderBy = async (parcelId: string, days: number) => {
      await parcels.query("UPDATE parcels.parcels SET updated_at = now() - make_interval(days => $2::int) WHERE id = $1", [parcelId, days]);
      await sms.query("UPDATE notifications.sms_messages SET created_at = now() - make_interval(days => $2::int) WHERE parcel_id = $1", [
        parcelId,
        days
      ]);
    };
    const rowsOf = async (parcelId: string) =>
      (await parcels.query<{ n: number }>("SELECT count(*)::int AS n FROM parcels.status_history WHERE parcel_id = $1", [parcelId]))[0].n;
    const smsOf = async (parcelId: string) =>
      (await sms.query<{ n: number }>("SELECT count(*)::int AS n FROM notifications.sms_messages WHERE parcel_id = $1", [parcelId]))[0].n;
    const eventsOf = async (parcelId: string) => (await merchant.live("GET", `/parcels/${parcelId}/events`)).body.items;

    // Two ended parcels with their pick-up SMS: one a year and a day ago, one only past the personal-data period.
    const code = await h.relayPoint();
    const agent = await h.agent(code);
    const ended = async () => {
      const parcel = await h.inTransit(merchant, code);
      expect((await agent("POST", "/arrivals", { trackingNumber: parcel.trackingNumber })).status).toBe(200);
      await m.move(parcel.id, "DAMAGED");
      return parcel;
    };
    const old = await ended();
    const younger = await ended();
    await olderBy(old.id, HISTORY_DAYS + 1);
    await olderBy(younger.id, DAYS + 1);
    while ((await erase()).parcels > 0);
    const before = await eventsOf(old.id);
    const sequenceBefore = await eventCount(parcels, old.id);
    expect(before.map((e: { status: string }) => e.status)).toEqual([
      "CREATED",
      "READY_FOR_PICKUP",
      "PICKED_UP",
      "IN_TRANSIT",
      "AT_RELAY",
      "DAMAGED"
    ]);
    expect(await rowsOf(old.id)).toBe(6);

    while ((await compactHistory(parcels, HISTORY_DAYS, 1_000)) > 0);
    expect(await rowsOf(old.id)).toBe(0);
    expect(await rowsOf(younger.id)).toBeGreaterThan(0);
    // The events API, the events' sequence and the claims' evidence read the compacted history as they read the rows.
    expect(await eventsOf(old.id)).toEqual(before);
    expect(await eventCount(parcels, old.id)).toBe(sequenceBefore);
    const claim = await merchant.live("POST", `/parcels/${old.id}/claims`, {
      type: "DAMAGED",
      description: "Carton écrasé",
      amountClaimedDzd: 100
    });
    // A DAMAGED parcel may be claimed at any age: its evidence is the compacted history.
    expect(claim.status).toBe(201);
    expect(claim.body.evidence.statusHistory.map((move: { status: string }) => move.status)).toEqual(
      before.map((e: { status: string }) => e.status)
    );
    expect(await compactHistory(parcels, HISTORY_DAYS, 1_000)).toBe(0);

    expect(await smsOf(old.id)).toBeGreaterThan(0);
    while ((await pruneErasedSms(sms, HISTORY_DAYS, 1_000)) > 0);
    expect(await smsOf(old.id)).toBe(0);
    expect(await smsOf(younger.id)).toBeGreaterThan(0);
    expect(await pruneErasedSms(sms, HISTORY_DAYS, 1_000)).toBe(0);
  }, 60_000);

  test("the relay API's idempotency keys past their 24 hours are pruned, the others kept", async () => {
    const parcels = dbOf("parcels");
    const code = await h.relayPoint();
    await parcels.query(
      `INSERT INTO parcels.relay_idempotency (relay_code, idempotency_key, operation, request_fingerprint, created_at)
       VALUES ($1, 'old', 'arrival', 'f', now() - interval '25 hours'), ($1, 'fresh', 'arrival', 'f', now() - interval '23 hours')`,
      [code]
    );
    expect(await pruneExpiredKeys(parcels, 24, 1_000)).toBeGreaterThanOrEqual(1);
    const left = await parcels.query<{ idempotency_key: string }>(
      "SELECT idempotency_key FROM parcels.relay_idempotency WHERE relay_code = $1",
      [code]
    );
    expect(left.map(r => r.idempotency_key)).toEqual(["fresh"]);
    expect(await pruneExpiredKeys(parcels, 24, 1_000)).toBe(0);
  });
}

describe("personal data retention on PGlite", () =>
  onEngine(async () => ({ env: { DATA_DIR: `memory://retention-${randomUUID()}` }, drop: async () => undefined })));

describeWithServers(["postgres"], "personal data retention on the PostgreSQL server", () =>
  onEngine(async () => {
    const database = await createTestDatabase();
    return { env: { DATABASE_URL: database.url, DATABASE_POOL_SIZE: "8" }, drop: database.drop, url: database.url };
  })
);
