import { randomUUID } from "node:crypto";
import type { Database } from "../../lib/db/database";
import { returnJourneyContract, returnRulesContract, ReturnsSystem } from "../e2e/returns-contract";
import { EngineDatabase, inProcessSystem } from "../helpers/in-process-system";
import { checkMoneyInvariant } from "../helpers/money-invariant";
import { createTestDatabase } from "../helpers/postgres";
import { describeWithServers } from "../helpers/servers";

/**
 * Issue 21, customers' returns, on each database engine: the whole system in this process (one
 * broker, every service, a gateway on a free port), on PGlite and on the PostgreSQL server, where
 * a pool makes concurrent drop-offs and passes really concurrent. The clock is moved in the
 * parcels service's own database. On the server, the money invariant (with return shipments)
 * holds at the end.
 */

function onEngine(databaseEnv: () => Promise<EngineDatabase>): void {
  const { broker, system } = inProcessSystem(databaseEnv, async (running, url) => {
    if (!url) return;
    await running.call("parcels.runReturnsPass");
    const report = await checkMoneyInvariant(url);
    expect(report.violations).toEqual([]);
    expect(report.returnShipments).toBeGreaterThan(0);
  });
  const returnsSystem = (): ReturnsSystem => ({
    ...system(),
    sql: (text, params) => (broker().getLocalService("parcels") as unknown as { db: Database }).db.query(text, params),
    runReturnsPass: () => broker().call("parcels.runReturnsPass"),
    chargeAgain: movement => broker().call("wallet.chargeReturnShipment", movement)
  });
  returnRulesContract(returnsSystem);
  returnJourneyContract(returnsSystem);
}

describe("customers' returns on PGlite", () =>
  onEngine(async () => ({ env: { DATA_DIR: `memory://returns-${randomUUID()}` }, drop: async () => undefined })));

describeWithServers(["postgres"], "customers' returns on the PostgreSQL server", () =>
  onEngine(async () => {
    const database = await createTestDatabase();
    return { env: { DATABASE_URL: database.url, DATABASE_POOL_SIZE: "8" }, drop: database.drop, url: database.url };
  })
);
