import fs from "node:fs";
import path from "node:path";
import { projectRoot } from "../project-root";
import { Database, Queryable } from "./database";

const SCHEMA_NAME = /^[a-z][a-z0-9_]*$/;
const MIGRATION_FILE = /^(\d{3})_[a-z0-9_-]+\.sql$/;
/**
 * A file whose first line is this runs outside any transaction, one statement at a time: CREATE or
 * DROP INDEX CONCURRENTLY cannot run inside one (decision 0059). Its statements must be idempotent
 * (IF [NOT] EXISTS): a pod that stops half-way, or two pods starting together, run them again.
 */
export const NO_TRANSACTION_HEADER = "-- migrate: no-transaction";

export function migrationsDir(schema: string): string {
  return path.join(projectRoot(), "migrations", schema);
}

export function migrationFiles(schema: string, dir = migrationsDir(schema)): string[] {
  if (!fs.existsSync(dir)) return [];
  return fs
    .readdirSync(dir)
    .filter(name => MIGRATION_FILE.test(name))
    .sort();
}

export function runsOutsideTransaction(sql: string): boolean {
  return sql.startsWith(NO_TRANSACTION_HEADER);
}

/**
 * The statements of a no-transaction file: it holds plain DDL (no function bodies, no strings with a
 * semicolon; test/unit/migration-locks.test.ts holds it to that), so a semicolon ends a statement.
 */
export function plainStatements(sql: string): string[] {
  return sql
    .split("\n")
    .filter(line => !line.trim().startsWith("--"))
    .join("\n")
    .split(";")
    .map(s => s.trim())
    .filter(s => s.length > 0);
}

/** One migration file's SQL, on `db` (a transaction, or the database itself for a no-transaction file). */
export async function runMigrationSql(db: Queryable, sql: string): Promise<void> {
  if (!runsOutsideTransaction(sql)) return db.exec(sql);
  // One statement per round trip: several in one simple query would form an implicit transaction.
  for (const statement of plainStatements(sql)) await db.query(statement);
}

/**
 * Applies `migrations/<schema>/NNN_*.sql` in order, once each. Consecutive ordinary files run
 * inside one transaction; a no-transaction file runs on its own between two such transactions
 * and is recorded after it succeeded. The advisory lock makes concurrent starts (several pods of
 * one service) wait for each other instead of racing on CREATE SCHEMA.
 */
export async function migrateSchema(db: Database, schema: string, dir = migrationsDir(schema)): Promise<string[]> {
  if (!SCHEMA_NAME.test(schema)) throw new Error(`invalid schema name "${schema}"`);
  const files = migrationFiles(schema, dir);
  const ran: string[] = [];
  for (;;) {
    const outside = await db.transaction(async tx => {
      await tx.query("SELECT pg_advisory_xact_lock(hashtext($1))", [`relay-migrations:${schema}`]);
      await tx.exec(`CREATE SCHEMA IF NOT EXISTS ${schema};
        CREATE TABLE IF NOT EXISTS ${schema}.schema_migrations (
          id text PRIMARY KEY,
          applied_at timestamptz NOT NULL DEFAULT now()
        );`);
      const rows = await tx.query<{ id: string }>(`SELECT id FROM ${schema}.schema_migrations`);
      const applied = new Set(rows.map(r => r.id));
      for (const file of files) {
        if (applied.has(file)) continue;
        const sql = fs.readFileSync(path.join(dir, file), "utf8");
        if (runsOutsideTransaction(sql)) {
          // One instance at a time builds a no-transaction file: two CONCURRENTLY builds on one table
          // wait for each other and deadlock. A claim older than ten minutes is a crashed start's.
          const claim = await tx.query(
            `INSERT INTO ${schema}.schema_migrations (id) VALUES ($1) ON CONFLICT (id) DO UPDATE SET applied_at = now()
             WHERE ${schema}.schema_migrations.applied_at < now() - interval '10 minutes' RETURNING id`,
            [`claim:${file}`]
          );
          return { file, sql, claimed: claim.length > 0 };
        }
        await tx.exec(sql);
        await tx.query(`INSERT INTO ${schema}.schema_migrations (id) VALUES ($1)`, [file]);
        ran.push(file);
      }
      return null;
    });
    if (!outside) return ran;
    if (!outside.claimed) {
      // Another instance is building it: look again once it has had time to record it.
      await new Promise(resolve => setTimeout(resolve, 250));
      continue;
    }
    await runMigrationSql(db, outside.sql);
    await db.transaction(async tx => {
      await tx.query(`INSERT INTO ${schema}.schema_migrations (id) VALUES ($1) ON CONFLICT (id) DO NOTHING`, [outside.file]);
      await tx.query(`DELETE FROM ${schema}.schema_migrations WHERE id = $1`, [`claim:${outside.file}`]);
    });
    ran.push(outside.file);
  }
}
