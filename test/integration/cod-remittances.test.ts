import { randomUUID } from "node:crypto";
import type { Logger } from "moleculer";
import type { Caller } from "../../lib/contract";
import type { Database } from "../../lib/db/database";
import { errorCodeOf } from "../../lib/errors";
import { migrateSchema } from "../../lib/db/migrate";
import { openPostgres } from "../../lib/db/postgres";
import { createRemittance, repeatCodCredits } from "../../services/parcels/remittance";
import { createTestDatabase } from "../helpers/postgres";
import { describeWithServers } from "../helpers/servers";

/**
 * Remittances against the real PostgreSQL server with a pool, so that two remittances of one
 * organisation really run at the same time: the parcels split between them, or one gets none,
 * never both — and the database itself refuses a parcel in two remittances.
 */

const quiet = { info: () => undefined, warn: () => undefined } as unknown as Logger;

/** A wallet stand-in: records the credits asked, or fails while `down`. */
function fakeWallet() {
  const credits: Array<{ remittanceId: string; amountCentimes: number }> = [];
  const wallet = {
    down: false,
    credits,
    caller: {
      call: async (action: string, params: unknown) => {
        if (wallet.down) throw new Error("wallet unavailable");
        expect(action).toBe("wallet.creditCodRemittance");
        credits.push(params as { remittanceId: string; amountCentimes: number });
        return { creditedCentimes: 0, balanceCentimes: 0 };
      }
    } as unknown as Caller
  };
  return wallet;
}

async function collectedParcels(db: Database, org: string, amounts: number[], mode = "live"): Promise<string[]> {
  const ids: string[] = [];
  for (const amount of amounts) {
    const id = randomUUID();
    await db.query(
      `INSERT INTO parcels.parcels (id, organization_id, mode, tracking_number, status, destination_relay_code,
         recipient_name_enc, recipient_phone_enc, weight_g, price_centimes, cod_amount_centimes, cod_status)
       VALUES ($1, $2, $3, $4, 'DELIVERED', 'DZ-COD-TEST', 'x', 'x', 100, 35000, $5, 'COLLECTED')`,
      [id, org, mode, `RP${id.replace(/-/g, "").slice(0, 9).toUpperCase()}DZ`, amount]
    );
    ids.push(id);
  }
  return ids;
}

async function remittedRows(db: Database, org: string) {
  return db.query<{ parcel_id: string; remittance_id: string; amount_centimes: string }>(
    `SELECT rp.parcel_id, rp.remittance_id, rp.amount_centimes::text FROM parcels.cod_remittance_parcels rp
       JOIN parcels.cod_remittances r ON r.id = rp.remittance_id WHERE r.organization_id = $1`,
    [org]
  );
}

describeWithServers(["postgres"], "COD remittances on the PostgreSQL server", () => {
  let db: Database;
  let drop: () => Promise<void>;

  beforeAll(async () => {
    const database = await createTestDatabase();
    drop = database.drop;
    db = openPostgres(database.url, 8);
    await migrateSchema(db, "parcels");
    await db.query("INSERT INTO parcels.relay_points (code, name, city) VALUES ('DZ-COD-TEST', 'Test', 'Alger')");
  });
  afterAll(async () => {
    await db.close();
    await drop();
  });

  test("two remittances of everything at once: the parcels split or one gets none, never both; totals to the centime", async () => {
    for (let round = 0; round < 10; round++) {
      const org = randomUUID();
      const amounts = Array.from({ length: 30 }, (_, i) => 150_001 + i * 137);
      const ids = await collectedParcels(db, org, amounts);
      const wallet = fakeWallet();
      const deps = { db, logger: quiet, caller: wallet.caller };
      const request = { organizationId: org, mode: "live" as const, parcelIds: null, reference: `VIR-${round}`, paidOn: "2026-03-14" };
      const outcomes = await Promise.allSettled([createRemittance(deps, request), createRemittance(deps, request)]);
      const made = outcomes.flatMap(o => (o.status === "fulfilled" ? [o.value] : []));
      for (const o of outcomes) if (o.status === "rejected") expect(errorCodeOf(o.reason)).toBe("NOTHING_TO_REMIT");
      expect(made.length).toBeGreaterThanOrEqual(1);

      const rows = await remittedRows(db, org);
      expect(rows.map(r => r.parcel_id).sort()).toEqual([...ids].sort());
      expect(new Set(rows.map(r => r.parcel_id)).size).toBe(rows.length);
      expect(made.reduce((sum, r) => sum + r.totalCentimes, 0)).toBe(amounts.reduce((a, b) => a + b, 0));
      expect(made.reduce((sum, r) => sum + r.parcelCount, 0)).toBe(ids.length);
      // Transfer is the default payout: nothing is credited.
      expect(made.every(r => r.payout === "TRANSFER")).toBe(true);
      expect(wallet.credits).toEqual([]);
    }
  });

  test("two remittances of overlapping lists at once: one is refused, naming the parcels the other took", async () => {
    const org = randomUUID();
    const ids = await collectedParcels(
      db,
      org,
      Array.from({ length: 10 }, () => 99_999)
    );
    const deps = { db, logger: quiet, caller: fakeWallet().caller };
    const ask = (parcelIds: string[]) =>
      createRemittance(deps, { organizationId: org, mode: "live", parcelIds, reference: "VIR-X", paidOn: null });
    const outcomes = await Promise.allSettled([ask(ids.slice(0, 6)), ask(ids.slice(4))]);
    expect(outcomes.map(o => o.status).sort()).toEqual(["fulfilled", "rejected"]);
    const refused = outcomes.find(o => o.status === "rejected") as PromiseRejectedResult;
    expect(errorCodeOf(refused.reason)).toBe("COD_NOT_REMITTABLE");
    expect(refused.reason.data.details.map((d: { message: string }) => d.message)).toEqual([
      "cannot be remitted: its COD is REMITTED",
      "cannot be remitted: its COD is REMITTED"
    ]);
    const rows = await remittedRows(db, org);
    expect(new Set(rows.map(r => r.parcel_id)).size).toBe(rows.length);
  });

  test("the database refuses a parcel in a second remittance, whatever the code does", async () => {
    const org = randomUUID();
    const [id] = await collectedParcels(db, org, [5000]);
    const first = await createRemittance(
      { db, logger: quiet, caller: fakeWallet().caller },
      { organizationId: org, mode: "live", parcelIds: [id], reference: "VIR-1", paidOn: null }
    );
    const second = randomUUID();
    await db.query(
      `INSERT INTO parcels.cod_remittances (id, organization_id, mode, reference, paid_on, payout, parcel_count, total_centimes)
       VALUES ($1, $2, 'live', 'VIR-2', '2026-03-14', 'TRANSFER', 1, 5000)`,
      [second, org]
    );
    await expect(
      db.query("INSERT INTO parcels.cod_remittance_parcels (parcel_id, remittance_id, amount_centimes) VALUES ($1, $2, 5000)", [id, second])
    ).rejects.toMatchObject({ code: "23505" });
    expect((await remittedRows(db, org)).map(r => r.remittance_id)).toEqual([first.id]);
  });

  test("another organisation's or mode's parcels are never taken; a WALLET remittance is credited once, later if the wallet is down", async () => {
    const org = randomUUID();
    const live = await collectedParcels(db, org, [1234, 5678]);
    const sandbox = await collectedParcels(db, org, [1111], "sandbox");
    const stranger = await collectedParcels(db, randomUUID(), [2222]);
    await db.query("INSERT INTO parcels.cod_settings (organization_id, payout) VALUES ($1, 'WALLET')", [org]);
    const wallet = fakeWallet();
    wallet.down = true;
    const deps = { db, logger: quiet, caller: wallet.caller };

    await expect(
      createRemittance(deps, {
        organizationId: org,
        mode: "live",
        parcelIds: [live[0], stranger[0], sandbox[0]],
        reference: "R",
        paidOn: null
      })
    ).rejects.toMatchObject({ type: "COD_NOT_REMITTABLE" });
    const made = await createRemittance(deps, { organizationId: org, mode: "live", parcelIds: null, reference: "VIR-W", paidOn: null });
    expect({ payout: made.payout, total: made.totalCentimes, count: made.parcelCount }).toEqual({
      payout: "WALLET",
      total: 6912,
      count: 2
    });
    expect(wallet.credits).toEqual([]);

    wallet.down = false;
    expect(await repeatCodCredits(deps)).toBeGreaterThanOrEqual(1);
    expect(wallet.credits.filter(c => c.remittanceId === made.id)).toEqual([expect.objectContaining({ amountCentimes: 6912 })]);
    await repeatCodCredits(deps);
    expect(wallet.credits.filter(c => c.remittanceId === made.id)).toHaveLength(1);

    // Each remitted parcel has its cod.remitted event, numbered after its history.
    const events = await db.query<{ type: string; payload: { sequence: number; data: { remittance: { id: string } } } }>(
      "SELECT type, payload FROM parcels.outbox WHERE parcel_id = ANY($1::uuid[]) ORDER BY id",
      [live]
    );
    expect(events.map(e => [e.type, e.payload.sequence, e.payload.data.remittance.id])).toEqual([
      ["cod.remitted", 1, made.id],
      ["cod.remitted", 1, made.id]
    ]);
  });
});
