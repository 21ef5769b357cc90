import { randomUUID } from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import { Client } from "pg";
import type { Queryable } from "../../lib/db/database";
import { migrateSchema, migrationFiles } from "../../lib/db/migrate";
import { projectRoot } from "../../lib/project-root";
import { openPostgres } from "../../lib/db/postgres";
import { insertPendingGroup } from "../../services/parcels/create-groups.store";
import type { NewParcel } from "../../services/parcels/parcels.store";
import { waitFor } from "../helpers/parcel-events";
import { createTestDatabase, migrateUpTo } from "../helpers/postgres";
import { describeWithServers } from "../helpers/servers";

/**
 * Issue 26, item 1 (docs/decisions/0028): two create groups whose rows belong to the same two
 * organisations in opposite orders, written at the same moment on PostgreSQL. The row trigger of
 * migration 005 locked one counter shard per row, in row order, and such groups deadlocked; the
 * statement trigger of 015 takes one lock per (organisation, mode, status) in key order.
 *
 * The moment is set up, not raced: a test-only row trigger (installed in this suite's throw-away
 * database) holds each group after its first row on an advisory lock the test owns, the test waits
 * until both groups wait there, then lets them go. Both sessions seed random() alike so that they
 * draw the same counter shards: on the old trigger, the first two draws are equal (the seed is
 * searched for), so each group holds what the other one wants next.
 */

const GATE = 2626;
const RELAY = "DZ-CNT-DEADLOCK";

const queryableOf = (client: Client): Queryable => ({
  query: async <R extends object>(sql: string, params?: unknown[]) => (await client.query(sql, params)).rows as R[],
  exec: async (sql: string) => {
    await client.query(sql);
  }
});

function pendingParcel(organizationId: string): NewParcel {
  const id = randomUUID();
  return {
    id,
    organizationId,
    mode: "live",
    trackingNumber: `RP${id.replace(/-/g, "").slice(0, 9).toUpperCase()}DZ`,
    destinationRelayCode: RELAY,
    recipientNameEnc: "x",
    recipientPhoneEnc: "x",
    weightG: 500,
    lengthCm: null,
    widthCm: null,
    heightCm: null,
    declaredValueCentimes: null,
    codAmountCentimes: null,
    priceCentimes: 45_000,
    idempotencyKey: null,
    requestFingerprint: null
  };
}

/** A seed after which a session's first two draws of floor(random() * 16) are equal. */
async function seedWithEqualDraws(client: Client): Promise<number> {
  for (let i = 1; ; i++) {
    const seed = i / 1000;
    await client.query("SELECT setseed($1)", [seed]);
    const { rows } = await client.query<{ a: number; b: number }>("SELECT floor(random() * 16)::int AS a, floor(random() * 16)::int AS b");
    if (rows[0].a === rows[0].b) return seed;
  }
}

async function connect(url: string): Promise<Client> {
  const client = new Client({ connectionString: url });
  await client.connect();
  return client;
}

/** Runs the two crossing groups on a database whose parcels schema is in place; the error codes they met. */
async function twoCrossingGroups(url: string): Promise<{ codes: string[]; countsByOrg: Record<string, string> }> {
  const [gate, first, second] = await Promise.all([connect(url), connect(url), connect(url)]);
  try {
    await gate.query(`INSERT INTO parcels.relay_points (code, name, city) VALUES ('${RELAY}', 'Test', 'Alger') ON CONFLICT DO NOTHING`);
    await gate.query(`
      CREATE OR REPLACE FUNCTION parcels.test_hold_after_first_row() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN
        IF current_setting('test.held', true) IS DISTINCT FROM 'yes' THEN
          PERFORM set_config('test.held', 'yes', true);
          PERFORM pg_advisory_xact_lock_shared(${GATE});
        END IF;
        RETURN NULL;
      END $$`);
    await gate.query(`CREATE TRIGGER parcels_zz_test_hold AFTER INSERT ON parcels.parcels
      FOR EACH ROW EXECUTE FUNCTION parcels.test_hold_after_first_row()`);
    const seed = await seedWithEqualDraws(gate);
    await gate.query("SELECT pg_advisory_lock($1)", [GATE]);

    const [orgA, orgB] = [randomUUID(), randomUUID()];
    const group = async (client: Client, orgs: string[]) => {
      await client.query("SELECT setseed($1)", [seed]);
      return insertPendingGroup(queryableOf(client), orgs.map(pendingParcel));
    };
    const groups = Promise.allSettled([group(first, [orgA, orgB]), group(second, [orgB, orgA])]);
    await waitFor(
      async () =>
        (
          await gate.query<{ n: number }>(
            "SELECT count(*)::int AS n FROM pg_locks WHERE locktype = 'advisory' AND objid = $1 AND NOT granted",
            [GATE]
          )
        ).rows[0].n,
      n => n === 2
    );
    await gate.query("SELECT pg_advisory_unlock($1)", [GATE]);
    const codes = (await groups).flatMap(r => (r.status === "rejected" ? [String((r.reason as { code?: string }).code)] : []));
    const { rows } = await gate.query<{ organization_id: string; n: string }>(
      "SELECT organization_id, sum(n)::text AS n FROM parcels.parcel_counts WHERE organization_id = ANY($1::uuid[]) GROUP BY 1",
      [[orgA, orgB]]
    );
    return { codes, countsByOrg: Object.fromEntries(rows.map(r => [r.organization_id === orgA ? "A" : "B", r.n])) };
  } finally {
    await Promise.all([gate.end(), first.end(), second.end()]);
  }
}

describeWithServers(["postgres"], "parcel counters: two groups crossing organisations (PostgreSQL)", () => {
  test("both groups commit and every parcel is counted once", async () => {
    const database = await createTestDatabase();
    const db = openPostgres(database.url, 1);
    try {
      await migrateSchema(db, "parcels");
      await db.close();
      expect(await twoCrossingGroups(database.url)).toEqual({ codes: [], countsByOrg: { A: "2", B: "2" } });
    } finally {
      await database.drop();
    }
  });

  test("control: the same two groups on migration 005's row trigger deadlock (the set-up reaches the crossing)", async () => {
    const database = await createTestDatabase();
    const db = openPostgres(database.url, 1);
    try {
      await migrateUpTo(db, "parcels", "015_parcel_counts_per_statement.sql");
      // Every later migration but 015, so that today's group insert finds its columns on 005's trigger.
      const dir = path.join(projectRoot(), "migrations", "parcels");
      for (const file of migrationFiles("parcels").filter(f => f > "015_parcel_counts_per_statement.sql")) {
        await db.exec(fs.readFileSync(path.join(dir, file), "utf8"));
      }
      await db.close();
      const { codes } = await twoCrossingGroups(database.url);
      expect(codes).toEqual(["40P01"]);
    } finally {
      await database.drop();
    }
  });
});
