import { randomBytes, randomUUID } from "node:crypto";
import http, { IncomingHttpHeaders } from "node:http";
import { AddressInfo } from "node:net";
import { ServiceBroker, ServiceSchema } from "moleculer";
import { brokerOptions } from "../../moleculer.config";
import { loadConfig } from "../../lib/config";
import { encryptField } from "../../lib/crypto";
import { Database } from "../../lib/db/database";
import { migrateSchema } from "../../lib/db/migrate";
import { openPglite } from "../../lib/db/pglite";
import { openPostgres } from "../../lib/db/postgres";
import { ParcelEvent, webhookBodyOf } from "../../lib/events";
import { MAX_ATTEMPTS } from "../../services/webhooks/retry-schedule";
import { attachConfig } from "../../mixins/config.mixin";
import { standardWebhooksSecretOf, verifyWebhookSignature } from "../../services/webhooks/signing";
import { Webhook, WebhookVerificationError } from "standardwebhooks";
import AuthService from "../../services/auth.service";
import WebhooksService, { WebhooksSettings } from "../../services/webhooks.service";
import type { DeliveryItem } from "../../services/webhooks/webhooks.params";
import * as store from "../../services/webhooks/webhooks.store";
import { makeParcelEvent, waitFor } from "../helpers/parcel-events";
import { createTestDatabase } from "../helpers/postgres";
import { maxInFlight, ReceivedRequest, Receiver, startReceiver } from "../helpers/receivers";
import { describeWithServers } from "../helpers/servers";
import { addTestEndpoint } from "../helpers/webhooks-store";

const ENCRYPTION_KEY = randomBytes(32).toString("hex");
const SECRET = "whsec_test_0123456789abcdef";

// --- a real HTTP receiver on loopback ----------------------------------------------------------

interface Received {
  path: string;
  headers: IncomingHttpHeaders;
  raw: string;
  deliveryId: string;
  parcelId: string;
}

/** A delivery as the receiver got it, with what the tests look at. */
function received(r: ReceivedRequest): Received {
  let parcelId = "";
  try {
    parcelId = (JSON.parse(r.rawBody) as { data: { parcel: { id: string } } }).data.parcel.id;
  } catch {
    /* not ours */
  }
  return { path: r.path, headers: r.headers, raw: r.rawBody, deliveryId: String(r.headers["x-relay-delivery-id"]), parcelId };
}

/** A port nothing listens on. */
async function closedPort(): Promise<number> {
  const server = http.createServer();
  await new Promise<void>(resolve => server.listen(0, "127.0.0.1", resolve));
  const port = (server.address() as AddressInfo).port;
  await new Promise<void>(resolve => server.close(() => resolve()));
  return port;
}

// --- systems under test ------------------------------------------------------------------------

interface System {
  broker: ServiceBroker;
  stop(): Promise<void>;
}

async function startSystem(options: {
  databaseUrl: string;
  env?: Record<string, string>;
  settings?: Partial<WebhooksSettings>;
  auth?: boolean;
  nodeID?: string;
}): Promise<System> {
  const config = loadConfig({
    DATABASE_URL: options.databaseUrl,
    DATABASE_POOL_SIZE: "4",
    BACKOFFICE_TOKEN: "x",
    ENCRYPTION_KEY,
    LABEL_URL_SECRET: "y",
    LOG_LEVEL: "warn",
    WEBHOOK_ALLOW_PRIVATE: "true",
    WEBHOOK_WORKER_INTERVAL_MS: "50",
    WEBHOOK_TIMEOUT_MS: "3000",
    ...options.env
  });
  const broker = new ServiceBroker({ ...brokerOptions(config), logger: false, nodeID: options.nodeID });
  attachConfig(broker, config);
  if (options.auth !== false) broker.createService(AuthService as unknown as ServiceSchema);
  broker.createService({
    ...WebhooksService,
    settings: { ...WebhooksService.settings, ...options.settings }
  } as ServiceSchema);
  await broker.start();
  return { broker, stop: () => broker.stop() };
}

const makeEvent = makeParcelEvent;

interface EnqueueAnswer {
  eventId: string;
  created: boolean;
  deliveries: { id: string; endpointId: string; status: string }[];
}

interface DeliveryPage {
  items: DeliveryItem[];
  page: number;
  size: number;
  totalElements: number;
  totalPages: number;
}

// async: the validation middleware throws synchronously, and a test wants a rejected promise.
const api = (broker: ServiceBroker) => ({
  createOrg: async (name: string) => broker.call<{ id: string }, object>("auth.createOrganization", { name }),
  setEndpoint: async (organizationId: string, url: string, secret = SECRET) =>
    broker.call<{ url: string }, object>("webhooks.setEndpoint", { organizationId, url, secret }),
  /** The event's delivery to the organisation's (only) endpoint; id "" when none was made. */
  enqueue: async (event: ParcelEvent) => {
    const answer = await broker.call<EnqueueAnswer, object>("webhooks.enqueue", { event });
    return { id: answer.deliveries[0]?.id ?? "", status: answer.deliveries[0]?.status ?? "none", answer };
  },
  list: async (organizationId: string, extra: object = {}) =>
    broker.call<DeliveryPage, object>("webhooks.listDeliveries", { organizationId, ...extra }),
  delivery: async (organizationId: string, id: string) =>
    (await broker.call<DeliveryPage, object>("webhooks.listDeliveries", { organizationId, size: 100 })).items.find(d => d.id === id)!,
  redeliver: async (id: string) => broker.call<{ id: string; status: string }, object>("webhooks.redeliver", { id }),
  runWorker: async () => broker.call<number, object>("webhooks.runWorker", {})
});

// --- the store on both engines -----------------------------------------------------------------

function storeContract(open: () => Promise<{ db: Database; close: () => Promise<void> }>) {
  let db: Database;
  let close: () => Promise<void>;

  beforeAll(async () => {
    ({ db, close } = await open());
    await migrateSchema(db, "webhooks");
  });
  afterAll(() => close());

  /** An organisation with one endpoint taking everything: each event recorded makes one delivery. */
  async function organizationWithEndpoint(): Promise<string> {
    const organizationId = randomUUID();
    await addTestEndpoint(db, organizationId);
    return organizationId;
  }
  const record = async (event: ParcelEvent) => (await store.recordEvent(db, event)).deliveries[0];

  test("a claim leases the delivery: not claimable again until the lease runs out, and a stale lease cannot record", async () => {
    const org = await organizationWithEndpoint();
    const inserted = await record(makeEvent(org));
    expect(inserted).toMatchObject({ status: "pending" });

    // A lease far longer than the test: a loaded machine between the two claims cannot end it.
    const [first] = await store.claimDue(db, { limit: 10, leaseMs: 600_000 });
    expect(first.id).toBe(inserted.id);
    expect(await store.claimDue(db, { limit: 10, leaseMs: 600_000 })).toEqual([]);

    // The first worker "crashed" and its lease ran out: set, not slept for (the lease is the
    // delivery's next_attempt_at). The delivery is due again, under a new token.
    await db.query("UPDATE webhooks.deliveries SET next_attempt_at = now() - interval '1 second' WHERE id = $1", [first.id]);
    const [second] = await store.claimDue(db, { limit: 10, leaseMs: 10_000 });
    expect(second.id).toBe(inserted.id);
    expect(second.leaseToken).not.toBe(first.leaseToken);

    const attempt = { startedAt: new Date(), durationMs: 12, statusCode: 200, error: null, worker: "w" };
    expect(await store.recordAttempt(db, { id: first.id, leaseToken: first.leaseToken! }, attempt, { status: "delivered" })).toBeNull();
    expect(await store.recordAttempt(db, { id: second.id, leaseToken: second.leaseToken! }, attempt, { status: "delivered" })).toBe(1);
    const page = await store.listDeliveries(db, { organizationId: org, endpointId: null, status: null, page: 0, size: 10 });
    expect(page.items[0]).toMatchObject({ status: "delivered", attempts: 1, nextAttemptAt: null });
    expect(page.items[0].attemptLog).toEqual([expect.objectContaining({ attempt: 1, statusCode: 200, durationMs: 12 })]);
  });

  test("a parcel's deliveries are claimed one at a time, oldest first", async () => {
    const org = await organizationWithEndpoint();
    const parcelId = randomUUID();
    const ids: string[] = [];
    for (let i = 0; i < 3; i++) ids.push((await record(makeEvent(org, { parcelId }))).id);
    const other = await record(makeEvent(org));
    const batch = await store.claimDue(db, { limit: 10, leaseMs: 10_000 });
    expect(batch.map(d => d.id).sort()).toEqual([ids[0], other.id].sort());
    // While the first is out (leased), the second of that parcel stays unclaimable.
    expect(await store.claimDue(db, { limit: 10, leaseMs: 10_000 })).toEqual([]);
    const first = batch.find(d => d.id === ids[0])!;
    const attempt = { startedAt: new Date(), durationMs: 1, statusCode: 200, error: null, worker: "w" };
    await store.recordAttempt(db, { id: first.id, leaseToken: first.leaseToken! }, attempt, { status: "delivered" });
    expect((await store.claimDue(db, { limit: 10, leaseMs: 10_000 })).map(d => d.id)).toEqual([ids[1]]);
  });
}

describe("webhooks store on PGlite (embedded)", () => {
  storeContract(async () => {
    const db = await openPglite(`memory://${randomUUID()}`);
    return { db, close: () => db.close() };
  });
});

describeWithServers(["postgres"], "webhooks store on the PostgreSQL server", () => {
  storeContract(async () => {
    const database = await createTestDatabase();
    const db = openPostgres(database.url, 2);
    return {
      db,
      close: async () => {
        await db.close();
        await database.drop();
      }
    };
  });
});

// --- the service, with a real receiver and PostgreSQL -------------------------------------------

describeWithServers(["postgres"], "webhooks service on PostgreSQL with a real HTTP receiver", () => {
  let receiver: Receiver;
  const on = (path: string) => receiver.on(path).map(received);
  let database: { url: string; drop: () => Promise<void> };
  let db: Database;
  const systems: System[] = [];

  const start = async (options: Omit<Parameters<typeof startSystem>[0], "databaseUrl"> & { databaseUrl?: string } = {}) => {
    const system = await startSystem({ databaseUrl: database.url, ...options });
    systems.push(system);
    return system;
  };

  beforeAll(async () => {
    receiver = await startReceiver();
  });
  afterAll(async () => {
    await receiver.close();
  });

  // A fresh database per test: no worker ever sees another test's deliveries.
  beforeEach(async () => {
    database = await createTestDatabase();
    db = openPostgres(database.url, 2);
  });
  afterEach(async () => {
    while (systems.length > 0) await systems.pop()!.stop();
    await db.close();
    await database.drop();
  });

  test("the request: JSON body exactly as signed, the documented headers, a signature that verifies over the raw body", async () => {
    const { broker } = await start();
    const calls = api(broker);
    const org = await calls.createOrg("Boutique Amel");
    expect(await calls.setEndpoint(org.id, `${receiver.url}/signed`)).toEqual({ url: `${receiver.url}/signed` });

    const event = makeEvent(org.id, { type: "parcel.ready_for_pickup", mode: "sandbox" });
    const before = Math.floor(Date.now() / 1000);
    const enqueued = await calls.enqueue(event);
    expect(enqueued.status).toBe("pending");
    const [request] = await waitFor(
      () => on("/signed"),
      r => r.length === 1
    );

    expect(request.headers["content-type"]).toBe("application/json");
    expect(request.headers["x-relay-event"]).toBe("parcel.ready_for_pickup");
    expect(request.headers["x-relay-delivery-id"]).toBe(enqueued.id);
    const timestamp = Number(request.headers["x-relay-timestamp"]);
    expect(timestamp).toBeGreaterThanOrEqual(before);
    expect(timestamp).toBeLessThanOrEqual(Math.floor(Date.now() / 1000));
    expect(request.headers["x-relay-signature"]).toMatch(/^sha256=[0-9a-f]{64}$/);
    expect(verifyWebhookSignature(request.raw, request.headers["x-relay-signature"] as string, SECRET)).toBe(true);
    expect(verifyWebhookSignature(request.raw, request.headers["x-relay-signature"] as string, `${SECRET}x`)).toBe(false);
    expect(request.raw).toBe(JSON.stringify(webhookBodyOf(event)));
    expect(JSON.parse(request.raw)).toMatchObject({ id: event.id, type: event.type, sandbox: true, reason: "testing the integration" });

    // The Standard Webhooks headers, checked by the official library with the secret's whsec_ form.
    expect(request.headers["webhook-id"]).toBe(enqueued.id);
    expect(request.headers["webhook-timestamp"]).toBe(request.headers["x-relay-timestamp"]);
    const standard = new Webhook(standardWebhooksSecretOf(SECRET));
    const headers = request.headers as Record<string, string>;
    expect(standard.verify(request.raw, headers)).toEqual(JSON.parse(request.raw));
    expect(() => standard.verify(request.raw, { ...headers, "webhook-timestamp": String(timestamp + 1) })).toThrow(
      WebhookVerificationError
    );
    expect(() => new Webhook(standardWebhooksSecretOf(`${SECRET}x`)).verify(request.raw, headers)).toThrow(WebhookVerificationError);

    const delivered = await waitFor(
      () => calls.delivery(org.id, enqueued.id),
      d => d.status === "delivered"
    );
    expect(delivered).toMatchObject({ eventId: event.id, eventType: event.type, attempts: 1, lastStatusCode: 200, nextAttemptAt: null });
    expect(delivered.attemptLog).toEqual([expect.objectContaining({ attempt: 1, statusCode: 200, error: null })]);

    // The secret is sealed at rest.
    const [stored] = await db.query<{ secret_enc: string }>(
      `SELECT s.secret_enc FROM webhooks.endpoint_secrets s JOIN webhooks.endpoints e ON e.id = s.endpoint_id
        WHERE e.organization_id = $1`,
      [org.id]
    );
    expect(stored.secret_enc).not.toContain(SECRET);
    expect(stored.secret_enc).toMatch(/^v1:/);
  });

  test("500 for the first three attempts: delivered on the fourth, with the same delivery id every time", async () => {
    const { broker } = await start({ settings: { retryDelayScale: 0.001 } });
    const calls = api(broker);
    const org = await calls.createOrg("Retry SARL");
    receiver.behaviour.set("/flaky", n => ({ status: n < 3 ? 500 : 200 }));
    await calls.setEndpoint(org.id, `${receiver.url}/flaky`);
    const { id } = await calls.enqueue(makeEvent(org.id));

    const delivered = await waitFor(
      () => calls.delivery(org.id, id),
      d => d.status === "delivered"
    );
    const requests = on("/flaky");
    expect(requests).toHaveLength(4);
    expect(new Set(requests.map(r => r.deliveryId))).toEqual(new Set([id]));
    expect(delivered.attempts).toBe(4);
    expect(delivered.attemptLog.map(a => a.statusCode)).toEqual([500, 500, 500, 200]);
    expect(delivered.attemptLog.map(a => a.attempt)).toEqual([1, 2, 3, 4]);
    expect(delivered.attemptLog[0].error).toBe("HTTP 500");
  });

  test("receiver down: the delivery log shows the failed attempt and the next try time", async () => {
    // The schedule stretched so that its first wait (5 s) outlasts the test whatever the machine's
    // load: "not due yet" below is then true by construction, not by how fast the test looked.
    const scale = 60;
    const { broker } = await start({ settings: { retryDelayScale: scale } });
    const calls = api(broker);
    const org = await calls.createOrg("Down Ltd");
    await calls.setEndpoint(org.id, `http://127.0.0.1:${await closedPort()}/hooks`);
    const { id } = await calls.enqueue(makeEvent(org.id));

    const pending = await waitFor(
      () => calls.delivery(org.id, id),
      d => d.attempts >= 1
    );
    const seenAt = Date.now();
    expect(pending.status).toBe("pending");
    expect(pending.lastStatusCode).toBeNull();
    expect(pending.lastError).toMatch(/ECONNREFUSED/);
    expect(pending.attemptLog).toEqual([
      expect.objectContaining({ attempt: 1, statusCode: null, error: expect.stringMatching(/ECONNREFUSED/) })
    ]);
    // The schedule's first wait is 5 s, lengthened by 0 to 20 %: counted from the attempt (never
    // shorter) and from before the test saw it (never longer), so no bound depends on the load.
    const next = Date.parse(pending.nextAttemptAt!);
    expect(next - Date.parse(pending.attemptLog[0].at)).toBeGreaterThanOrEqual(5000 * scale);
    expect(next - seenAt).toBeLessThanOrEqual(6000 * scale);
    // Not due yet: a worker pass now sends nothing.
    expect(await calls.runWorker()).toBe(0);
    expect((await calls.list(org.id, { status: "pending" })).totalElements).toBe(1);
  });

  test("410 Gone fails the delivery and disables the endpoint until it is set again", async () => {
    const { broker } = await start({ settings: { retryDelayScale: 0.001 } });
    const calls = api(broker);
    const org = await calls.createOrg("Gone SPA");
    receiver.behaviour.set("/gone", () => ({ status: 410 }));
    await calls.setEndpoint(org.id, `${receiver.url}/gone`);
    const gone = await calls.enqueue(makeEvent(org.id));

    const failed = await waitFor(
      () => calls.delivery(org.id, gone.id),
      d => d.status === "failed"
    );
    expect(failed).toMatchObject({ attempts: 1, lastStatusCode: 410 });
    const [endpoint] = await db.query<{ disabled_at: Date | null; disabled_reason: string | null }>(
      "SELECT disabled_at, disabled_reason FROM webhooks.endpoints WHERE organization_id = $1",
      [org.id]
    );
    expect(endpoint.disabled_at).not.toBeNull();
    expect(endpoint.disabled_reason).toMatch(/410/);

    // Disabled: new events are not sent.
    const skipped = await calls.enqueue(makeEvent(org.id));
    expect(skipped.status).toBe("skipped");
    expect((await calls.delivery(org.id, skipped.id)).lastError).toMatch(/disabled/);

    // Set again (here at a URL that accepts): enabled; a redelivery sends the skipped event.
    await calls.setEndpoint(org.id, `${receiver.url}/back`);
    const fresh = await calls.enqueue(makeEvent(org.id));
    expect(fresh.status).toBe("pending");
    expect(await calls.redeliver(skipped.id)).toEqual({ id: skipped.id, status: "pending" });
    await waitFor(
      () => on("/back"),
      r => r.length === 2
    );
    expect(new Set(on("/back").map(r => r.deliveryId))).toEqual(new Set([fresh.id, skipped.id]));
    expect(on("/gone")).toHaveLength(1);
  });

  test("an event enqueued twice is one delivery, sent once", async () => {
    const { broker } = await start();
    const calls = api(broker);
    const org = await calls.createOrg("Twice EURL");
    await calls.setEndpoint(org.id, `${receiver.url}/twice`);
    const event = makeEvent(org.id);
    const [a, b] = await Promise.all([calls.enqueue(event), calls.enqueue(event)]);
    const c = await calls.enqueue(event);
    expect(b.id).toBe(a.id);
    expect(c.id).toBe(a.id);
    await waitFor(
      () => calls.delivery(org.id, a.id),
      d => d.status === "delivered"
    );
    await calls.runWorker();
    expect(on("/twice")).toHaveLength(1);
    const rows = await db.query("SELECT id FROM webhooks.deliveries WHERE event_id = $1", [event.id]);
    expect(rows).toHaveLength(1);
  });

  test("no endpoint configured: the event is stored and nothing is sent; a replay to an endpoint added later sends it", async () => {
    const { broker } = await start();
    const calls = api(broker);
    const org = await calls.createOrg("Silent SNC");
    const event = makeEvent(org.id);
    const { answer } = await calls.enqueue(event);
    expect(answer).toEqual({ eventId: event.id, created: true, deliveries: [] });
    expect(await calls.runWorker()).toBe(0);
    expect((await calls.list(org.id)).totalElements).toBe(0);

    await calls.setEndpoint(org.id, `${receiver.url}/later`);
    const [endpoint] = await broker.call<{ id: string }[], object>("webhooks.listEndpoints", { organizationId: org.id });
    const since = new Date(Date.now() - 60_000).toISOString();
    expect(await broker.call("webhooks.replay", { organizationId: org.id, endpointId: endpoint.id, since, only: "all" })).toMatchObject({
      queued: 1
    });
    const [request] = await waitFor(
      () => on("/later"),
      r => r.length === 1
    );
    expect(JSON.parse(request.raw).id).toBe(event.id);
  });

  test("two workers with their own pools on one database: every delivery id reaches the receiver exactly once, in order per parcel", async () => {
    const settings = { retryDelayScale: 0.001, batchSize: 4, concurrency: 4 };
    const a = await start({ settings, nodeID: "worker-a", databaseUrl: `${database.url}?application_name=worker_a` });
    const b = await start({ settings, nodeID: "worker-b", databaseUrl: `${database.url}?application_name=worker_b`, auth: false });
    const calls = api(a.broker);
    const org = await calls.createOrg("Concurrent SARL");
    receiver.behaviour.set("/race", () => ({ status: 200, delayMs: 15 }));
    await calls.setEndpoint(org.id, `${receiver.url}/race`);

    // 25 parcels with two events each: 50 deliveries, enqueued through both nodes.
    const parcels = Array.from({ length: 25 }, () => randomUUID());
    const enqueued: { id: string; parcelId: string }[] = [];
    for (const parcelId of parcels) {
      for (const type of ["parcel.created", "parcel.ready_for_pickup"]) {
        const via = enqueued.length % 2 === 0 ? a : b;
        const { id } = await api(via.broker).enqueue(makeEvent(org.id, { parcelId, type }));
        enqueued.push({ id, parcelId });
      }
    }
    // Both loops run, and passes are forced on both at once on top.
    const forcing = Promise.all([0, 1, 2].flatMap(() => [api(a.broker).runWorker(), api(b.broker).runWorker()]));
    await waitFor(
      () => db.query<{ n: number }>("SELECT count(*)::int AS n FROM webhooks.deliveries WHERE status = 'delivered'"),
      ([row]) => row.n === 50
    );
    await forcing;

    const requests = on("/race");
    const perId = new Map<string, number>();
    for (const r of requests) perId.set(r.deliveryId, (perId.get(r.deliveryId) ?? 0) + 1);
    expect(perId.size).toBe(50);
    expect([...perId.values()].every(n => n === 1)).toBe(true);
    expect(new Set(perId.keys())).toEqual(new Set(enqueued.map(e => e.id)));

    // Per parcel: the created event before the ready_for_pickup one, never both at once.
    for (const parcelId of parcels) {
      const order = requests.filter(r => r.parcelId === parcelId).map(r => r.headers["x-relay-event"]);
      expect(order).toEqual(["parcel.created", "parcel.ready_for_pickup"]);
    }
    expect(maxInFlight(receiver.on("/race"), r => received(r).parcelId)).toBe(1);

    // Both workers did part of the work.
    const workers = await db.query<{ worker: string }>("SELECT DISTINCT worker FROM webhooks.attempts ORDER BY worker");
    expect(workers.map(w => w.worker)).toEqual(["worker-a", "worker-b"]);
  });

  test("a failed delivery (all attempts spent) is redelivered from the back-office with the same id", async () => {
    const { broker } = await start({ settings: { retryDelayScale: 0.00001 } });
    const calls = api(broker);
    const org = await calls.createOrg("Redeliver SAS");
    let healthy = false;
    receiver.behaviour.set("/redeliver", () => ({ status: healthy ? 200 : 503 }));
    await calls.setEndpoint(org.id, `${receiver.url}/redeliver`);
    const { id } = await calls.enqueue(makeEvent(org.id));

    const failed = await waitFor(
      () => calls.delivery(org.id, id),
      d => d.status === "failed",
      30_000
    );
    expect(failed.attempts).toBe(MAX_ATTEMPTS);
    expect(failed.lastStatusCode).toBe(503);
    expect(on("/redeliver")).toHaveLength(MAX_ATTEMPTS);
    expect((await calls.list(org.id, { status: "failed" })).items.map(d => d.id)).toEqual([id]);

    healthy = true;
    expect(await calls.redeliver(id)).toEqual({ id, status: "pending" });
    const delivered = await waitFor(
      () => calls.delivery(org.id, id),
      d => d.status === "delivered"
    );
    expect(delivered.attempts).toBe(MAX_ATTEMPTS + 1);
    expect(delivered.attemptLog.at(-1)).toMatchObject({ attempt: MAX_ATTEMPTS + 1, statusCode: 200 });
    const requests = on("/redeliver");
    expect(requests).toHaveLength(MAX_ATTEMPTS + 1);
    expect(new Set(requests.map(r => r.deliveryId))).toEqual(new Set([id]));

    // A delivered one can be sent again too, still under its id.
    await calls.redeliver(id);
    await waitFor(
      () => on("/redeliver"),
      r => r.length === MAX_ATTEMPTS + 2
    );
    expect(on("/redeliver").at(-1)!.deliveryId).toBe(id);

    await expect(calls.redeliver(randomUUID())).rejects.toMatchObject({ type: "NOT_FOUND", code: 404 });
  });

  test("a receiver slower than the time-out: the attempt is cut and logged as a time-out", async () => {
    const { broker } = await start({ env: { WEBHOOK_TIMEOUT_MS: "300" } });
    const calls = api(broker);
    const org = await calls.createOrg("Slow SARL");
    // The receiver would answer after 10 s: an attempt logged shorter than that was cut, however
    // slow this machine is (no bound tighter than what the assertion means).
    receiver.behaviour.set("/slow", () => ({ status: 200, delayMs: 10_000 }));
    await calls.setEndpoint(org.id, `${receiver.url}/slow`);
    const { id } = await calls.enqueue(makeEvent(org.id));
    const pending = await waitFor(
      () => calls.delivery(org.id, id),
      d => d.attempts >= 1
    );
    expect(pending).toMatchObject({ status: "pending", lastStatusCode: null, lastError: "timed out after 300 ms" });
    expect(pending.attemptLog[0].durationMs).toBeGreaterThanOrEqual(250);
    expect(pending.attemptLog[0].durationMs).toBeLessThan(10_000);
  });

  test("Retry-After on 429 is honoured beyond the schedule", async () => {
    const { broker } = await start();
    const calls = api(broker);
    const org = await calls.createOrg("Busy SARL");
    receiver.behaviour.set("/busy", () => ({ status: 429, headers: { "Retry-After": "120" } }));
    await calls.setEndpoint(org.id, `${receiver.url}/busy`);
    const { id } = await calls.enqueue(makeEvent(org.id));
    const pending = await waitFor(
      () => calls.delivery(org.id, id),
      d => d.attempts >= 1
    );
    expect(pending).toMatchObject({ status: "pending", lastStatusCode: 429 });
    const wait = Date.parse(pending.nextAttemptAt!) - Date.now();
    expect(wait).toBeGreaterThan(110_000);
    expect(wait).toBeLessThanOrEqual(121_000);
  });

  test("the delivery list: newest first, paged, filtered by status, query strings as text", async () => {
    const { broker } = await start();
    const calls = api(broker);
    const org = await calls.createOrg("Pages SARL");
    // A disabled endpoint: its deliveries are stored as skipped.
    await calls.setEndpoint(org.id, `${receiver.url}/paused`);
    const [endpoint] = await broker.call<{ id: string }[], object>("webhooks.listEndpoints", { organizationId: org.id });
    await broker.call("webhooks.updateEndpoint", { organizationId: org.id, endpointId: endpoint.id, enabled: false });
    const ids: string[] = [];
    for (let i = 0; i < 3; i++) ids.push((await calls.enqueue(makeEvent(org.id))).id);

    const first = await calls.list(org.id, { size: "2", page: "0", somethingElse: "ignored" });
    expect(first).toMatchObject({ page: 0, size: 2, totalElements: 3, totalPages: 2 });
    expect(first.items.map(d => d.id)).toEqual([ids[2], ids[1]]);
    const second = await calls.list(org.id, { size: "2", page: "1" });
    expect(second.items.map(d => d.id)).toEqual([ids[0]]);
    expect((await calls.list(org.id, { status: "skipped" })).totalElements).toBe(3);
    expect(await calls.list(org.id, { status: "", page: "", size: "" })).toMatchObject({ page: 0, size: 20, totalElements: 3 });
    expect(await calls.list(org.id, { status: "pending" })).toMatchObject({
      items: [],
      totalElements: 0,
      totalPages: 0,
      page: 0,
      size: 20
    });
    expect(first.items[0]).toEqual({
      id: ids[2],
      eventId: expect.any(String),
      endpointId: endpoint.id,
      eventType: "parcel.created",
      status: "skipped",
      attempts: 0,
      nextAttemptAt: null,
      lastStatusCode: null,
      lastError: "webhook endpoint disabled: disabled by hand",
      deliveredAt: null,
      createdAt: expect.any(String),
      attemptLog: []
    });

    await expect(calls.list(org.id, { size: "0" })).rejects.toMatchObject({ type: "VALIDATION_FAILED" });
    await expect(calls.list(org.id, { size: 101 })).rejects.toMatchObject({ type: "VALIDATION_FAILED" });
    await expect(calls.list(org.id, { status: "lost" })).rejects.toMatchObject({ type: "VALIDATION_FAILED" });
  });

  test("endpoint and enqueue validation: URL shape and length, secret length, unknown organisation, malformed event", async () => {
    const { broker } = await start();
    const calls = api(broker);
    const org = await calls.createOrg("Strict SARL");
    const refused = (p: Promise<unknown>) => expect(p).rejects.toMatchObject({ type: "VALIDATION_FAILED" });
    await refused(calls.setEndpoint(org.id, "ftp://example.com/hook"));
    await refused(calls.setEndpoint(org.id, `https://example.com/${"a".repeat(2000)}`));
    await refused(calls.setEndpoint(org.id, "https://user:pass@example.com/hook"));
    await refused(calls.setEndpoint(org.id, `${receiver.url}/x`, "short"));
    await refused(calls.setEndpoint(org.id, `${receiver.url}/x`, "s".repeat(201)));
    await expect(calls.setEndpoint(randomUUID(), `${receiver.url}/x`)).rejects.toMatchObject({ type: "ORGANIZATION_NOT_FOUND" });
    const bad = makeEvent(org.id) as unknown as { data: { parcel: { id: string } } };
    bad.data.parcel.id = "not-a-uuid";
    await refused(calls.enqueue(bad as unknown as ParcelEvent));
  });

  test("SSRF guard: loopback refused when private targets are not allowed, at configuration and again at send time", async () => {
    const { broker } = await start({ env: { WEBHOOK_ALLOW_PRIVATE: "false" } });
    const calls = api(broker);
    const org = await calls.createOrg("Guarded SARL");
    await expect(calls.setEndpoint(org.id, "http://127.0.0.1/")).rejects.toMatchObject({
      type: "VALIDATION_FAILED",
      data: { details: [expect.objectContaining({ field: "url", message: expect.stringMatching(/non-public/) })] }
    });
    await expect(calls.setEndpoint(org.id, "http://[::1]:8080/hook")).rejects.toMatchObject({ type: "VALIDATION_FAILED" });

    // An endpoint that slipped in (set while private targets were allowed) is still refused at send time.
    await store.insertEndpoint(db, {
      id: randomUUID(),
      organizationId: org.id,
      url: `${receiver.url}/ssrf`,
      description: null,
      mode: "both",
      eventTypes: null,
      enabled: true,
      secretEnc: encryptField(SECRET, ENCRYPTION_KEY),
      now: new Date()
    });
    const { id } = await calls.enqueue(makeEvent(org.id));
    const pending = await waitFor(
      () => calls.delivery(org.id, id),
      d => d.attempts >= 1
    );
    expect(pending.attemptLog[0]).toMatchObject({ statusCode: null, error: expect.stringMatching(/SSRF guard.*non-public/) });
    expect(on("/ssrf")).toHaveLength(0);
  });
});
