import { randomBytes, randomUUID } from "node:crypto";
import type { ServiceBroker } from "moleculer";
import { createSystem } from "../../bin/system";
import { loadConfig } from "../../lib/config";
import { dayAtTheCounterContract, relayRulesContract } from "../e2e/relay-contract";
import type { SystemUnderTest } from "../e2e/gateway-contract";
import { createTestDatabase } from "../helpers/postgres";
import { freePort } from "../helpers/processes";
import { describeWithServers } from "../helpers/servers";
import { SmsInbox, startSmsInbox } from "../helpers/sms-inbox";

/**
 * Issue 18, the relay API's rules and races, on each database engine: the whole system in this
 * process (one broker, every service, a gateway on a free port), on PGlite and on the PostgreSQL
 * server, where a pool makes concurrent arrivals and closings really concurrent.
 */

function onEngine(databaseEnv: () => Promise<{ env: Record<string, string>; drop: () => Promise<void> }>): void {
  let broker: ServiceBroker;
  let sms: SmsInbox;
  let drop: () => Promise<void>;
  let baseUrl: string;
  const backofficeToken = `bo_${randomBytes(12).toString("hex")}`;

  beforeAll(async () => {
    sms = await startSmsInbox();
    const database = await databaseEnv();
    drop = database.drop;
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
    await broker?.stop();
    await sms?.close();
    await drop?.();
  });

  const system = (): SystemUnderTest => ({ baseUrl, backofficeToken, logs: () => "", sms });
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
