import { randomBytes, randomUUID } from "node:crypto";
import { ServiceBroker } from "moleculer";
import { loadConfig } from "../../lib/config";
import { acquireDatabase, releaseDatabase } from "../../lib/db/connection";
import type { Database } from "../../lib/db/database";
import { createSystem } from "../../bin/system";
import { insertPendingGroup } from "../../services/parcels/create-groups.store";
import * as store from "../../services/parcels/parcels.store";
import { settlePendingAtStart } from "../../services/parcels/sweeper";
import { createParcel } from "../../services/parcels/create-parcel";
import { createGroups } from "../../services/parcels/create-groups";
import type { Caller } from "../../lib/contract";
import { requireSecret } from "../../lib/secrets";

/**
 * The sweeper's decisions, one by one, on the embedded engine: what a crash can leave behind and
 * how each case is settled (DESIGN §3: finish or compensate).
 */
describe("create-parcel saga: the sweeper settles what a crash left", () => {
  const config = loadConfig({
    DATA_DIR: `memory://${randomUUID()}`,
    SERVICES: "auth,wallet,parcels",
    BACKOFFICE_TOKEN: "t",
    ENCRYPTION_KEY: randomBytes(32).toString("hex"),
    LABEL_URL_SECRET: "l",
    SWEEP_INTERVAL_MS: "3600000"
  });
  let broker: ServiceBroker;
  let db: Database;
  let orgId: string;

  beforeAll(async () => {
    broker = await createSystem(config, { logger: false });
    await broker.start();
    db = await acquireDatabase(config);
    orgId = (await broker.call<{ id: string }, object>("auth.createOrganization", { name: "Sweep SARL" })).id;
    await broker.call("wallet.topUp", { organizationId: orgId, mode: "live", amountDzd: 1000 });
  });

  afterAll(async () => {
    await releaseDatabase(config);
    await broker.stop();
  });

  async function pendingParcel(): Promise<store.ParcelRecord> {
    const [inserted] = await insertPendingGroup(db, [
      {
        id: randomUUID(),
        organizationId: orgId,
        mode: "live",
        trackingNumber: `RP${String(Math.floor(Math.random() * 1e9)).padStart(9, "0")}DZ`,
        destinationRelayCode: "DZ-16-ALGER-CENTRE",
        recipientNameEnc: "v1:x",
        recipientPhoneEnc: "v1:y",
        weightG: 500,
        lengthCm: null,
        widthCm: null,
        heightCm: null,
        declaredValueCentimes: null,
        codAmountCentimes: null,
        priceCentimes: 35000,
        idempotencyKey: null,
        requestFingerprint: null
      }
    ]);
    if (!inserted.ok || !inserted.value) throw new Error("the pending row was not inserted");
    return inserted.value;
  }
  const balance = async () =>
    (await broker.call<{ balanceDzd: number }, object>("wallet.get", { organizationId: orgId, mode: "live" })).balanceDzd;
  const sweep = () => broker.call<Record<string, number>, object>("parcels.sweep", { olderThanSeconds: 0 });
  const statusOf = async (id: string) =>
    (await db.query<{ status: string }>("SELECT status FROM parcels.parcels WHERE id = $1", [id]))[0]?.status ?? null;

  test("debited but never marked CREATED (crash after the debit): finished, with its event", async () => {
    const row = await pendingParcel();
    await broker.call("wallet.debit", { parcelId: row.id, organizationId: orgId, mode: "live", amountCentimes: 35000 });
    const before = await balance();
    expect(await sweep()).toMatchObject({ finished: 1, discarded: 0 });
    expect(await statusOf(row.id)).toBe("CREATED");
    expect(await balance()).toBe(before);
    const events = await db.query<{ type: string }>("SELECT type FROM parcels.outbox WHERE parcel_id = $1", [row.id]);
    expect(events.map(e => e.type)).toEqual(["parcel.created"]);
  });

  test("never debited (crash before the debit): discarded, and a late debit is refused", async () => {
    const row = await pendingParcel();
    const before = await balance();
    expect(await sweep()).toMatchObject({ finished: 0, discarded: 1 });
    expect(await statusOf(row.id)).toBeNull();
    await expect(
      broker.call("wallet.debit", { parcelId: row.id, organizationId: orgId, mode: "live", amountCentimes: 35000 })
    ).rejects.toMatchObject({ type: "CONFLICT" });
    expect(await balance()).toBe(before);
  });

  test("a debit and a refund at once for one parcel: the money ends where it started", async () => {
    const row = await pendingParcel();
    const before = await balance();
    const movement = { parcelId: row.id, organizationId: orgId, mode: "live" };
    await Promise.allSettled([
      broker.call("wallet.debit", { ...movement, amountCentimes: 35000 }),
      broker.call("wallet.refund", { ...movement, reason: "compensation" })
    ]);
    await sweep();
    expect(await statusOf(row.id)).toBeNull();
    expect(await balance()).toBe(before);
  });

  test("a cancel whose refund was not acknowledged is refunded by the sweeper, once", async () => {
    const row = await pendingParcel();
    await broker.call("wallet.debit", { parcelId: row.id, organizationId: orgId, mode: "live", amountCentimes: 35000 });
    await sweep();
    const afterDebit = await balance();
    await db.query("UPDATE parcels.parcels SET status = 'CANCELLED', refund_pending = true WHERE id = $1", [row.id]);
    expect(await sweep()).toMatchObject({ refunded: 1 });
    expect(await sweep()).toMatchObject({ refunded: 0 });
    expect(await balance()).toBe(afterDebit + 350);
  });

  describe("a create refunding its debit and the sweeper finishing it never both win (issue 26)", () => {
    const ageOf = (id: string, column: "created_at" | "compensating_since", seconds: number) =>
      db.query(`UPDATE parcels.parcels SET ${column} = now() - make_interval(secs => $2::int) WHERE id = $1`, [id, seconds]);
    const sweepOlderThan = (olderThanSeconds: number) => broker.call<Record<string, number>, object>("parcels.sweep", { olderThanSeconds });

    beforeEach(() => broker.call("wallet.topUp", { organizationId: orgId, mode: "live", amountDzd: 1000 }));

    test("a row claimed for compensation is left to its create; a claim older than the age limit is settled", async () => {
      const row = await pendingParcel();
      await broker.call("wallet.debit", { parcelId: row.id, organizationId: orgId, mode: "live", amountCentimes: 35000 });
      expect(await store.claimForCompensation(db, row.id)).toBe(true);
      await ageOf(row.id, "created_at", 3600);
      expect(await sweepOlderThan(60)).toMatchObject({ finished: 0, discarded: 0 });
      expect(await statusOf(row.id)).toBe("PENDING");
      // The create that claimed it crashed before refunding: the debit landed, so the parcel is finished.
      await ageOf(row.id, "compensating_since", 3600);
      expect(await sweepOlderThan(60)).toMatchObject({ finished: 1 });
      expect(await statusOf(row.id)).toBe("CREATED");
    });

    test("a finished row cannot be claimed any more", async () => {
      const row = await pendingParcel();
      await broker.call("wallet.debit", { parcelId: row.id, organizationId: orgId, mode: "live", amountCentimes: 35000 });
      await sweep();
      expect(await store.claimForCompensation(db, row.id)).toBe(false);
    });

    test("the debit's answer is lost after the sweeper finished the parcel: the create answers that parcel and keeps the money", async () => {
      // The wallet debits, then the sweeper runs (the answer was held past its age limit), then the answer is lost.
      const caller: Caller = {
        call: async <T, P>(action: string, params?: P): Promise<T> => {
          if (action !== "wallet.debitBatch") return broker.call<T, P>(action, params as P);
          await broker.call(action, params);
          await sweep();
          throw new Error("Request timed out");
        }
      };
      const before = await balance();
      const outcome = await createParcel(
        {
          db,
          encryptionKey: requireSecret(config, "encryptionKey"),
          logger: broker.getLogger("test"),
          caller,
          groups: createGroups(() => db, config.groupCommit, caller),
          closureNoticeDays: 0
        },
        { organizationId: orgId, mode: "live" },
        {
          recipientName: "Amina Benali",
          recipientPhone: "0661 22 33 07",
          weightG: 500,
          destinationRelayCode: "DZ-16-ALGER-CENTRE",
          lengthCm: null,
          widthCm: null,
          heightCm: null,
          declaredValueDzd: null,
          codAmountDzd: null
        },
        null
      );
      expect(outcome.parcel.status).toBe("CREATED");
      expect(await statusOf(outcome.parcel.id)).toBe("CREATED");
      expect(await balance()).toBe(before - outcome.parcel.priceCentimes / 100);
    });
  });

  describe("at start, before the first create is taken", () => {
    test("embedded: every PENDING row is an orphan, settled before the restarted service answers, however many", async () => {
      await broker.call("wallet.topUp", { organizationId: orgId, mode: "live", amountDzd: 350 });
      const debited = await pendingParcel();
      await broker.call("wallet.debit", { parcelId: debited.id, organizationId: orgId, mode: "live", amountCentimes: 35000 });
      const never = await Promise.all(Array.from({ length: 130 }, () => pendingParcel()));
      const before = await balance();
      await broker.stop();
      broker = await createSystem(config, { logger: false });
      await broker.start();
      // The restarted system's first answers already see it: no sweep was asked for, and the interval is an hour.
      expect(await statusOf(debited.id)).toBe("CREATED");
      for (const row of never) expect(await statusOf(row.id)).toBeNull();
      expect(await db.query("SELECT 1 FROM parcels.parcels WHERE status = 'PENDING'")).toEqual([]);
      expect(await balance()).toBe(before);
    });

    test("distributed: only rows older than the create's time limit; a younger one may be a sibling's create in flight", async () => {
      const old = await pendingParcel();
      const young = await pendingParcel();
      await db.query("UPDATE parcels.parcels SET created_at = now() - interval '60 seconds' WHERE id = $1", [old.id]);
      const deps = { db, logger: broker.getLogger("test"), caller: broker };
      expect(await settlePendingAtStart(deps, 30)).toEqual({ finished: 0, discarded: 1, deferred: 0 });
      expect(await statusOf(old.id)).toBeNull();
      expect(await statusOf(young.id)).toBe("PENDING");
      expect(await settlePendingAtStart(deps, 0)).toEqual({ finished: 0, discarded: 1, deferred: 0 });
    });
  });

  test("dispatched events older than a week are purged, others kept", async () => {
    const row = await pendingParcel();
    await broker.call("wallet.debit", { parcelId: row.id, organizationId: orgId, mode: "live", amountCentimes: 35000 });
    await sweep();
    await db.query("UPDATE parcels.outbox SET dispatched_at = now() - interval '8 days' WHERE parcel_id = $1", [row.id]);
    const result = await sweep();
    expect(result.purgedEvents).toBe(1);
    expect(await db.query("SELECT 1 FROM parcels.outbox WHERE parcel_id = $1", [row.id])).toEqual([]);
  });
});
