import { randomBytes, randomUUID } from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import { Client } from "pg";
import type { Database } from "../../lib/db/database";
import { migrateSchema, migrationFiles, runMigrationSql } from "../../lib/db/migrate";
import { openPglite } from "../../lib/db/pglite";
import { openPostgres } from "../../lib/db/postgres";
import { projectRoot } from "../../lib/project-root";
import { PG_ADMIN_URL } from "./servers";

/** A throw-away database on the local server, so suites running in parallel never share tables. */
export async function createTestDatabase(): Promise<{ url: string; drop: () => Promise<void> }> {
  const name = `relay_t_${randomBytes(6).toString("hex")}`;
  const admin = new Client({ connectionString: PG_ADMIN_URL });
  await admin.connect();
  await admin.query(`CREATE DATABASE ${name}`);
  await admin.end();
  const url = new URL(PG_ADMIN_URL);
  url.pathname = `/${name}`;
  return {
    url: url.toString(),
    async drop() {
      const c = new Client({ connectionString: PG_ADMIN_URL });
      await c.connect();
      await c.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      await c.end();
    }
  };
}

/** A database of either engine for one suite, and how to be rid of it afterwards. */
export interface ThrowAwayDatabase {
  db: Database;
  close: () => Promise<void>;
}

export async function openThrowAwayPglite(): Promise<ThrowAwayDatabase> {
  const db = await openPglite(`memory://${randomUUID()}`);
  return { db, close: () => db.close() };
}

export async function openThrowAwayPostgres(): Promise<ThrowAwayDatabase> {
  const test = await createTestDatabase();
  const db = openPostgres(test.url, 2);
  return {
    db,
    close: async () => {
      await db.close();
      await test.drop();
    }
  };
}

/**
 * A throw-away database of `open`'s engine with `schema` migrated, opened before the suite and
 * closed after it. Read `db` from the returned object once the suite runs (set in its beforeAll).
 */
export function migratedForSuite(open: () => Promise<ThrowAwayDatabase>, schema: string): { db: Database } {
  const suite = {} as { db: Database };
  let close: () => Promise<void> = async () => undefined;
  beforeAll(async () => {
    const opened = await open();
    ({ db: suite.db, close } = opened);
    await migrateSchema(opened.db, schema);
  });
  afterAll(() => close());
  return suite;
}

/**
 * A schema as it stood before `migration`: the earlier files applied and recorded, as the
 * migrator would have, so that a test can put rows in before the migration runs over them.
 */
export async function migrateUpTo(db: Database, schema: string, migration: string): Promise<void> {
  const dir = path.join(projectRoot(), "migrations", schema);
  await db.exec(`CREATE SCHEMA IF NOT EXISTS ${schema};
    CREATE TABLE IF NOT EXISTS ${schema}.schema_migrations (id text PRIMARY KEY, applied_at timestamptz NOT NULL DEFAULT now());`);
  for (const file of migrationFiles(schema).filter(f => f < migration)) {
    await runMigrationSql(db, fs.readFileSync(path.join(dir, file), "utf8"));
    await db.query(`INSERT INTO ${schema}.schema_migrations (id) VALUES ($1)`, [file]);
  }
}

/**
 * Two pools on one throw-away PostgreSQL database with `schema` migrated, opened before the suite
 * and closed after it: two processes' worth of connections, for what only a shared server shows.
 * Read `a` and `b` from the returned object once the suite runs (they are set in its beforeAll).
 */
export function twoPoolsOnOneDatabase(schema: string): { a: Database; b: Database } {
  const pools = {} as { a: Database; b: Database };
  let database: { url: string; drop: () => Promise<void> } | undefined;
  beforeAll(async () => {
    database = await createTestDatabase();
    pools.a = openPostgres(database.url, 4);
    pools.b = openPostgres(database.url, 4);
    await migrateSchema(pools.a, schema);
  });
  afterAll(async () => {
    await Promise.all([pools.a?.close(), pools.b?.close()]);
    await database?.drop();
  });
  return pools;
}
