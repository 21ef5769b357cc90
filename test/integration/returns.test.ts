import { randomBytes, randomUUID } from "node:crypto";
import type { ServiceBroker } from "moleculer";
import { createSystem } from "../../bin/system";
import { loadConfig } from "../../lib/config";
import type { Database } from "../../lib/db/database";
import { returnJourneyContract, returnRulesContract, ReturnsSystem } from "../e2e/returns-contract";
import { checkMoneyInvariant } from "../helpers/money-invariant";
import { createTestDatabase } from "../helpers/postgres";
import { freePort } from "../helpers/processes";
import { describeWithServers } from "../helpers/servers";
import { SmsInbox, startSmsInbox } from "../helpers/sms-inbox";

/**
 * Issue 21, customers' returns, on each database engine: the whole system in this process (one
 * broker, every service, a gateway on a free port), on PGlite and on the PostgreSQL server, where
 * a pool makes concurrent drop-offs and passes really concurrent. The clock is moved in the
 * parcels service's own database.
 */

function onEngine(databaseEnv: () => Promise<{ env: Record<string, string>; drop: () => Promise<void>; url?: string }>): void {
  let broker: ServiceBroker;
  let sms: SmsInbox;
  let drop: () => Promise<void>;
  let url: string | undefined;
  let baseUrl: string;
  const backofficeToken = `bo_${randomBytes(12).toString("hex")}`;

  beforeAll(async () => {
    sms = await startSmsInbox();
    const database = await databaseEnv();
    drop = database.drop;
    url = database.url;
    const port = await freePort();
    baseUrl = `http://127.0.0.1:${port}`;
    const config = loadConfig({
      ...database.env,
      ...sms.env,
      PORT: String(port),
      PUBLIC_BASE_URL: baseUrl,
      BACKOFFICE_TOKEN: backofficeToken,
      ENCRYPTION_KEY: randomBytes(32).toString("hex"),
      LABEL_URL_SECRET: randomBytes(32).toString("hex"),
      LOG_LEVEL: "warn",
      OUTBOX_INTERVAL_MS: "100"
    });
    broker = await createSystem(config, { logger: false });
    await broker.start();
  }, 60_000);

  afterAll(async () => {
    if (url) {
      await broker.call("parcels.runReturnsPass");
      const report = await checkMoneyInvariant(url);
      expect(report.violations).toEqual([]);
      expect(report.returnShipments).toBeGreaterThan(0);
    }
    await broker?.stop();
    await sms?.close();
    await drop?.();
  });

  const system = (): ReturnsSystem => ({
    baseUrl,
    backofficeToken,
    logs: () => "",
    sms,
    sql: (text, params) => (broker.getLocalService("parcels") as unknown as { db: Database }).db.query(text, params),
    runReturnsPass: () => broker.call("parcels.runReturnsPass"),
    chargeAgain: movement => broker.call("wallet.chargeReturnShipment", movement)
  });
  returnRulesContract(system);
  returnJourneyContract(system);
}

describe("customers' returns on PGlite", () =>
  onEngine(async () => ({ env: { DATA_DIR: `memory://returns-${randomUUID()}` }, drop: async () => undefined })));

describeWithServers(["postgres"], "customers' returns on the PostgreSQL server", () =>
  onEngine(async () => {
    const database = await createTestDatabase();
    return { env: { DATABASE_URL: database.url, DATABASE_POOL_SIZE: "8" }, drop: database.drop, url: database.url };
  })
);
