import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import type { Database } from "../../lib/db/database";
import { migrateSchema } from "../../lib/db/migrate";
import { openThrowAwayPglite, openThrowAwayPostgres, ThrowAwayDatabase } from "../helpers/postgres";
import { describeWithServers } from "../helpers/servers";

/**
 * Decision 0059: a migration file headed `-- migrate: no-transaction` runs outside the transaction
 * the others share, so that its index is built CONCURRENTLY (writers keep writing); files before
 * and after it still run, and it runs once.
 */

function write(dir: string, files: Record<string, string>): void {
  for (const [name, sql] of Object.entries(files)) fs.writeFileSync(path.join(dir, name), sql);
}

function runnerContract(open: () => Promise<ThrowAwayDatabase>) {
  let handle: ThrowAwayDatabase;
  let db: Database;
  let dir: string;
  beforeAll(async () => {
    handle = await open();
    db = handle.db;
    dir = fs.mkdtempSync(path.join(os.tmpdir(), "migrations-"));
  });
  afterAll(async () => {
    await handle.close();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  it("builds the index concurrently between two transactional files, once", async () => {
    write(dir, {
      "001_table.sql":
        "CREATE TABLE lockt.items (id int PRIMARY KEY, at timestamptz);\nINSERT INTO lockt.items SELECT g, now() FROM generate_series(1, 50) g;",
      "002_index.sql":
        "-- migrate: no-transaction\n-- the items by date\nCREATE INDEX CONCURRENTLY IF NOT EXISTS items_at ON lockt.items (at);\nCREATE UNIQUE INDEX CONCURRENTLY IF NOT EXISTS items_id_at ON lockt.items (id, at);\n",
      "003_after.sql": "ALTER TABLE lockt.items ADD COLUMN note text;"
    });
    expect(await migrateSchema(db, "lockt", dir)).toEqual(["001_table.sql", "002_index.sql", "003_after.sql"]);
    const indexes = await db.query<{ indexname: string; valid: boolean }>(
      `SELECT c.relname AS indexname, i.indisvalid AS valid FROM pg_index i JOIN pg_class c ON c.oid = i.indexrelid
        JOIN pg_namespace n ON n.oid = c.relnamespace WHERE n.nspname = 'lockt' AND c.relname LIKE 'items%' ORDER BY 1`
    );
    expect(indexes).toEqual([
      { indexname: "items_at", valid: true },
      { indexname: "items_id_at", valid: true },
      { indexname: "items_pkey", valid: true }
    ]);
    expect(await migrateSchema(db, "lockt", dir)).toEqual([]);
  });

  it("a failing ordinary file after it leaves the no-transaction file recorded, and itself not", async () => {
    write(dir, {
      "004_index.sql": "-- migrate: no-transaction\nCREATE INDEX CONCURRENTLY IF NOT EXISTS items_note ON lockt.items (note);",
      "005_bad.sql": "ALTER TABLE lockt.nothing ADD COLUMN x int;"
    });
    await expect(migrateSchema(db, "lockt", dir)).rejects.toThrow(/nothing/);
    const rows = await db.query<{ id: string }>("SELECT id FROM lockt.schema_migrations ORDER BY id");
    expect(rows.map(r => r.id)).toEqual(["001_table.sql", "002_index.sql", "003_after.sql", "004_index.sql"]);
  });
}

describe("the migration runner's no-transaction files on PGlite", () => runnerContract(openThrowAwayPglite));
describeWithServers(["postgres"], "the migration runner's no-transaction files on the PostgreSQL server", () =>
  runnerContract(openThrowAwayPostgres)
);
