import { randomUUID } from "node:crypto";
import { createTestDatabase } from "./postgres";
import { availableServers } from "./servers";

/** A fresh database for one system under test: the environment that points a system at it. */
export interface Engine {
  env: Record<string, string>;
  /** For checks that read the database from outside (the money invariant): PostgreSQL only. */
  url: string | null;
  drop: () => Promise<void>;
}

/**
 * `describe.each` rows for the two engines: PGlite in memory, and a fresh PostgreSQL database when
 * one answers (under CI=true the global setup has already failed the run when it does not).
 */
export function engines(suite: string): [string, () => Promise<Engine>][] {
  const list: [string, () => Promise<Engine>][] = [
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
