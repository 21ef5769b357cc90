import path from "node:path";
import { AppConfig } from "../config";
import { Database } from "./database";
import { openPglite } from "./pglite";
import { openPostgres } from "./postgres";

interface Shared {
  db: Promise<Database>;
  users: number;
}

// Services of one process share one pool (or the one PGlite instance, which allows no other).
const open = new Map<string, Shared>();

function keyOf(config: AppConfig): string {
  return config.databaseUrl ?? `pglite:${config.dataDir}`;
}

function pgliteDir(config: AppConfig): string {
  return config.dataDir.startsWith("memory://") ? config.dataDir : path.join(config.dataDir, "pgdata");
}

/** What pg_stat_activity calls this process' connections: its node, or the services it runs. */
export function applicationNameOf(config: AppConfig): string {
  // PostgreSQL keeps the first 63 bytes.
  return `relay-parcels ${config.nodeId ?? config.services.join(",")}`.slice(0, 63);
}

/** `warn`: where the embedded database's housekeeping reports (the first service to open it). */
export async function acquireDatabase(config: AppConfig, warn: (message: string) => void = () => undefined): Promise<Database> {
  const key = keyOf(config);
  let shared = open.get(key);
  if (!shared) {
    const db = config.databaseUrl
      ? Promise.resolve(openPostgres(config.databaseUrl, config.databasePoolSize, applicationNameOf(config)))
      : openPglite(pgliteDir(config), {
          sharedBuffersMb: config.embeddedSharedBuffersMb,
          autovacuumIntervalMs: config.embeddedAutovacuumIntervalMs,
          onMaintenanceError: err => warn(`embedded autovacuum: ${err.message} (tried again in the next round)`)
        });
    shared = { db, users: 0 };
    open.set(key, shared);
    db.catch(() => open.delete(key));
  }
  shared.users += 1;
  return shared.db;
}

export async function releaseDatabase(config: AppConfig): Promise<void> {
  const key = keyOf(config);
  const shared = open.get(key);
  if (!shared) return;
  shared.users -= 1;
  if (shared.users > 0) return;
  open.delete(key);
  await (await shared.db).close();
}
