import http from "node:http";
import type { AddressInfo } from "node:net";
import { Webhook, WebhookVerificationError } from "standardwebhooks";
import { verifyWebhookSignature } from "../../services/webhooks/signing";
import { backoffice, HttpResult, partner } from "../helpers/http";
import { apiResponseValidator } from "../helpers/openapi-validator";
import { ReceivedRequest, Receiver, startReceiver } from "../helpers/receivers";
import type { SystemUnderTest } from "./gateway-contract";

/**
 * Issue 12 through HTTP, the same assertions in embedded and distributed mode: Standard Webhooks
 * signatures beside X-Relay-Signature, rotation, several endpoints with their filters and modes,
 * the events API (isolation, paging over 1,000 events, payloads equal to the deliveries), replay
 * after an outage, test-send, and the endpoints' back-office calls.
 */

const PARCEL = { recipientName: "Yacine Merabet", recipientPhone: "0661 22 33 44", weightG: 900, destinationRelayCode: "DZ-16-HYDRA" };

interface Merchant {
  orgId: string;
  live: ReturnType<typeof partner>;
  sandbox: ReturnType<typeof partner>;
}

interface EventBody {
  id: string;
  type: string;
  createdAt: string;
  occurredAt: string;
  sequence: number;
  sandbox: boolean;
  reason: string | null;
  data: { previousStatus: string | null; parcel: { id: string; status: string; labelUrl: string | null } & Record<string, unknown> };
}

function expectError(res: HttpResult, status: number, code: string, field?: string) {
  expect({ status: res.status, code: res.body?.code }).toEqual({ status, code });
  if (field) expect(res.body.details.map((d: { field: string }) => d.field)).toContain(field);
}

const headersOf = (request: ReceivedRequest) => request.headers as Record<string, string>;
const bodyOf = (request: ReceivedRequest) => JSON.parse(request.rawBody) as EventBody;
const withoutLabelUrl = (body: EventBody) => ({ ...body, data: { ...body.data, parcel: { ...body.data.parcel, labelUrl: null } } });

async function until<T>(probe: () => Promise<T>, done: (value: T) => boolean, what: string, timeoutMs = 60_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe();
    if (done(value)) return value;
    if (Date.now() > deadline) throw new Error(`${what}: not reached within ${timeoutMs} ms`);
    await new Promise(resolve => setTimeout(resolve, 100));
  }
}

/** A port nothing listens on. */
async function closedPort(): Promise<number> {
  const server = http.createServer();
  await new Promise<void>(resolve => server.listen(0, "127.0.0.1", resolve));
  const port = (server.address() as AddressInfo).port;
  await new Promise<void>(resolve => server.close(() => resolve()));
  return port;
}

export function webhooksContract(system: () => SystemUnderTest): void {
  const base = () => system().baseUrl;
  const bo = () => backoffice(base(), system().backofficeToken);
  let receiver: Receiver;
  const secrets: string[] = [];

  beforeAll(async () => {
    receiver = await startReceiver();
  });
  afterAll(() => receiver.close());

  async function merchant(name: string, sandboxDzd = 50_000): Promise<Merchant> {
    const org = await bo().createOrganization(name);
    const liveKey = (await bo().createKey(org.id, { rateLimitPerMinute: 1_000_000 })).key;
    const sandboxKey = (await bo().createKey(org.id, { mode: "sandbox", rateLimitPerMinute: 1_000_000 })).key;
    await bo().call("POST", `/organizations/${org.id}/wallet/top-ups`, { amountDzd: 50_000 });
    await bo().call("POST", `/organizations/${org.id}/wallet/top-ups`, { amountDzd: sandboxDzd, mode: "sandbox" });
    return { orgId: org.id, live: partner(base(), liveKey), sandbox: partner(base(), sandboxKey) };
  }

  async function addEndpoint(orgId: string, path: string, settings: object = {}) {
    const res = await bo().call("POST", `/organizations/${orgId}/webhook-endpoints`, { url: `${receiver.url}${path}`, ...settings });
    expect(res.status).toBe(201);
    secrets.push(res.body.secret);
    return res.body as { id: string; secret: string; standardWebhooksSecret: string };
  }

  async function createParcel(call: ReturnType<typeof partner>): Promise<string> {
    const res = await call("POST", "/parcels", PARCEL);
    expect(res.status).toBe(201);
    return res.body.id;
  }

  /** Every event of the key's organisation and mode, paging until the feed holds `count` of them. */
  async function feed(call: ReturnType<typeof partner>, count: number, query = ""): Promise<EventBody[]> {
    const events: EventBody[] = [];
    let after: string | null = null;
    await until(
      async () => {
        for (;;) {
          const res: HttpResult = await call("GET", `/events?limit=100${query}${after ? `&after=${after}` : ""}`);
          expect(res.status).toBe(200);
          events.push(...res.body.items);
          after = res.body.next;
          if (!res.body.hasMore) return events.length;
        }
      },
      n => n >= count,
      `${count} events in the feed`
    );
    return events;
  }

  test("deliveries of live and sandbox parcels verify with the standardwebhooks package and with X-Relay-Signature; an altered timestamp fails", async () => {
    const m = await merchant("Signatures SARL");
    const endpoint = await addEndpoint(m.orgId, `/std-${m.orgId}`);
    expect(endpoint.secret).toMatch(/^whsec_[A-Za-z0-9+/]{43}=$/);
    expect(endpoint.standardWebhooksSecret).toBe(endpoint.secret);

    const live = await createParcel(m.live);
    expect((await m.live("POST", `/parcels/${live}/cancel`, { reason: "client absent" })).status).toBe(200);
    const sandbox = await createParcel(m.sandbox);
    expect((await m.sandbox("POST", `/sandbox/parcels/${sandbox}/trigger-event`, { toStatus: "DELIVERED", reason: "essai" })).status).toBe(
      202
    );
    await receiver.waitFor(() => receiver.on(`/std-${m.orgId}`).length >= 4, 60_000);

    const requests = receiver.on(`/std-${m.orgId}`);
    expect(requests).toHaveLength(4);
    const standard = new Webhook(endpoint.secret);
    for (const request of requests) {
      const body = bodyOf(request);
      expect(standard.verify(request.rawBody, headersOf(request))).toEqual(body);
      expect(verifyWebhookSignature(request.rawBody, headersOf(request)["x-relay-signature"], endpoint.secret)).toBe(true);
      expect(request.headers["webhook-id"]).toBe(request.headers["x-relay-delivery-id"]);
      expect(request.headers["webhook-timestamp"]).toBe(request.headers["x-relay-timestamp"]);
      expect(apiResponseValidator().validateWebhook("partner", { headers: request.headers, body })).toEqual([]);
      // Replayed later with a fresh-looking timestamp: the signature covers the timestamp, so it fails.
      const stamp = Number(request.headers["webhook-timestamp"]);
      for (const altered of [stamp + 1, stamp - 1, stamp + 600]) {
        expect(() => standard.verify(request.rawBody, { ...headersOf(request), "webhook-timestamp": String(altered) })).toThrow(
          WebhookVerificationError
        );
      }
      expect(() => new Webhook(`whsec_${Buffer.alloc(32, 7).toString("base64")}`).verify(request.rawBody, headersOf(request))).toThrow(
        WebhookVerificationError
      );
    }
    const bodies = requests.map(bodyOf);
    expect(bodies.filter(b => b.data.parcel.id === live).map(b => [b.type, b.sequence, b.sandbox])).toEqual([
      ["parcel.created", 1, false],
      ["parcel.cancelled", 2, false]
    ]);
    expect(bodies.filter(b => b.data.parcel.id === sandbox).map(b => [b.type, b.sequence, b.sandbox, b.reason])).toEqual([
      ["parcel.created", 1, true, null],
      ["parcel.delivered", 2, true, "essai"]
    ]);
  });

  test("rotation: during the overlap a receiver with only the old secret and one with only the new both verify; overlap 0 leaves only the newest", async () => {
    const m = await merchant("Rotation SARL");
    const path = `/rotate-${m.orgId}`;
    const { id, secret: oldSecret } = await addEndpoint(m.orgId, path);
    const rotated = await bo().call("POST", `/organizations/${m.orgId}/webhook-endpoints/${id}/rotate-secret`, {});
    expect(rotated.status).toBe(200);
    const newSecret: string = rotated.body.secret;
    secrets.push(newSecret);
    expect(rotated.body.secrets).toHaveLength(2);
    const overlapEnd = Date.parse(rotated.body.secrets[1].expiresAt);
    expect(Math.abs(overlapEnd - Date.now() - 24 * 3600_000)).toBeLessThan(5 * 60_000);

    await createParcel(m.live);
    await receiver.waitFor(() => receiver.on(path).length >= 1);
    const during = receiver.on(path)[0];
    expect(String(during.headers["webhook-signature"]).split(" ")).toHaveLength(2);
    expect(() => new Webhook(oldSecret).verify(during.rawBody, headersOf(during))).not.toThrow();
    expect(() => new Webhook(newSecret).verify(during.rawBody, headersOf(during))).not.toThrow();
    expect(verifyWebhookSignature(during.rawBody, headersOf(during)["x-relay-signature"], newSecret)).toBe(true);
    expect(verifyWebhookSignature(during.rawBody, headersOf(during)["x-relay-signature"], oldSecret)).toBe(false);

    const revoked = await bo().call("POST", `/organizations/${m.orgId}/webhook-endpoints/${id}/rotate-secret`, { overlapSeconds: 0 });
    const newest: string = revoked.body.secret;
    secrets.push(newest);
    expect(revoked.body.secrets).toEqual([{ createdAt: expect.any(String), expiresAt: null }]);
    await createParcel(m.live);
    await receiver.waitFor(() => receiver.on(path).length >= 2);
    const after = receiver.on(path)[1];
    expect(() => new Webhook(newest).verify(after.rawBody, headersOf(after))).not.toThrow();
    for (const gone of [oldSecret, newSecret]) {
      expect(() => new Webhook(gone).verify(after.rawBody, headersOf(after))).toThrow(WebhookVerificationError);
    }
  });

  test("two endpoints with different filters and modes receive exactly the events they asked for", async () => {
    const m = await merchant("Deux Boutiques SARL");
    const picky = await addEndpoint(m.orgId, `/picky-${m.orgId}`, {
      mode: "live",
      eventTypes: ["parcel.created", "parcel.cancelled"],
      description: "ERP: creations and cancellations"
    });
    const sandboxOnly = await addEndpoint(m.orgId, `/sandbox-${m.orgId}`, { mode: "sandbox" });

    const first = await createParcel(m.live);
    expect((await bo().call("POST", `/parcels/${first}/transitions`, { toStatus: "READY_FOR_PICKUP" })).status).toBe(200);
    expect((await m.live("POST", `/parcels/${first}/cancel`, {})).status).toBe(200);
    const second = await createParcel(m.live);
    const third = await createParcel(m.sandbox);
    for (const toStatus of ["IN_TRANSIT", "DELIVERED"]) {
      expect((await m.sandbox("POST", `/sandbox/parcels/${third}/trigger-event`, { toStatus })).status).toBe(202);
    }

    // Once every event is in the feed, every delivery exists; then wait for them to be delivered.
    const liveEvents = await feed(m.live, 4);
    const sandboxEvents = await feed(m.sandbox, 3);
    const expectedPicky = liveEvents.filter(e => ["parcel.created", "parcel.cancelled"].includes(e.type)).map(e => e.id);
    expect(expectedPicky).toHaveLength(3);
    await until(
      () => bo().call("GET", `/organizations/${m.orgId}/webhook-deliveries?size=100`),
      res => res.body.totalElements === 6 && res.body.items.every((d: { status: string }) => d.status === "delivered"),
      "six deliveries delivered"
    );
    const log = await bo().call("GET", `/organizations/${m.orgId}/webhook-deliveries?size=100&endpointId=${picky.id}`);
    expect(log.body.items.map((d: { eventId: string }) => d.eventId).sort()).toEqual([...expectedPicky].sort());
    // Exactly those, each once; a parcel's in order (two parcels' may interleave).
    const pickyGot = receiver.on(`/picky-${m.orgId}`).map(bodyOf);
    expect(pickyGot.map(b => b.id).sort()).toEqual([...expectedPicky].sort());
    expect(pickyGot.filter(b => b.data.parcel.id === first).map(b => b.type)).toEqual(["parcel.created", "parcel.cancelled"]);
    expect(receiver.on(`/sandbox-${m.orgId}`).map(r => bodyOf(r).id)).toEqual(sandboxEvents.map(e => e.id));
    expect(new Set(liveEvents.map(e => e.data.parcel.id))).toEqual(new Set([first, second]));
    const sandboxLog = await bo().call("GET", `/organizations/${m.orgId}/webhook-deliveries?size=100&endpointId=${sandboxOnly.id}`);
    expect(sandboxLog.body.totalElements).toBe(3);
  });

  test("events API: paging over 1,000 events with no gap or duplicate, payloads equal to the deliveries, isolation by organisation and mode", async () => {
    const m = await merchant("Catalogue Complet SARL", 100_000);
    const other = await merchant("Voisin SARL");
    const path = `/feed-${m.orgId}`;
    await addEndpoint(m.orgId, path);
    const statuses = ["IN_TRANSIT", "PICKED_UP", "READY_FOR_PICKUP", "DELIVERED", "RETURN_PENDING"];
    const parcels = 40;
    const triggers = 25;
    const ids: string[] = [];
    await Promise.all(
      Array.from({ length: 8 }, async () => {
        while (ids.length < parcels) {
          const id = await createParcel(m.sandbox);
          ids.push(id);
          for (let i = 0; i < triggers; i++) {
            const res = await m.sandbox("POST", `/sandbox/parcels/${id}/trigger-event`, { toStatus: statuses[i % statuses.length] });
            expect(res.status).toBe(202);
          }
        }
      })
    );
    const liveParcel = await createParcel(m.live);
    const neighbour = await createParcel(other.sandbox);
    const total = ids.length * (triggers + 1);
    expect(total).toBeGreaterThan(1000);

    const events = await feed(m.sandbox, total);
    expect(events).toHaveLength(total);
    expect(new Set(events.map(e => e.id)).size).toBe(total);
    for (const id of ids) {
      const own = events.filter(e => e.data.parcel.id === id);
      expect(own.map(e => e.sequence)).toEqual(Array.from({ length: triggers + 1 }, (_v, i) => i + 1));
      expect(own[0].type).toBe("parcel.created");
    }
    expect(events.every(e => e.sandbox)).toBe(true);

    // What the feed says is what was delivered (the label URL is fresh at each read and attempt).
    await receiver.waitFor(() => receiver.on(path).length >= total + 1, 120_000);
    const delivered = new Map(receiver.on(path).map(r => [bodyOf(r).id, bodyOf(r)]));
    for (const event of events) expect(withoutLabelUrl(event)).toEqual(withoutLabelUrl(delivered.get(event.id)!));
    const one = await m.sandbox("GET", `/events/${events[500].id}`);
    expect(one.status).toBe(200);
    expect(withoutLabelUrl(one.body)).toEqual(withoutLabelUrl(events[500]));

    // Filters.
    expect((await feed(m.sandbox, ids.length, "&type=parcel.created")).map(e => e.data.parcel.id).sort()).toEqual([...ids].sort());
    expect((await feed(m.sandbox, triggers + 1, `&parcelId=${ids[3]}`)).map(e => e.sequence)).toEqual(
      Array.from({ length: triggers + 1 }, (_v, i) => i + 1)
    );

    // Isolation: the live key sees the live event only, the neighbour only its own.
    const liveFeed = await feed(m.live, 1);
    expect(liveFeed.map(e => [e.data.parcel.id, e.sandbox])).toEqual([[liveParcel, false]]);
    const neighbourFeed = await feed(other.sandbox, 1);
    expect(neighbourFeed.map(e => e.data.parcel.id)).toEqual([neighbour]);
    expectError(await other.sandbox("GET", `/events/${events[0].id}`), 404, "EVENT_NOT_FOUND");
    expectError(await m.live("GET", `/events/${events[0].id}`), 404, "EVENT_NOT_FOUND");
    expectError(await m.sandbox("GET", `/events/${liveFeed[0].id}`), 404, "EVENT_NOT_FOUND");
    // A cursor taken from one organisation's feed shows nothing of it to another.
    const page = await other.sandbox("GET", `/events?after=${(await m.sandbox("GET", "/events?limit=1")).body.next}`);
    expect(page.body.items.every((e: EventBody) => e.data.parcel.id === neighbour)).toBe(true);

    // Bad input, and a key without parcels:read.
    expectError(await m.sandbox("GET", "/events?after=not-a-cursor"), 400, "VALIDATION_FAILED", "after");
    expectError(await m.sandbox("GET", `/events?after=${Buffer.from("e1:1:2").toString("base64url")}`), 400, "VALIDATION_FAILED", "after");
    expectError(await m.sandbox("GET", "/events?limit=101"), 400, "VALIDATION_FAILED", "limit");
    expectError(await m.sandbox("GET", "/events?type=parcel.teleported"), 400, "VALIDATION_FAILED", "type");
    expectError(await m.sandbox("GET", "/events/not-a-uuid"), 400, "VALIDATION_FAILED", "id");
    const writeOnly = (await bo().createKey(m.orgId, { mode: "sandbox", scopes: ["parcels:write"] })).key;
    expectError(await partner(base(), writeOnly)("GET", "/events"), 403, "SCOPE_MISSING");
  }, 300_000);

  test("replay after an outage sends every missed event once more with its original event id; the log shows each attempt", async () => {
    const m = await merchant("Reprise SARL");
    const path = `/outage-${m.orgId}`;
    let gone = true;
    receiver.behaviour.set(path, () => ({ status: gone ? 410 : 200 }));
    const since = new Date(Date.now() - 60_000).toISOString();
    const { id } = await addEndpoint(m.orgId, path);

    // The first delivery meets 410 Gone: the endpoint is disabled, later events are kept (skipped).
    const first = await createParcel(m.live);
    const endpoint = () => bo().call("GET", `/organizations/${m.orgId}/webhook-endpoints/${id}`);
    await until(endpoint, res => res.body.enabled === false, "endpoint disabled by the 410");
    expect((await endpoint()).body.disabledReason).toMatch(/410/);
    const missed = [first];
    for (let i = 0; i < 4; i++) missed.push(await createParcel(m.live));
    const events = await feed(m.live, missed.length);
    expect(receiver.on(path)).toHaveLength(1);
    expectError(
      await bo().call("POST", `/organizations/${m.orgId}/webhook-endpoints/${id}/replay`, { since }),
      409,
      "WEBHOOK_ENDPOINT_DISABLED"
    );

    // Back up: enabled again, then the failed and skipped deliveries are replayed.
    gone = false;
    expect((await bo().call("PATCH", `/organizations/${m.orgId}/webhook-endpoints/${id}`, { enabled: true })).body.enabled).toBe(true);
    const replay = await bo().call("POST", `/organizations/${m.orgId}/webhook-endpoints/${id}/replay`, { since, only: "failed" });
    expect(replay.status).toBe(202);
    expect(replay.body).toMatchObject({ endpointId: id, only: "failed", queued: missed.length });
    await receiver.waitFor(() => receiver.on(path).length >= 1 + missed.length);
    const resent = receiver.on(path).slice(1).map(bodyOf);
    expect(resent.map(b => b.id).sort()).toEqual(events.map(e => e.id).sort());

    const log = await until(
      () => bo().call("GET", `/organizations/${m.orgId}/webhook-deliveries?endpointId=${id}&size=100`),
      res => res.body.items.length === missed.length && res.body.items.every((d: { status: string }) => d.status === "delivered"),
      "all delivered"
    );
    const firstDelivery = log.body.items.find((d: { eventId: string }) => d.eventId === events[0].id);
    expect(firstDelivery.attemptLog).toEqual([
      expect.objectContaining({ attempt: 1, statusCode: 410, error: "HTTP 410", durationMs: expect.any(Number) }),
      expect.objectContaining({ attempt: 2, statusCode: 200, error: null, durationMs: expect.any(Number) })
    ]);
    // Each resent delivery carries the id it had in the log: a receiver deduplicating on webhook-id is not confused.
    const deliveryIds = new Map(log.body.items.map((d: { eventId: string; id: string }) => [d.eventId, d.id]));
    for (const request of receiver.on(path).slice(1)) expect(request.headers["webhook-id"]).toBe(deliveryIds.get(bodyOf(request).id));

    // A merchant who lost its database asks for everything again: every event once more.
    const all = await bo().call("POST", `/organizations/${m.orgId}/webhook-endpoints/${id}/replay`, { since });
    expect(all.body.queued).toBe(missed.length);
    await receiver.waitFor(() => receiver.on(path).length >= 1 + 2 * missed.length);
    expect(
      receiver
        .on(path)
        .slice(1 + missed.length)
        .map(r => bodyOf(r).id)
        .sort()
    ).toEqual(events.map(e => e.id).sort());
    expectError(
      await bo().call("POST", `/organizations/${m.orgId}/webhook-endpoints/${id}/replay`, { since: "2026-02-30T00:00:00Z" }),
      400,
      "VALIDATION_FAILED",
      "since"
    );
  });

  test("test-send reaches the endpoint, signed, and reports its status but not the body of a private address; an endpoint that does not answer is reported too", async () => {
    const m = await merchant("Essai SARL");
    const path = `/ping-${m.orgId}`;
    // The receiver is on 127.0.0.1 (WEBHOOK_ALLOW_PRIVATE=true here): what it answers stays unread.
    receiver.behaviour.set(path, () => ({ status: 202, body: `{"internal":"secret-of-an-internal-service"}` }));
    const { id, secret } = await addEndpoint(m.orgId, path, { mode: "sandbox" });
    const res = await bo().call("POST", `/organizations/${m.orgId}/webhook-endpoints/${id}/test`);
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ succeeded: true, statusCode: 202, error: null, eventId: expect.any(String), responseBody: null });
    expect(res.body.latencyMs).toBeGreaterThanOrEqual(0);
    expect(JSON.stringify(res.body)).not.toContain("secret-of-an-internal-service");

    const [ping] = receiver.on(path);
    expect(ping.headers["x-relay-event"]).toBe("ping");
    expect(ping.headers["webhook-id"]).toBe(res.body.deliveryId);
    expect(new Webhook(secret).verify(ping.rawBody, headersOf(ping))).toMatchObject({ type: "ping", id: res.body.eventId, sandbox: true });
    expect(apiResponseValidator().validateWebhook("partner", { headers: ping.headers, body: JSON.parse(ping.rawBody) })).toEqual([]);
    // Nothing is recorded: the delivery log has no ping.
    expect((await bo().call("GET", `/organizations/${m.orgId}/webhook-deliveries`)).body.totalElements).toBe(0);

    const dead = await addEndpoint(m.orgId, "/unused", {});
    expect(
      (
        await bo().call("PATCH", `/organizations/${m.orgId}/webhook-endpoints/${dead.id}`, {
          url: `http://127.0.0.1:${await closedPort()}/hooks`
        })
      ).status
    ).toBe(200);
    const down = await bo().call("POST", `/organizations/${m.orgId}/webhook-endpoints/${dead.id}/test`);
    expect(down.body).toMatchObject({
      succeeded: false,
      statusCode: null,
      responseBody: null,
      error: expect.stringMatching(/ECONNREFUSED/)
    });
  });

  test("endpoint calls: the default endpoint is listed, secrets appear only when created or rotated, another organisation's endpoint is not found", async () => {
    const m = await merchant("Réglages SARL");
    const other = await merchant("Intrus SARL");
    const chosen = "secret-choisi-par-la-boutique-2026";
    secrets.push(chosen);
    expect((await bo().call("PUT", `/organizations/${m.orgId}/webhook`, { url: `${receiver.url}/default`, secret: chosen })).status).toBe(
      200
    );
    const created = await bo().call("POST", `/organizations/${m.orgId}/webhook-endpoints`, {
      url: `${receiver.url}/second`,
      secret: `${chosen}-bis`,
      mode: "live",
      eventTypes: ["parcel.delivered"],
      description: "Comptabilité",
      enabled: false
    });
    expect(created.status).toBe(201);
    expect(created.headers.get("location")).toMatch(new RegExp(`/organizations/${m.orgId}/webhook-endpoints/${created.body.id}$`));
    expect(created.body).toMatchObject({
      secret: `${chosen}-bis`,
      standardWebhooksSecret: `whsec_${Buffer.from(`${chosen}-bis`).toString("base64")}`,
      enabled: false,
      disabledReason: "disabled by hand",
      isDefault: false
    });

    const listed = await bo().call("GET", `/organizations/${m.orgId}/webhook-endpoints`);
    expect(listed.status).toBe(200);
    expect(listed.body.map((e: { isDefault: boolean; mode: string }) => [e.isDefault, e.mode])).toEqual([
      [true, "both"],
      [false, "live"]
    ]);
    const id = created.body.id;
    const read = await bo().call("GET", `/organizations/${m.orgId}/webhook-endpoints/${id}`);
    for (const text of [listed.text, read.text]) expect(text).not.toContain(chosen);

    const patched = await bo().call("PATCH", `/organizations/${m.orgId}/webhook-endpoints/${id}`, {
      eventTypes: null,
      mode: "both",
      description: null,
      enabled: true
    });
    expect(patched.body).toMatchObject({ eventTypes: null, mode: "both", description: null, enabled: true, disabledAt: null });
    expectError(
      await bo().call("PATCH", `/organizations/${m.orgId}/webhook-endpoints/${id}`, { mode: "test" }),
      400,
      "VALIDATION_FAILED",
      "mode"
    );
    expectError(
      await bo().call("POST", `/organizations/${m.orgId}/webhook-endpoints`, { url: "ftp://x.example/hook" }),
      400,
      "VALIDATION_FAILED",
      "url"
    );

    for (const [method, suffix] of [
      ["GET", ""],
      ["PATCH", ""],
      ["DELETE", ""],
      ["POST", "/test"],
      ["POST", "/rotate-secret"]
    ] as const) {
      const res = await bo().call(
        method,
        `/organizations/${other.orgId}/webhook-endpoints/${id}${suffix}`,
        method === "PATCH" ? { enabled: false } : undefined
      );
      expectError(res, 404, "WEBHOOK_ENDPOINT_NOT_FOUND");
    }
    expect((await bo().call("GET", `/organizations/${m.orgId}/webhook-notices`)).body).toEqual([]);
    expect((await bo().call("DELETE", `/organizations/${m.orgId}/webhook-endpoints/${id}`)).status).toBe(204);
    expectError(await bo().call("GET", `/organizations/${m.orgId}/webhook-endpoints/${id}`), 404, "WEBHOOK_ENDPOINT_NOT_FOUND");
  });

  test("no webhook secret ever reaches a log", () => {
    const logs = system().logs();
    expect(secrets.length).toBeGreaterThan(5);
    for (const secret of secrets) expect(logs).not.toContain(secret.replace(/^whsec_/, ""));
  });
}
