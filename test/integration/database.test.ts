import { randomUUID } from "node:crypto";
import { Database } from "../../lib/db/database";
import { migrateSchema, migrationFiles } from "../../lib/db/migrate";
import { openPglite } from "../../lib/db/pglite";
import { openPostgres } from "../../lib/db/postgres";
import { applicationNameOf } from "../../lib/db/connection";
import { loadConfig } from "../../lib/config";
import { createTestDatabase } from "../helpers/postgres";
import { describeWithServers } from "../helpers/servers";

/** The same assertions on both engines: the SQL must mean the same thing on each. */
function databaseContract(open: () => Promise<{ db: Database; close: () => Promise<void> }>) {
  let db: Database;
  let close: () => Promise<void>;

  beforeAll(async () => {
    ({ db, close } = await open());
  });
  afterAll(() => close());

  test("migrations create the service's own schema once, and a second run applies nothing", async () => {
    const first = await migrateSchema(db, "auth");
    expect(first[0]).toBe("001_organizations_and_keys.sql");
    expect(first).toEqual(migrationFiles("auth"));
    expect(await migrateSchema(db, "auth")).toEqual([]);
    const tables = await db.query<{ table_name: string }>(
      "SELECT table_name FROM information_schema.tables WHERE table_schema = 'auth' ORDER BY table_name"
    );
    expect(tables.map(t => t.table_name)).toEqual([
      "agent_keys",
      "api_keys",
      "organizations",
      "pairing_codes",
      "pickup_addresses",
      "schema_migrations",
      "staff_keys"
    ]);
  });

  test("a failed transaction leaves nothing behind", async () => {
    const id = randomUUID();
    await expect(
      db.transaction(async tx => {
        await tx.query("INSERT INTO auth.organizations (id, name) VALUES ($1, $2)", [id, "Rolled back"]);
        throw new Error("boom");
      })
    ).rejects.toThrow("boom");
    expect(await db.query("SELECT id FROM auth.organizations WHERE id = $1", [id])).toEqual([]);
  });

  test("a committed transaction is visible", async () => {
    const id = randomUUID();
    await db.transaction(tx => tx.query("INSERT INTO auth.organizations (id, name) VALUES ($1, $2)", [id, "Kept"]));
    expect(await db.query("SELECT name FROM auth.organizations WHERE id = $1", [id])).toEqual([{ name: "Kept" }]);
  });

  test("invalid schema names are refused before any SQL runs", async () => {
    await expect(migrateSchema(db, "auth; DROP TABLE x")).rejects.toThrow(/invalid schema name/);
  });
}

describe("database layer on PGlite (embedded)", () => {
  databaseContract(async () => {
    const db = await openPglite(`memory://${randomUUID()}`);
    return { db, close: () => db.close() };
  });
});

describe("applicationNameOf", () => {
  test("names the node, or the services when no node id is set", () => {
    const base = { DATABASE_URL: "postgres://x@127.0.0.1/db" };
    expect(applicationNameOf(loadConfig({ ...base, NODE_ID: "parcels-2" }))).toBe("relay-parcels parcels-2");
    expect(applicationNameOf(loadConfig({ ...base, SERVICES: "wallet,labels" }))).toBe("relay-parcels wallet,labels");
  });
});

describeWithServers(["postgres"], "database layer on the PostgreSQL server", () => {
  databaseContract(async () => {
    const test = await createTestDatabase();
    const db = openPostgres(test.url, 4);
    return {
      db,
      close: async () => {
        await db.close();
        await test.drop();
      }
    };
  });

  test("a process' connections carry its name in pg_stat_activity, unless the URL names them", async () => {
    const test = await createTestDatabase();
    const named = openPostgres(test.url, 1, "relay-parcels parcels");
    const chosen = openPostgres(`${test.url}${test.url.includes("?") ? "&" : "?"}application_name=ops-console`, 1, "relay-parcels parcels");
    try {
      const name = (db: Database) => db.query<{ name: string }>("SELECT current_setting('application_name') AS name");
      expect(await name(named)).toEqual([{ name: "relay-parcels parcels" }]);
      expect(await name(chosen)).toEqual([{ name: "ops-console" }]);
    } finally {
      await Promise.all([named.close(), chosen.close()]);
      await test.drop();
    }
  });

  test("several processes starting at once migrate exactly once", async () => {
    const test = await createTestDatabase();
    const pools = [openPostgres(test.url, 2), openPostgres(test.url, 2), openPostgres(test.url, 2)];
    try {
      const results = await Promise.all(pools.map(pool => migrateSchema(pool, "auth")));
      expect(results.flat()).toEqual(migrationFiles("auth"));
      const rows = await pools[0].query<{ n: number }>("SELECT count(*)::int AS n FROM auth.schema_migrations");
      expect(rows[0].n).toBe(migrationFiles("auth").length);
    } finally {
      await Promise.all(pools.map(p => p.close()));
      await test.drop();
    }
  });
});
