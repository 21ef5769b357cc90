import { randomBytes } from "node:crypto";
import type { ServiceBroker } from "moleculer";
import { createSystem } from "../../bin/system";
import { AppConfig, loadConfig } from "../../lib/config";
import type { SystemUnderTest } from "../e2e/gateway-contract";
import { freePort } from "./processes";
import { SmsInbox, startSmsInbox } from "./sms-inbox";

export interface EngineDatabase {
  env: Record<string, string>;
  drop: () => Promise<void>;
  /** The PostgreSQL server's URL, for the money invariant; none on PGlite. */
  url?: string;
}

/**
 * The whole system in this process (one broker, every service, a gateway on a free port, SMS to a
 * loopback inbox) on the database `databaseEnv` gives, started before the describe's tests and
 * stopped after them (`beforeStop` first, while it still runs).
 */
export function inProcessSystem(
  databaseEnv: () => Promise<EngineDatabase>,
  beforeStop: (broker: ServiceBroker, url: string | undefined) => Promise<void> = async () => undefined
): { broker: () => ServiceBroker; system: () => SystemUnderTest; config: () => AppConfig; databaseUrl: () => string | null } {
  let broker: ServiceBroker;
  let config: AppConfig;
  let sms: SmsInbox;
  let database: EngineDatabase;
  let baseUrl: string;
  const backofficeToken = `bo_${randomBytes(12).toString("hex")}`;

  beforeAll(async () => {
    sms = await startSmsInbox();
    database = await databaseEnv();
    const port = await freePort();
    baseUrl = `http://127.0.0.1:${port}`;
    config = loadConfig({
      ...database.env,
      ...sms.env,
      PORT: String(port),
      PUBLIC_BASE_URL: baseUrl,
      BACKOFFICE_TOKEN: backofficeToken,
      ENCRYPTION_KEY: randomBytes(32).toString("hex"),
      LABEL_URL_SECRET: randomBytes(32).toString("hex"),
      PICKUP_PASS_SIGNING_KEY: randomBytes(32).toString("hex"),
      LOG_LEVEL: "warn",
      OUTBOX_INTERVAL_MS: "100",
      // The stop does not wait for the test's idle kept-alive connections (services/gateway/http/idle-drain.ts).
      HTTP_DRAIN_IDLE_MS: "0"
    });
    broker = await createSystem(config, { logger: false });
    await broker.start();
  }, 60_000);

  afterAll(async () => {
    if (broker) await beforeStop(broker, database?.url);
    await broker?.stop();
    await sms?.close();
    await database?.drop();
  });

  return {
    broker: () => broker,
    system: () => ({ baseUrl, backofficeToken, logs: () => "", sms }),
    config: () => config,
    databaseUrl: () => database.url ?? null
  };
}
