import { randomBytes, randomUUID } from "node:crypto";
import type { ServiceBroker } from "moleculer";
import { createSystem } from "../../bin/system";
import { algiersDate } from "../../lib/cod";
import { AppConfig, loadConfig } from "../../lib/config";
import { acquireDatabase, releaseDatabase } from "../../lib/db/connection";
import type { Database, Queryable } from "../../lib/db/database";
import { Statement, textOf } from "../../lib/db/statement";
import { addDays } from "../../services/parcels/calendar-date";
import { TestEngine, testEngines } from "../helpers/engines";

/**
 * Issue 31: zero database reads of relay points and closures on the create, quote and batch
 * paths, on both engines. Every statement the parcels service sends is recorded (the Database its
 * services share in this process, wrapped in place, transactions included) while a quote, creates,
 * a refused create and a batch run; none may touch parcels.relay_points or parcels.relay_closures.
 */

const TOUCHES_DIRECTORY = /relay_points|relay_closures/;

/** Records every statement sent through `db` and its transactions until `stop()`. */
function recordStatements(db: Database): { statements: string[]; stop: () => void } {
  const statements: string[] = [];
  const query = db.query.bind(db);
  const transaction = db.transaction.bind(db);
  const recording = (q: Queryable["query"]): Queryable["query"] =>
    (<R extends object>(sql: Statement, params?: unknown[]) => {
      // Named statements (decision 0037) are recorded by their text like the others.
      statements.push(textOf(sql));
      return q<R>(sql, params);
    }) as Queryable["query"];
  db.query = recording(query);
  db.transaction = work => transaction(tx => work({ query: recording(tx.query.bind(tx)), exec: tx.exec.bind(tx) }));
  return {
    statements,
    stop: () => {
      db.query = query;
      db.transaction = transaction;
    }
  };
}

describe.each(testEngines("relay directory reads"))("relay points and closures on the create path, on %s", (_engine, open) => {
  let broker: ServiceBroker;
  let config: AppConfig;
  let database: TestEngine;
  let db: Database;
  let organizationId: string;
  const today = algiersDate(new Date());

  beforeAll(async () => {
    database = await open();
    config = loadConfig({
      ...database.env,
      SERVICES: "auth,wallet,parcels",
      BACKOFFICE_TOKEN: "t",
      ENCRYPTION_KEY: randomBytes(32).toString("hex"),
      LABEL_URL_SECRET: "l",
      SWEEP_INTERVAL_MS: "3600000",
      HOLDING_INTERVAL_MS: "60000",
      OUTBOX_INTERVAL_MS: "60000"
    });
    broker = await createSystem(config, { logger: false });
    await broker.start();
    db = await acquireDatabase(config);
    organizationId = (await broker.call<{ id: string }, object>("auth.createOrganization", { name: "Lectures SARL" })).id;
    await broker.call("wallet.topUp", { organizationId, mode: "live", amountDzd: 100_000 });
    await broker.call("parcels.addRelayClosure", { code: "DZ-16-KOUBA", from: today, to: addDays(today, 1) });
  }, 60_000);

  afterAll(async () => {
    await broker.stop();
    await releaseDatabase(config);
    await database.drop();
  });

  const meta = {
    auth: {
      keyId: randomUUID(),
      keyPrefix: "rp_test",
      organizationId: "",
      organizationName: "Lectures SARL",
      mode: "live",
      scopes: ["parcels:read", "parcels:write"],
      rateLimitPerMinute: null
    }
  };
  const parcel = (destinationRelayCode: string) => ({
    recipientName: "Amina",
    recipientPhone: "+213555123456",
    weightG: 800,
    destinationRelayCode
  });
  const refusal = (call: Promise<unknown>) =>
    call.then(
      () => null,
      (err: { type: string }) => err.type
    );

  test("a quote, creates, a create refused for a closure and a batch read no relay point and no closure from the database", async () => {
    const as = { meta: { ...meta, auth: { ...meta.auth, organizationId } } };
    const recorder = recordStatements(db);
    try {
      await broker.call("parcels.quote", { weightG: 800, destinationRelayCode: "DZ-16-ALGER-CENTRE" }, as);
      await broker.call("parcels.create", parcel("DZ-16-ALGER-CENTRE"), as);
      expect(await refusal(broker.call("parcels.create", parcel("DZ-16-KOUBA"), as))).toBe("RELAY_CLOSED");
      expect(await refusal(broker.call("parcels.quote", { weightG: 800, destinationRelayCode: "DZ-99-NOWHERE" }, as))).toBe(
        "RELAY_NOT_FOUND"
      );
      const batch = await broker.call<{ items: { status: number; error: { code: string } | null }[] }, object>(
        "parcels.createBatch",
        { items: [parcel("DZ-16-ALGER-CENTRE"), parcel("DZ-16-KOUBA"), parcel("DZ-99-NOWHERE")] },
        as
      );
      expect(batch.items.map(item => item.error?.code ?? item.status)).toEqual([201, "RELAY_CLOSED", "RELAY_NOT_FOUND"]);
    } finally {
      recorder.stop();
    }
    // The recorder saw the path (the parcels written), so its silence on the directory means something.
    expect(recorder.statements.some(sql => /INSERT INTO parcels\.parcels/.test(sql))).toBe(true);
    expect(recorder.statements.filter(sql => TOUCHES_DIRECTORY.test(sql))).toEqual([]);
  }, 60_000);
});
