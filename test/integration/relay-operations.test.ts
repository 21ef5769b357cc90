import { randomUUID } from "node:crypto";
import { dayAtTheCounterContract, relayRulesContract } from "../e2e/relay-contract";
import { EngineDatabase, inProcessSystem } from "../helpers/in-process-system";
import { createTestDatabase } from "../helpers/postgres";
import { describeWithServers } from "../helpers/servers";

/**
 * Issue 18, the relay API's rules and races, on each database engine: the whole system in this
 * process (one broker, every service, a gateway on a free port), on PGlite and on the PostgreSQL
 * server, where a pool makes concurrent arrivals and closings really concurrent.
 */

function onEngine(databaseEnv: () => Promise<EngineDatabase>): void {
  const { system } = inProcessSystem(databaseEnv);
  relayRulesContract(system);
  dayAtTheCounterContract(system);
}

describe("relay operations on PGlite", () =>
  onEngine(async () => ({ env: { DATA_DIR: `memory://relay-${randomUUID()}` }, drop: async () => undefined })));

describeWithServers(["postgres"], "relay operations on the PostgreSQL server", () =>
  onEngine(async () => {
    const database = await createTestDatabase();
    return { env: { DATABASE_URL: database.url, DATABASE_POOL_SIZE: "8" }, drop: database.drop };
  })
);
