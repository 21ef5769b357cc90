import { randomUUID } from "node:crypto";
import { acquireDatabase, releaseDatabase } from "../../lib/db/connection";
import type { Database } from "../../lib/db/database";
import {
  counterReadsContract,
  idempotencyContract,
  occurredAtContract,
  offlineHandoverContract,
  pairingContract,
  reminderContract
} from "../e2e/relay-counter-app-contract";
import { courierPairingContract } from "../e2e/courier-pairing-contract";
import { EngineDatabase, inProcessSystem } from "../helpers/in-process-system";
import { createTestDatabase } from "../helpers/postgres";
import { describeWithServers } from "../helpers/servers";

/**
 * Issue 27 part A, the relay API for a phone on a bad network, on each database engine: the whole
 * system in this process, on PGlite and on the PostgreSQL server (where a pool makes concurrent
 * requests really concurrent).
 */

function onEngine(databaseEnv: () => Promise<EngineDatabase>): void {
  // One proxy trusted, so that each test's pairings come from an address of their own (X-Forwarded-For).
  const { system, config } = inProcessSystem(async () => {
    const database = await databaseEnv();
    return { ...database, env: { ...database.env, TRUST_PROXY_HOPS: "1" } };
  });
  let db: Database;
  beforeAll(async () => {
    db = await acquireDatabase(config());
  });
  afterAll(async () => {
    if (db) await releaseDatabase(config());
  });
  const sql = () => (text: string, params?: unknown[]) => db.query(text, params);
  pairingContract(system, sql);
  // Issue 45 A: the same pairing for a courier's phone (decision 0065).
  courierPairingContract(system, sql);
  counterReadsContract(system);
  idempotencyContract(system);
  occurredAtContract(system, sql);
  offlineHandoverContract(system);
  reminderContract(system);
}

describe("the relay API for the counter app on PGlite", () =>
  onEngine(async () => ({ env: { DATA_DIR: `memory://counter-${randomUUID()}` }, drop: async () => undefined })));

describeWithServers(["postgres"], "the relay API for the counter app on the PostgreSQL server", () =>
  onEngine(async () => {
    const database = await createTestDatabase();
    return { env: { DATABASE_URL: database.url, DATABASE_POOL_SIZE: "8" }, drop: database.drop };
  })
);
