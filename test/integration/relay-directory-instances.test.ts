import { randomBytes, randomUUID } from "node:crypto";
import type { ServiceBroker } from "moleculer";
import { Client } from "pg";
import relayPointsShipped from "../../resources/relay-points.json";
import { createSystem } from "../../bin/system";
import { algiersDate } from "../../lib/cod";
import { loadConfig } from "../../lib/config";
import type { RelayPointEntry } from "../../lib/relay-points";
import { addDays } from "../../services/parcels/calendar-date";
import { waitFor } from "../helpers/parcel-events";
import { createTestDatabase } from "../helpers/postgres";
import { describeWithServers, NATS_URL } from "../helpers/servers";

/**
 * Issue 31, acceptance 3: two parcels instances (two brokers on the real NATS, one namespace, one
 * PostgreSQL database, each with its own pool and its own in-memory relay directory). A relay
 * point changed and a closure announced on one are seen by the other without a restart, a create
 * to a point closed a moment ago on the other instance is refused (RELAY_CLOSED), and a change no
 * broadcast announced (written straight to the database) is caught by the change counter.
 * Every wait polls; the bound itself (a broadcast, or RELAY_DIRECTORY_CHECK_MS) is not timed here.
 */

const SHIPPED = relayPointsShipped as RelayPointEntry[];

interface Failure {
  type: string;
  code: number;
}

describeWithServers(["postgres", "nats"], "the relay directory across two parcels instances", () => {
  const namespace = `dir-${randomBytes(4).toString("hex")}`;
  const encryptionKey = randomBytes(32).toString("hex");
  const today = algiersDate(new Date());
  let database: { url: string; drop: () => Promise<void> };
  const brokers: ServiceBroker[] = [];
  let a: ServiceBroker;
  let b: ServiceBroker;
  // Funded: a create the closure has not reached yet is created and paid, not refused for money.
  let organizationId: string;

  /** One node per service, as a deployment runs them; the application name keeps each parcels instance's pool (and directory) its own. */
  async function node(name: string, services: string): Promise<ServiceBroker> {
    const url = new URL(database.url);
    url.searchParams.set("application_name", `${namespace}-${name}`);
    const config = loadConfig({
      TRANSPORTER: NATS_URL,
      NAMESPACE: namespace,
      DATABASE_URL: url.toString(),
      SERVICES: services,
      BACKOFFICE_TOKEN: "t",
      ENCRYPTION_KEY: encryptionKey,
      LABEL_URL_SECRET: "l",
      SWEEP_INTERVAL_MS: "3600000",
      HOLDING_INTERVAL_MS: "60000",
      OUTBOX_INTERVAL_MS: "60000"
    });
    const broker = await createSystem(config, { logger: false, nodeID: `${namespace}-${name}` });
    brokers.push(broker);
    return broker;
  }

  beforeAll(async () => {
    database = await createTestDatabase();
    const auth = await node("auth", "auth");
    const wallet = await node("wallet", "wallet");
    a = await node("parcels-a", "parcels");
    b = await node("parcels-b", "parcels");
    await Promise.all([auth.start(), wallet.start(), a.start(), b.start()]);
    organizationId = (await auth.call<{ id: string }, object>("auth.createOrganization", { name: "Directory SARL" })).id;
    await wallet.call("wallet.topUp", { organizationId, mode: "live", amountDzd: 100_000 });
  }, 90_000);

  afterAll(async () => {
    for (const broker of brokers.reverse()) await broker.stop();
    await database?.drop();
  });

  const meta = () => ({
    auth: {
      keyId: randomUUID(),
      keyPrefix: "rp_test",
      organizationId,
      organizationName: "Directory SARL",
      mode: "live",
      scopes: ["parcels:read", "parcels:write"],
      rateLimitPerMinute: null
    }
  });
  const quote = (broker: ServiceBroker, code: string) =>
    broker.call("parcels.quote", { weightG: 800, destinationRelayCode: code }, { meta: meta(), nodeID: broker.nodeID });
  const create = (broker: ServiceBroker, code: string) =>
    broker.call(
      "parcels.create",
      { recipientName: "Amina", recipientPhone: "+213555123456", weightG: 800, destinationRelayCode: code },
      { meta: meta(), nodeID: broker.nodeID }
    );
  /** null when the call was accepted, its error's code otherwise. */
  const outcome = (call: Promise<unknown>): Promise<string | null> =>
    call.then(
      () => null,
      (err: Failure) => err.type
    );

  /** Polls until the call is accepted (no timed assertion: the bound is the directory's, decision 0038). */
  const accepted = (call: () => Promise<unknown>) =>
    waitFor(
      () => outcome(call()),
      type => type === null
    );
  /** Polls until the call is refused; answers the error's code. */
  const refused = (call: () => Promise<unknown>) =>
    waitFor(
      () => outcome(call()),
      type => type !== null
    );

  test("a relay point added, then deactivated, on one instance is quoted, then refused, by the other", async () => {
    const code = `DZ-16-DIR-${randomBytes(3).toString("hex").toUpperCase()}`;
    expect(await outcome(quote(b, code))).toBe("RELAY_NOT_FOUND");
    const point = { ...SHIPPED[0], code, name: "Point du test", capacity: 40, holdingDays: null };
    await a.call("parcels.upsertRelayPoint", point, { nodeID: a.nodeID });
    // Read your writes: the instance that made the change answers with it at once.
    expect(await outcome(quote(a, code))).toBeNull();
    await accepted(() => quote(b, code));

    await a.call("parcels.upsertRelayPoint", { ...point, active: false }, { nodeID: a.nodeID });
    expect(await refused(() => quote(b, code))).toBe("RELAY_NOT_FOUND");
  }, 60_000);

  test("a create to a point closed a moment ago on the other instance is refused with RELAY_CLOSED; reopened, it is accepted again", async () => {
    const code = SHIPPED[1].code;
    expect(await outcome(quote(b, code))).toBeNull();
    const closure = await a.call<{ id: string }, object>(
      "parcels.addRelayClosure",
      { code, from: today, to: addDays(today, 2), reason: "inventaire" },
      { nodeID: a.nodeID }
    );
    expect(await refused(() => create(b, code))).toBe("RELAY_CLOSED");

    await a.call("parcels.removeRelayClosure", { code, id: closure.id }, { nodeID: a.nodeID });
    await accepted(() => quote(b, code));
  }, 60_000);

  test("a closure no broadcast announced (written straight to the database) is caught by the change counter on both instances", async () => {
    const code = SHIPPED[2].code;
    expect(await outcome(quote(a, code))).toBeNull();
    expect(await outcome(quote(b, code))).toBeNull();
    const client = new Client({ connectionString: database.url });
    await client.connect();
    try {
      await client.query(
        `INSERT INTO parcels.relay_closures (id, relay_code, from_date, to_date, reason, announced_by)
         VALUES ($1, $2, $3::date, $3::date, 'panne', 'backoffice')`,
        [randomUUID(), code, today]
      );
    } finally {
      await client.end();
    }
    expect(await refused(() => create(a, code))).toBe("RELAY_CLOSED");
    expect(await refused(() => create(b, code))).toBe("RELAY_CLOSED");
  }, 60_000);
});
