import fs from "node:fs";
import path from "node:path";
import { projectRoot } from "../project-root";
import { Database } from "./database";

const SCHEMA_NAME = /^[a-z][a-z0-9_]*$/;
const MIGRATION_FILE = /^(\d{3})_[a-z0-9_-]+\.sql$/;

export function migrationFiles(schema: string): string[] {
  const dir = path.join(projectRoot(), "migrations", schema);
  if (!fs.existsSync(dir)) return [];
  return fs
    .readdirSync(dir)
    .filter(name => MIGRATION_FILE.test(name))
    .sort();
}

/**
 * Applies `migrations/<schema>/NNN_*.sql` in order, once each, inside one transaction.
 * The advisory lock makes concurrent starts (several pods of one service) wait for each other
 * instead of racing on CREATE SCHEMA.
 */
export async function migrateSchema(db: Database, schema: string): Promise<string[]> {
  if (!SCHEMA_NAME.test(schema)) throw new Error(`invalid schema name "${schema}"`);
  const files = migrationFiles(schema);
  const dir = path.join(projectRoot(), "migrations", schema);
  return db.transaction(async tx => {
    await tx.query("SELECT pg_advisory_xact_lock(hashtext($1))", [`relay-migrations:${schema}`]);
    await tx.exec(`CREATE SCHEMA IF NOT EXISTS ${schema};
      CREATE TABLE IF NOT EXISTS ${schema}.schema_migrations (
        id text PRIMARY KEY,
        applied_at timestamptz NOT NULL DEFAULT now()
      );`);
    const rows = await tx.query<{ id: string }>(`SELECT id FROM ${schema}.schema_migrations`);
    const applied = new Set(rows.map(r => r.id));
    const ran: string[] = [];
    for (const file of files) {
      if (applied.has(file)) continue;
      await tx.exec(fs.readFileSync(path.join(dir, file), "utf8"));
      await tx.query(`INSERT INTO ${schema}.schema_migrations (id) VALUES ($1)`, [file]);
      ran.push(file);
    }
    return ran;
  });
}
