import { randomUUID } from "node:crypto";
import {
  AuthenticationError,
  InsufficientFundsError,
  NotFoundError,
  RelayError,
  RelayParcels,
  ServerError,
  TimeoutError,
  ValidationError
} from "../../../sdk/typescript/src";
import { FaultProxy, startFaultProxy } from "./fault-proxy";
import { PARCEL, startedSystem } from "./sdk-system";

/**
 * Issue 29, acceptance 2: a fault-injecting proxy between the SDK and the running system. Retries
 * are measured where they happen, at the proxy: which requests came, with which Idempotency-Key,
 * retry count, and when.
 */

const system = startedSystem();
let proxy: FaultProxy;

beforeAll(async () => {
  proxy = await startFaultProxy(system.base());
});
afterAll(() => proxy?.close());
beforeEach(() => {
  proxy.requests.length = 0;
  proxy.plan = () => ({ kind: "forward" });
});

async function caught(promise: Promise<unknown>): Promise<RelayError> {
  try {
    await promise;
  } catch (err) {
    return err as RelayError;
  }
  throw new Error("expected the call to fail");
}

const UNAVAILABLE = { code: "UNAVAILABLE", status: 503, message: "The service is temporarily unavailable, please retry" };

describe("SDK retries through a fault-injecting proxy", () => {
  test("a create whose answer is lost after the server committed: the retry answers the same parcel, one parcel, one debit", async () => {
    const { live, orgId } = await system.merchant("Fautes Perte SARL", { baseUrl: undefined });
    const client = new RelayParcels({
      apiKey: (await system.bo().createKey(orgId, { rateLimitPerMinute: 100_000 })).key,
      baseUrl: proxy.url
    });
    const before = await live.wallet.get();
    proxy.plan = (req, attempt) => (req.method === "POST" && attempt === 0 ? { kind: "lose-answer" } : { kind: "forward" });

    const parcel = await client.parcels.create(PARCEL);

    const posts = proxy.on("POST", "/api/partner/v1/parcels");
    expect(posts).toHaveLength(2);
    expect(posts[1].headers["idempotency-key"]).toBe(posts[0].headers["idempotency-key"]);
    expect(posts[0].headers["x-retry-count"]).toBeUndefined();
    expect(posts[1].headers["x-retry-count"]).toBe("1");
    expect(parcel.lastResponse).toMatchObject({ retries: 1, idempotencyKey: posts[0].headers["idempotency-key"] });

    const all = await live.parcels.list().toArray();
    expect(all.map(p => p.id)).toEqual([parcel.id]);
    const debits = (await live.wallet.entries().toArray()).filter(e => e.type === "DEBIT");
    expect(debits).toHaveLength(1);
    expect((await live.wallet.get()).balanceDzd).toBe(before.balanceDzd - parcel.pricePaidDzd);
  });

  test("503 with Retry-After: 1 is retried no sooner than a second later", async () => {
    const { live } = await system.merchant("Fautes 503 SARL", { baseUrl: proxy.url });
    proxy.plan = (req, attempt) =>
      attempt === 0 ? { kind: "answer", status: 503, headers: { "Retry-After": "1" }, body: UNAVAILABLE } : { kind: "forward" };
    const wallet = await live.wallet.get();
    expect(wallet.lastResponse.retries).toBe(1);
    const [first, second] = proxy.on("GET", "/api/partner/v1/wallet");
    expect(second.receivedAt - first.receivedAt).toBeGreaterThanOrEqual(1000);
  });

  test("429 is retried after its Retry-After; without one, after the backoff (0.5 s less at most a quarter)", async () => {
    const { live } = await system.merchant("Fautes 429 SARL", { baseUrl: proxy.url });
    const limited = { code: "RATE_LIMITED", status: 429, message: "Rate limit of 60 requests per minute exceeded" };
    proxy.plan = (req, attempt) =>
      attempt === 0 ? { kind: "answer", status: 429, headers: { "Retry-After": "2" }, body: limited } : { kind: "forward" };
    await live.wallet.get();
    const [first, second] = proxy.on("GET", "/api/partner/v1/wallet");
    expect(second.receivedAt - first.receivedAt).toBeGreaterThanOrEqual(2000);

    proxy.requests.length = 0;
    proxy.plan = (req, attempt) =>
      attempt === 0 ? { kind: "answer", status: 500, body: { ...UNAVAILABLE, code: "INTERNAL", status: 500 } } : { kind: "forward" };
    await live.cod.summary();
    const [a, b] = proxy.on("GET", "/api/partner/v1/cod/summary");
    expect(b.receivedAt - a.receivedAt).toBeGreaterThanOrEqual(375);
  });

  test("at most 2 retries, then the typed error with the retries made", async () => {
    const { live } = await system.merchant("Fautes Max SARL", { baseUrl: proxy.url });
    proxy.plan = () => ({ kind: "answer", status: 503, headers: { "Retry-After": "0" }, body: UNAVAILABLE });
    const error = await caught(live.parcels.create(PARCEL, { idempotencyKey: "order-max-1" }));
    expect(error).toBeInstanceOf(ServerError);
    expect(error).toMatchObject({ code: "UNAVAILABLE", status: 503, retries: 2, idempotencyKey: "order-max-1" });
    const posts = proxy.on("POST", "/api/partner/v1/parcels");
    expect(posts.map(p => p.headers["x-retry-count"])).toEqual([undefined, "1", "2"]);
    expect(new Set(posts.map(p => p.headers["idempotency-key"]))).toEqual(new Set(["order-max-1"]));

    proxy.requests.length = 0;
    await caught(live.wallet.get({ maxRetries: 0 }));
    expect(proxy.requests).toHaveLength(1);
  });

  test("409 IDEMPOTENCY_KEY_IN_USE is retried; any other 409 is not", async () => {
    const { live } = await system.merchant("Fautes 409 SARL", { baseUrl: proxy.url });
    const inUse = {
      code: "IDEMPOTENCY_KEY_IN_USE",
      status: 409,
      message: "A request with this Idempotency-Key is still being processed; retry shortly"
    };
    proxy.plan = (req, attempt) =>
      req.method === "POST" && attempt === 0
        ? { kind: "answer", status: 409, headers: { "Retry-After": "0" }, body: inUse }
        : { kind: "forward" };
    const parcel = await live.parcels.create(PARCEL);
    expect(parcel.lastResponse.retries).toBe(1);

    proxy.plan = () => ({ kind: "forward" });
    await live.parcels.cancel(parcel.id);
    proxy.requests.length = 0;
    const refused = await caught(live.parcels.cancel(parcel.id));
    expect(refused).toMatchObject({ code: "PARCEL_NOT_CANCELLABLE", status: 409 });
    expect(proxy.requests).toHaveLength(1);
  });

  test("400, 401, 402 and 404 are never retried", async () => {
    const { live } = await system.merchant("Fautes 4xx SARL", { liveDzd: 0, baseUrl: proxy.url });
    const cases: [() => Promise<unknown>, unknown][] = [
      [() => live.parcels.create({ ...PARCEL, weightG: 30_001 }), ValidationError],
      [() => new RelayParcels({ apiKey: "rp_live_unknown", baseUrl: proxy.url }).wallet.get(), AuthenticationError],
      [() => live.parcels.create(PARCEL), InsufficientFundsError],
      [() => live.parcels.get(randomUUID()), NotFoundError]
    ];
    for (const [call, type] of cases) {
      proxy.requests.length = 0;
      const error = await caught(call());
      expect(error).toBeInstanceOf(type);
      expect(error.retries).toBe(0);
      expect(proxy.requests).toHaveLength(1);
    }
  });

  test("a timeout is a typed TimeoutError carrying the idempotency key; the same key later answers the parcel made meanwhile", async () => {
    const { live } = await system.merchant("Fautes Délai SARL", { baseUrl: proxy.url });
    proxy.plan = () => ({ kind: "delay", ms: 1500 });
    const error = await caught(live.parcels.create(PARCEL, { timeoutMs: 300, maxRetries: 1 }));
    expect(error).toBeInstanceOf(TimeoutError);
    expect(error).toMatchObject({ code: "TIMEOUT", retries: 1 });
    const posts = proxy.on("POST", "/api/partner/v1/parcels");
    expect(posts).toHaveLength(2);
    expect(error.idempotencyKey).toBe(posts[0].headers["idempotency-key"]);

    proxy.plan = () => ({ kind: "forward" });
    const again = await live.parcels.create(PARCEL, { idempotencyKey: error.idempotencyKey });
    expect((await live.parcels.list().toArray()).map(p => p.id)).toEqual([again.id]);
  });
});
