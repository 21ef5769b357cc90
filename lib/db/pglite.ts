import fs from "node:fs";
import path from "node:path";
import { PGlite, Transaction } from "@electric-sql/pglite";
import { ensurePrivateDir, keepModesPrivate, restrictToOwner } from "../data-dir";
import { Database, Queryable } from "./database";
import { Statement, textOf } from "./statement";
import { initPgliteCluster } from "./pglite-init";
import { countStatements } from "./statement-count";
import { mayWrite, WriteGeneration } from "./write-generation";
import { PgliteAutovacuum } from "./pglite-autovacuum";

function wrap(db: PGlite | Transaction, writes: WriteGeneration): Queryable {
  return {
    async query<R extends object>(sql: Statement, params?: unknown[]) {
      // PGlite takes no statement name (see lib/db/statement.ts): the text alone.
      const text = textOf(sql);
      countStatements(1);
      const run = () => db.query<R>(text, params as unknown[] | undefined);
      const result = mayWrite(sql) ? await writes.around(run) : await run();
      return result.rows;
    },
    async exec(sql: string) {
      countStatements(1);
      await writes.around(() => db.exec(sql));
    }
  };
}

export interface PgliteOptions {
  sharedBuffersMb?: number;
  /** How often the embedded autovacuum reads the table statistics (pglite-autovacuum.ts); 0 turns it off. */
  autovacuumIntervalMs?: number;
  /** Where the autovacuum's failures go (it never stops the database). */
  onMaintenanceError?: (err: Error) => void;
}

/** `dataDir` is a folder, or `memory://<anything>` for a throw-away database (tests). */
export async function openPglite(dataDir: string, given: PgliteOptions = {}): Promise<Database> {
  const { sharedBuffersMb = 8, autovacuumIntervalMs = 2_000, onMaintenanceError = () => undefined } = given;
  const onDisk = !dataDir.startsWith("memory://");
  if (onDisk) {
    ensurePrivateDir(dataDir);
    keepModesPrivate(dataDir);
  }
  // PostgreSQL's default 128 MB of shared buffers is WebAssembly memory that never shrinks: the
  // embedded process would sit above 450 MB. An embedded database is small; a few MB hold its hot
  // pages, and the operating system caches the rest of its files (EMBEDDED_SHARED_BUFFERS_MB).
  // The autovacuum's work memory comes from the same never-returned WebAssembly memory: VACUUM's
  // dead-row list and ANALYZE's row sample stay small (10 × 300 rows instead of 100 × 300).
  const options = {
    postgresqlconf: [`shared_buffers=${sharedBuffersMb}MB`, "wal_buffers=1MB", "maintenance_work_mem=4MB", "default_statistics_target=10"]
  };
  if (onDisk && !fs.existsSync(path.join(dataDir, "PG_VERSION"))) await initPgliteCluster(dataDir, options);
  const db = await PGlite.create(dataDir, options);
  if (onDisk) restrictToOwner(dataDir);
  const writes = new WriteGeneration();
  const direct = wrap(db, writes);
  const autovacuum =
    autovacuumIntervalMs > 0 ? new PgliteAutovacuum(db, { intervalMs: autovacuumIntervalMs, onError: onMaintenanceError }) : null;
  autovacuum?.start();
  return {
    query: direct.query,
    exec: direct.exec,
    // PGlite serialises everything behind one connection, so a transaction is exclusive.
    // PGlite's transaction sends BEGIN, and COMMIT or ROLLBACK: two statements around the work's own.
    transaction: <T>(work: (tx: Queryable) => Promise<T>) => {
      countStatements(2);
      return writes.around(() => db.transaction(tx => work(wrap(tx, writes))));
    },
    // Nobody else can open this database (PGlite is in-process): every write is counted here.
    writeGeneration: () => writes.current(),
    async close() {
      await autovacuum?.stop();
      await db.close();
    }
  };
}
