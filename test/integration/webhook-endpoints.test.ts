import { randomBytes, randomUUID } from "node:crypto";
import { ServiceBroker, ServiceSchema } from "moleculer";
import { Webhook } from "standardwebhooks";
import { checkStandardWebhook } from "../../clients/typescript/verify-webhook";
import { loadConfig } from "../../lib/config";
import { Database } from "../../lib/db/database";
import { openPostgres } from "../../lib/db/postgres";
import { ParcelEvent } from "../../lib/events";
import { DISABLE_ENDPOINT_AFTER_MS } from "../../services/webhooks/retry-schedule";
import { verifyWebhookSignature } from "../../services/webhooks/signing";
import { attachConfig } from "../../mixins/config.mixin";
import { brokerOptions } from "../../moleculer.config";
import AuthService from "../../services/auth.service";
import WebhooksService, { WebhooksSettings } from "../../services/webhooks.service";
import type { EndpointView, EndpointWithSecret, EventPage } from "../../services/webhooks/webhooks.params";
import { makeParcelEvent, waitFor } from "../helpers/parcel-events";
import { createTestDatabase } from "../helpers/postgres";
import { ReceivedRequest, Receiver, startReceiver } from "../helpers/receivers";
import { describeWithServers } from "../helpers/servers";
import { storedFeed } from "../helpers/webhooks-store";

/**
 * Issue 12 on the service itself, with a clock the test moves (the service's `now` method): secret
 * rotation and its overlap, the 5-day disabling and its notice, one endpoint's outage against
 * another's deliveries, and the order of the events feed under concurrent writers.
 */

const ENCRYPTION_KEY = randomBytes(32).toString("hex");
const HOUR_MS = 3600_000;

const makeEvent = makeParcelEvent;

describeWithServers(["postgres"], "webhook endpoints, rotation and disabling, with a controlled clock", () => {
  let receiver: Receiver;
  let database: { url: string; drop: () => Promise<void> };
  let db: Database;
  let broker: ServiceBroker;
  /** How far the service's clock is ahead of the real one. */
  let clockAheadMs = 0;
  const serviceNow = () => new Date(Date.now() + clockAheadMs);

  async function start(settings: Partial<WebhooksSettings> = {}) {
    const config = loadConfig({
      DATABASE_URL: database.url,
      DATABASE_POOL_SIZE: "4",
      BACKOFFICE_TOKEN: "x",
      ENCRYPTION_KEY,
      LABEL_URL_SECRET: "y",
      LOG_LEVEL: "warn",
      WEBHOOK_ALLOW_PRIVATE: "true",
      WEBHOOK_WORKER_INTERVAL_MS: "50",
      WEBHOOK_TIMEOUT_MS: "3000"
    });
    broker = new ServiceBroker({ ...brokerOptions(config), logger: false });
    attachConfig(broker, config);
    broker.createService(AuthService as unknown as ServiceSchema);
    broker.createService({
      ...WebhooksService,
      settings: { ...WebhooksService.settings, ...settings },
      methods: { ...WebhooksService.methods, now: serviceNow }
    } as ServiceSchema);
    await broker.start();
  }

  const call = <T>(action: string, params: object) => broker.call<T, object>(action, params);
  const organization = async (name: string) => (await call<{ id: string }>("auth.createOrganization", { name })).id;
  const createEndpoint = (organizationId: string, path: string, extra: object = {}) =>
    call<EndpointWithSecret>("webhooks.createEndpoint", { organizationId, url: `${receiver.url}${path}`, ...extra });
  const enqueue = (event: ParcelEvent) =>
    call<{ deliveries: { id: string; endpointId: string; status: string }[] }>("webhooks.enqueue", { event });
  const headersOf = (request: ReceivedRequest) => request.headers as Record<string, string>;
  const nowSeconds = () => Math.floor(serviceNow().getTime() / 1000);

  beforeAll(async () => {
    receiver = await startReceiver();
  });
  afterAll(() => receiver.close());
  beforeEach(async () => {
    clockAheadMs = 0;
    database = await createTestDatabase();
    db = openPostgres(database.url, 2);
  });
  afterEach(async () => {
    await broker?.stop();
    await db.close();
    await database.drop();
  });

  test("rotation: during the overlap a receiver with only the old secret and one with only the new both verify; after it, only the new", async () => {
    await start();
    const org = await organization("Rotation SARL");
    const created = await createEndpoint(org, "/rotation");
    const oldSecret = created.secret;
    expect(oldSecret).toMatch(/^whsec_[A-Za-z0-9+/]{43}=$/);
    expect(created.standardWebhooksSecret).toBe(oldSecret);
    const endpointId = created.id;

    const deliveredRequest = async (n: number) => (
      await receiver.waitFor(() => receiver.on("/rotation").length >= n),
      receiver.on("/rotation")[n - 1]
    );

    await enqueue(makeEvent(org));
    const before = await deliveredRequest(1);
    expect(before.headers["webhook-signature"]).toMatch(/^v1,[A-Za-z0-9+/]{43}=$/);
    expect(() => new Webhook(oldSecret).verify(before.rawBody, headersOf(before))).not.toThrow();

    const rotated = await call<EndpointWithSecret>("webhooks.rotateSecret", { organizationId: org, endpointId });
    const newSecret = rotated.secret;
    expect(newSecret).not.toBe(oldSecret);
    expect(rotated.secrets).toEqual([
      { createdAt: expect.any(String), expiresAt: null },
      { createdAt: created.secrets[0].createdAt, expiresAt: expect.any(String) }
    ]);
    const overlapEnd = Date.parse(rotated.secrets[1].expiresAt!);
    expect(Math.abs(overlapEnd - (serviceNow().getTime() + 24 * HOUR_MS))).toBeLessThan(60_000);
    // Neither secret is ever shown again.
    const listed = JSON.stringify(await call<EndpointView[]>("webhooks.listEndpoints", { organizationId: org }));
    expect(listed).not.toContain(oldSecret.slice(6));
    expect(listed).not.toContain(newSecret.slice(6));

    // During the overlap: two v1 entries, newest first; each receiver verifies with the secret it has.
    await enqueue(makeEvent(org));
    const during = await deliveredRequest(2);
    expect(String(during.headers["webhook-signature"]).split(" ")).toHaveLength(2);
    expect(() => new Webhook(oldSecret).verify(during.rawBody, headersOf(during))).not.toThrow();
    expect(() => new Webhook(newSecret).verify(during.rawBody, headersOf(during))).not.toThrow();
    expect(verifyWebhookSignature(during.rawBody, String(during.headers["x-relay-signature"]), newSecret)).toBe(true);
    expect(verifyWebhookSignature(during.rawBody, String(during.headers["x-relay-signature"]), oldSecret)).toBe(false);

    // The overlap ends: the old secret signs nothing any more.
    clockAheadMs = overlapEnd - Date.now() + 1000;
    await enqueue(makeEvent(org));
    const after = await deliveredRequest(3);
    expect(String(after.headers["webhook-signature"]).split(" ")).toHaveLength(1);
    // Signed at the service's time, a day ahead of the real one.
    expect(Number(after.headers["webhook-timestamp"])).toBeGreaterThan(Date.now() / 1000 + 23 * 3600);
    const check = (secret: string) => checkStandardWebhook(after.rawBody, headersOf(after), secret, { nowSeconds: nowSeconds() });
    expect(check(newSecret)).toBe("valid");
    expect(check(oldSecret)).toBe("no_matching_signature");
    expect((await call<EndpointView>("webhooks.getEndpoint", { organizationId: org, endpointId })).secrets).toEqual([
      { createdAt: expect.any(String), expiresAt: null }
    ]);

    // Overlap 0 (a leaked secret): the previous secret stops at once; a chosen secret works too.
    const chosen = "mon-secret-choisi-par-la-boutique";
    const revoked = await call<EndpointWithSecret>("webhooks.rotateSecret", {
      organizationId: org,
      endpointId,
      secret: chosen,
      overlapSeconds: 0
    });
    expect(revoked.secret).toBe(chosen);
    expect(revoked.standardWebhooksSecret).toBe(`whsec_${Buffer.from(chosen).toString("base64")}`);
    expect(revoked.secrets).toHaveLength(1);
    await enqueue(makeEvent(org));
    const leaked = await deliveredRequest(4);
    expect(checkStandardWebhook(leaked.rawBody, headersOf(leaked), chosen, { nowSeconds: nowSeconds() })).toBe("valid");
    expect(checkStandardWebhook(leaked.rawBody, headersOf(leaked), newSecret, { nowSeconds: nowSeconds() })).toBe("no_matching_signature");
    expect(verifyWebhookSignature(leaked.rawBody, String(leaked.headers["x-relay-signature"]), chosen)).toBe(true);
  });

  test("five days without a success disable the endpoint with a notice; its deliveries are kept and a replay sends them", async () => {
    await start({ retryDelayScale: 0.00001 });
    const org = await organization("Panne Prolongée SARL");
    let healthy = false;
    receiver.behaviour.set("/down", () => ({ status: healthy ? 200 : 500 }));
    const { id: endpointId } = await createEndpoint(org, "/down");
    const view = () => call<EndpointView>("webhooks.getEndpoint", { organizationId: org, endpointId });

    // Day 0: a first event fails all its attempts (the schedule runs in moments at this scale).
    const first = makeEvent(org);
    const [firstDelivery] = (await enqueue(first)).deliveries;
    const list = () => call<{ items: { id: string; status: string }[] }>("webhooks.listDeliveries", { organizationId: org, size: 100 });
    await waitFor(list, page => page.items.find(d => d.id === firstDelivery.id)?.status === "failed");
    const failing = await view();
    expect(failing).toMatchObject({ enabled: true, failingSince: expect.any(String), lastSuccessAt: null });

    // Not yet 5 days: another failure leaves it enabled.
    clockAheadMs = DISABLE_ENDPOINT_AFTER_MS - HOUR_MS;
    const second = makeEvent(org);
    await enqueue(second);
    await waitFor(list, page => page.items.filter(d => d.status === "failed").length === 2);
    expect((await view()).enabled).toBe(true);

    // Day 5: the next failure disables it; what is left of that delivery is kept, skipped.
    clockAheadMs = DISABLE_ENDPOINT_AFTER_MS + HOUR_MS;
    const third = makeEvent(org);
    await enqueue(third);
    const disabled = await waitFor(view, v => !v.enabled);
    expect(disabled).toMatchObject({ disabledReason: "failing for 5 days", failingSince: failing.failingSince });
    await waitFor(list, page => page.items.every(d => d.status !== "pending"));
    const fourth = makeEvent(org);
    expect((await enqueue(fourth)).deliveries).toEqual([expect.objectContaining({ status: "skipped" })]);
    const requestsWhileDisabled = receiver.on("/down").length;

    const notices = await call<{ kind: string; subject: string; body: string; endpointId: string }[]>("webhooks.listNotices", {
      organizationId: org
    });
    expect(notices).toHaveLength(1);
    expect(notices[0]).toMatchObject({ kind: "webhook.endpoint_disabled", endpointId, language: "fr" });
    expect(notices[0].subject).toContain("Panne Prolongée SARL");
    expect(notices[0].body).toContain("Après 5 jours sans un seul succès");
    expect(notices[0].body).toContain("After 5 days without a single success");
    expect(notices[0].body).toContain("HTTP 500");
    expect(notices[0].body).not.toContain("/down");

    // A replay is refused while disabled; enabled again, the failed and skipped deliveries go out once more.
    await expect(
      call("webhooks.replay", { organizationId: org, endpointId, since: new Date(Date.now() - HOUR_MS).toISOString(), only: "failed" })
    ).rejects.toMatchObject({ type: "WEBHOOK_ENDPOINT_DISABLED", code: 409 });
    healthy = true;
    const enabled = await call<EndpointView>("webhooks.updateEndpoint", { organizationId: org, endpointId, enabled: true });
    expect(enabled).toMatchObject({ enabled: true, disabledAt: null, disabledReason: null, failingSince: null });
    const replayed = await call<{ queued: number }>("webhooks.replay", {
      organizationId: org,
      endpointId,
      since: new Date(Date.now() - HOUR_MS).toISOString(),
      only: "failed"
    });
    expect(replayed.queued).toBe(4);
    await waitFor(list, page => page.items.length === 4 && page.items.every(d => d.status === "delivered"));
    const resent = receiver
      .on("/down")
      .slice(requestsWhileDisabled)
      .map(r => JSON.parse(r.rawBody).id);
    expect(resent.sort()).toEqual([first.id, second.id, third.id, fourth.id].sort());
    // The worker records the deliveries, then the endpoint's health in a statement of its own.
    expect((await waitFor(view, v => v.lastSuccessAt !== null)).lastSuccessAt).not.toBeNull();
  });

  test("one endpoint's outage holds back only its own deliveries; filters and modes choose what each endpoint gets", async () => {
    await start();
    const org = await organization("Deux Adresses SARL");
    // Down for maintenance: asks to be left alone for an hour.
    receiver.behaviour.set("/broken", () => ({ status: 503, headers: { "Retry-After": "3600" } }));
    const broken = await createEndpoint(org, "/broken");
    const healthy = await createEndpoint(org, "/healthy", { mode: "live" });
    const picky = await createEndpoint(org, "/picky", { mode: "sandbox", eventTypes: ["parcel.delivered"] });

    const parcelId = randomUUID();
    const created = makeEvent(org, { parcelId, sequence: 1 });
    const ready = makeEvent(org, { parcelId, type: "parcel.ready_for_pickup", sequence: 2 });
    expect((await enqueue(created)).deliveries.map(d => d.endpointId).sort()).toEqual([broken.id, healthy.id].sort());
    await enqueue(ready);
    // The healthy endpoint gets both in order while the broken one waits an hour to retry its first.
    await receiver.waitFor(() => receiver.on("/healthy").length === 2);
    expect(receiver.on("/healthy").map(r => JSON.parse(r.rawBody).sequence)).toEqual([1, 2]);
    expect(receiver.on("/broken")).toHaveLength(1);

    const sandboxCreated = makeEvent(org, { mode: "sandbox" });
    const sandboxDelivered = makeEvent(org, { mode: "sandbox", type: "parcel.delivered", sequence: 2 });
    expect((await enqueue(sandboxCreated)).deliveries.map(d => d.endpointId)).toEqual([broken.id]);
    expect((await enqueue(sandboxDelivered)).deliveries.map(d => d.endpointId).sort()).toEqual([broken.id, picky.id].sort());
    await receiver.waitFor(() => receiver.on("/picky").length === 1);
    expect(JSON.parse(receiver.on("/picky")[0].rawBody).id).toBe(sandboxDelivered.id);
  });

  test("the events feed: concurrent writers, a reader paging all along; every event read once, in order, none skipped", async () => {
    await start();
    const org = await organization("Flux SARL");
    const written: string[] = [];
    const auth = { organizationId: org, mode: "live" };
    const writers = Array.from({ length: 6 }, async () => {
      for (let i = 0; i < 50; i++) {
        const event = makeEvent(org);
        await enqueue(event);
        written.push(event.id);
      }
    });
    const read: string[] = [];
    let after: string | null = null;
    const page = async () => {
      const answer: EventPage = await broker.call("webhooks.listEvents", { after, limit: 7 }, { meta: { auth } });
      read.push(...answer.items.map(e => e.id));
      after = answer.next;
      return answer;
    };
    const writing = Promise.all(writers);
    let done = false;
    void writing.then(() => (done = true));
    while (!done) await page();
    while ((await page()).hasMore);
    expect(read).toHaveLength(300);
    expect(new Set(read).size).toBe(300);
    expect(new Set(read)).toEqual(new Set(written));
    // The feed's order is the order the events were stored in.
    const stored = await storedFeed(db, org);
    expect(read).toEqual(stored.map(s => s.event.id));
  });

  test("validation of the endpoint calls: filter values, overlap bounds, another organisation's endpoint, a date that does not exist", async () => {
    await start();
    const org = await organization("Stricte SARL");
    const other = await organization("Autre SARL");
    const { id: endpointId } = await createEndpoint(org, "/strict");
    const refused = (p: Promise<unknown>) => expect(p).rejects.toMatchObject({ type: "VALIDATION_FAILED" });
    await refused(createEndpoint(org, "/x", { eventTypes: [] }));
    await refused(createEndpoint(org, "/x", { eventTypes: ["parcel.nope"] }));
    await refused(createEndpoint(org, "/x", { eventTypes: ["parcel.created", "parcel.created"] }));
    await refused(createEndpoint(org, "/x", { mode: "test" }));
    await refused(call("webhooks.rotateSecret", { organizationId: org, endpointId, overlapSeconds: 7 * 24 * 3600 + 1 }));
    await refused(call("webhooks.rotateSecret", { organizationId: org, endpointId, secret: "short" }));
    await refused(call("webhooks.replay", { organizationId: org, endpointId, since: "2026-02-30T00:00:00Z" }));
    await refused(call("webhooks.replay", { organizationId: org, endpointId, since: "yesterday" }));
    const notFound = { type: "WEBHOOK_ENDPOINT_NOT_FOUND", code: 404 };
    await expect(call("webhooks.getEndpoint", { organizationId: other, endpointId })).rejects.toMatchObject(notFound);
    await expect(call("webhooks.updateEndpoint", { organizationId: other, endpointId, enabled: false })).rejects.toMatchObject(notFound);
    await expect(call("webhooks.rotateSecret", { organizationId: other, endpointId })).rejects.toMatchObject(notFound);
    await expect(call("webhooks.deleteEndpoint", { organizationId: other, endpointId })).rejects.toMatchObject(notFound);
    await expect(call("webhooks.testEndpoint", { organizationId: other, endpointId })).rejects.toMatchObject(notFound);
    await expect(call("webhooks.createEndpoint", { organizationId: randomUUID(), url: `${receiver.url}/x` })).rejects.toMatchObject({
      type: "ORGANIZATION_NOT_FOUND"
    });
    await expect(call("webhooks.deleteEndpoint", { organizationId: org, endpointId })).resolves.toBeNull();
    expect(await call("webhooks.listEndpoints", { organizationId: org })).toEqual([]);
  });
});
