import fs from "node:fs";
import path from "node:path";
import { PGlite, Transaction } from "@electric-sql/pglite";
import { ensurePrivateDir, keepModesPrivate, restrictToOwner } from "../data-dir";
import { Database, Queryable } from "./database";
import { initPgliteCluster } from "./pglite-init";

function wrap(db: PGlite | Transaction): Queryable {
  return {
    async query<R extends object>(sql: string, params?: unknown[]) {
      const result = await db.query<R>(sql, params as unknown[] | undefined);
      return result.rows;
    },
    async exec(sql: string) {
      await db.exec(sql);
    }
  };
}

/** `dataDir` is a folder, or `memory://<anything>` for a throw-away database (tests). */
export async function openPglite(dataDir: string): Promise<Database> {
  const onDisk = !dataDir.startsWith("memory://");
  if (onDisk) {
    ensurePrivateDir(dataDir);
    keepModesPrivate(dataDir);
  }
  // PostgreSQL's default 128 MB of shared buffers is WebAssembly memory that never shrinks: the
  // embedded process would sit above 450 MB. An embedded database is small; 8 MB holds its hot pages, and the operating system caches the rest of its files.
  const options = { postgresqlconf: ["shared_buffers=8MB", "wal_buffers=1MB"] };
  if (onDisk && !fs.existsSync(path.join(dataDir, "PG_VERSION"))) await initPgliteCluster(dataDir, options);
  const db = await PGlite.create(dataDir, options);
  if (onDisk) restrictToOwner(dataDir);
  const direct = wrap(db);
  return {
    query: direct.query,
    exec: direct.exec,
    // PGlite serialises everything behind one connection, so a transaction is exclusive.
    transaction: <T>(work: (tx: Queryable) => Promise<T>) => db.transaction(tx => work(wrap(tx))),
    async close() {
      await db.close();
    }
  };
}
