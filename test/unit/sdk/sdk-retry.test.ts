import { backoffMs, delayBeforeRetry, isRetryableStatus, retryAfterMs } from "../../../sdk/typescript/src/core/retry";
import { RateLimitError, RelayParcels, ServerError } from "../../../sdk/typescript/src";

/** Issue 29: the SDK's retry rules, and answers it must keep as they came (no server needed: a fetch double). */

describe("when the SDK retries, and after how long", () => {
  test("retryable: 408, 429, 5xx, and a 409 only for IDEMPOTENCY_KEY_IN_USE", () => {
    for (const status of [408, 429, 500, 502, 503, 504]) expect(isRetryableStatus(status, undefined)).toBe(true);
    expect(isRetryableStatus(409, "IDEMPOTENCY_KEY_IN_USE")).toBe(true);
    for (const code of ["CONFLICT", "PARCEL_NOT_CANCELLABLE", "RELAY_FULL"]) expect(isRetryableStatus(409, code)).toBe(false);
    for (const status of [400, 401, 402, 403, 404, 413, 415, 422]) expect(isRetryableStatus(status, undefined)).toBe(false);
  });

  test("Retry-After in seconds or as an HTTP date; anything else is ignored", () => {
    const now = Date.parse("2026-11-26T10:00:00Z");
    expect(retryAfterMs("3", now)).toBe(3000);
    expect(retryAfterMs(" 0 ", now)).toBe(0);
    expect(retryAfterMs("Thu, 26 Nov 2026 10:00:05 GMT", now)).toBe(5000);
    expect(retryAfterMs("Thu, 26 Nov 2026 09:00:00 GMT", now)).toBe(0);
    expect(retryAfterMs("soon", now)).toBeUndefined();
    expect(retryAfterMs("-1", now)).toBeUndefined();
    expect(retryAfterMs(null, now)).toBeUndefined();
  });

  test("backoff: 0.5 s × 2ⁿ, at most 8 s, less up to a quarter of jitter", () => {
    expect([0, 1, 2, 3, 4, 5, 10].map(n => backoffMs(n, () => 0))).toEqual([500, 1000, 2000, 4000, 8000, 8000, 8000]);
    expect([0, 1, 4].map(n => backoffMs(n, () => 1))).toEqual([375, 750, 6000]);
    // The server's Retry-After wins; one beyond the call's timeout is not waited for (the error is thrown).
    expect(delayBeforeRetry(0, "2", 30_000)).toBe(2000);
    expect(delayBeforeRetry(0, "30", 30_000)).toBe(30_000);
    expect(delayBeforeRetry(0, "55", 30_000)).toBeUndefined();
    expect(delayBeforeRetry(0, "3600", 30_000)).toBeUndefined();
    expect(delayBeforeRetry(1, null, 30_000)).toBeGreaterThan(0);
  });
});

describe("a Retry-After beyond the call's timeout (issue 43): thrown at once, saying when to come back", () => {
  function clientLimited(retryAfter: string, timeoutMs?: number) {
    let calls = 0;
    const fetchDouble: typeof fetch = async () => {
      calls += 1;
      return new Response(JSON.stringify({ code: "RATE_LIMITED", status: 429, message: "Rate limit of 60 requests per minute exceeded" }), {
        status: 429,
        headers: { "content-type": "application/json", "retry-after": retryAfter }
      });
    };
    const client = new RelayParcels({ apiKey: "rp_sandbox_test", baseUrl: "http://api.test", fetch: fetchDouble, timeoutMs });
    return { client, calls: () => calls };
  }

  test("55 s asked, 30 s of timeout (the defaults): no wait, no retry; retryAfterSeconds and the message say 55 s", async () => {
    const { client, calls } = clientLimited("55");
    const error = await client.parcels.get("p1").catch(e => e);
    expect(error).toBeInstanceOf(RateLimitError);
    expect(error).toMatchObject({ code: "RATE_LIMITED", retryAfterSeconds: 55, retries: 0 });
    expect(error.message).toBe("Rate limit of 60 requests per minute exceeded (retry after 55 s)");
    expect(calls()).toBe(1);
  });

  test("the cap is the call's own timeout, and an HTTP date counts as its seconds from now", async () => {
    const short = clientLimited("2", 1_000);
    await expect(short.client.parcels.get("p1")).rejects.toMatchObject({ retryAfterSeconds: 2, retries: 0 });
    expect(short.calls()).toBe(1);
    const dated = clientLimited(new Date(Date.now() + 120_000).toUTCString());
    const error = await dated.client.parcels.get("p1").catch(e => e);
    expect(error.retryAfterSeconds).toBeGreaterThan(100);
    expect(error.retryAfterSeconds).toBeLessThanOrEqual(120);
    expect(dated.calls()).toBe(1);
  });

  test("within the timeout it is waited for and retried, as before", async () => {
    const { client, calls } = clientLimited("0");
    await expect(client.parcels.get("p1")).rejects.toMatchObject({ retryAfterSeconds: 0, retries: 2 });
    expect(calls()).toBe(3);
  });
});

describe("answers kept as they came", () => {
  function clientAnswering(status: number, body: unknown, headers: Record<string, string> = {}) {
    const seen: Request[] = [];
    const fetchDouble: typeof fetch = async (input, init) => {
      seen.push(new Request(input, init));
      return new Response(JSON.stringify(body), { status, headers: { "content-type": "application/json", ...headers } });
    };
    return { client: new RelayParcels({ apiKey: "rp_sandbox_test", baseUrl: "http://api.test", fetch: fetchDouble }), seen };
  }

  test("a status this SDK does not know is kept, not thrown", async () => {
    const { client } = clientAnswering(
      200,
      { id: "p1", status: "AT_LOCKER", trackingNumber: "RP1DZ" },
      { "x-ratelimit-limit": "60", "x-ratelimit-remaining": "59" }
    );
    const parcel = await client.parcels.get("p1");
    expect(parcel.status).toBe("AT_LOCKER");
    expect(parcel.lastResponse.rateLimit).toEqual({ limit: 60, remaining: 59 });
  });

  test("an error code this SDK does not know keeps its code, in the family of its status", async () => {
    const { client, seen } = clientAnswering(
      503,
      { code: "MAINTENANCE_WINDOW", status: 503, message: "back at 04:00", requestId: "r-1" },
      { "retry-after": "0" }
    );
    const error = await client.parcels
      .create({ recipientName: "A", recipientPhone: "0555", weightG: 1, destinationRelayCode: "DZ-16-X" })
      .catch(e => e);
    expect(error).toBeInstanceOf(ServerError);
    expect(error).toMatchObject({ code: "MAINTENANCE_WINDOW", requestId: "r-1", retries: 2 });
    expect(seen.map(r => r.headers.get("idempotency-key"))).toEqual(Array(3).fill(error.idempotencyKey));
    expect(seen[0].headers.get("authorization")).toBe("ApiKey rp_sandbox_test");
  });
});
