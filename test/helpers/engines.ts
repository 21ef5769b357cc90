import { randomUUID } from "node:crypto";
import { createTestDatabase } from "./postgres";
import { availableServers } from "./servers";

/** A database engine a system under test runs on: its environment, and (PostgreSQL) its URL for the money invariant. */
export interface TestEngine {
  env: Record<string, string>;
  /** For the money invariant (PostgreSQL only: it reads the database from outside). */
  url: string | null;
  drop: () => Promise<void>;
}

/**
 * PGlite always, and PostgreSQL when it answers (under CI=true, availableServers fails the run
 * when it does not), each a fresh database: for `describe.each(testEngines("…"))`.
 */
export function testEngines(suite: string): [string, () => Promise<TestEngine>][] {
  const list: [string, () => Promise<TestEngine>][] = [
    ["PGlite", async () => ({ env: { DATA_DIR: `memory://${randomUUID()}` }, url: null, drop: async () => undefined })]
  ];
  if (availableServers().has("postgres")) {
    list.push([
      "PostgreSQL",
      async () => {
        const database = await createTestDatabase();
        return { env: { DATABASE_URL: database.url, DATABASE_POOL_SIZE: "8" }, url: database.url, drop: database.drop };
      }
    ]);
  } else process.stderr.write(`\n[notice] ${suite}: PostgreSQL not reachable, PGlite only\n`);
  return list;
}
