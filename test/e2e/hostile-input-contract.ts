import { gzipSync } from "node:zlib";
import { backoffice, http, HttpResult, partner } from "../helpers/http";
import { rawRequest } from "../helpers/raw-http";
import type { SystemUnderTest } from "./gateway-contract";

/**
 * What an attacker (or a clumsy client) sends, and what the API must answer: a 4xx in the error
 * shape, never a 500, never an action run by OPTIONS, every request counted against its key.
 * The system under test is started with ALLOWED_ORIGIN in CORS_ORIGINS, TRUST_PROXY_HOPS=1 and
 * short HTTP time-outs (HTTP_HEADERS_TIMEOUT_MS=2000, HTTP_REQUEST_TIMEOUT_MS=20000: short enough to test a
 * client that stops sending, long enough for the 200 concurrent creates of the parcels contract on a
 * busy two-core CI machine: fetch writes a body after its headers, and a loaded test process was
 * seen to leave the 200th body unsent for 3 s, then for more than 8 s).
 */

export const ALLOWED_ORIGIN = "https://shop.example.dz";
export const HOSTILE_INPUT_ENV = {
  CORS_ORIGINS: ALLOWED_ORIGIN,
  TRUST_PROXY_HOPS: "1",
  HTTP_HEADERS_TIMEOUT_MS: "2000",
  HTTP_REQUEST_TIMEOUT_MS: "20000"
};

const VALID = { recipientName: "Amina Benali", recipientPhone: "+213 555 12 34 56", weightG: 1200, destinationRelayCode: "DZ-16-HYDRA" };
const PRICE = 450;

function expectError(res: { status: number; body: any; headers: Headers }, status: number, code: string, field?: string) {
  expect({ status: res.status, code: res.body?.code }).toEqual({ status, code });
  expect(res.headers.get("content-type")).toContain("application/json");
  expect(res.body).toEqual(expect.objectContaining({ status, message: expect.any(String) }));
  if (field) expect(res.body.details.map((d: { field: string }) => d.field)).toContain(field);
}

function remaining(res: HttpResult): number {
  const value = res.headers.get("x-ratelimit-remaining");
  expect(value).not.toBeNull();
  return Number(value);
}

export function hostileInputContract(system: () => SystemUnderTest): void {
  const base = () => system().baseUrl;
  const bo = () => backoffice(base(), system().backofficeToken);
  let orgId: string;
  let liveKey: string;
  let sandboxKey: string;
  let readOnlySandboxKey: string;
  let live: ReturnType<typeof partner>;
  let sandbox: ReturnType<typeof partner>;

  async function balance(mode: "live" | "sandbox"): Promise<number> {
    return (await bo().call("GET", `/organizations/${orgId}/wallet?mode=${mode}`)).body.balanceDzd;
  }

  beforeAll(async () => {
    const org = await bo().createOrganization("Hostile Input SARL");
    orgId = org.id;
    liveKey = (await bo().createKey(orgId, { rateLimitPerMinute: 100_000 })).key;
    sandboxKey = (await bo().createKey(orgId, { mode: "sandbox", rateLimitPerMinute: 100_000 })).key;
    readOnlySandboxKey = (await bo().createKey(orgId, { mode: "sandbox", scopes: ["parcels:read"] })).key;
    await bo().call("POST", `/organizations/${orgId}/wallet/top-ups`, { amountDzd: 100_000 });
    await bo().call("POST", `/organizations/${orgId}/wallet/top-ups`, { amountDzd: 100_000, mode: "sandbox" });
    live = partner(base(), liveKey);
    sandbox = partner(base(), sandboxKey);
  });

  describe("1. NUL, control characters and unpaired surrogates are a 400 naming the field", () => {
    test("in a path parameter", async () => {
      expectError(await live("GET", "/parcels/by-tracking/RP%00"), 400, "VALIDATION_FAILED", "trackingNumber");
      expectError(await live("GET", "/parcels/by-tracking/RP%07X"), 400, "VALIDATION_FAILED", "trackingNumber");
    });

    test("in the parcel fields, which used to be accepted (201)", async () => {
      expectError(await live("POST", "/parcels", { ...VALID, recipientName: "Amina\u0000" }), 400, "VALIDATION_FAILED", "recipientName");
      expectError(await live("POST", "/parcels", { ...VALID, recipientName: "Amina\ud800" }), 400, "VALIDATION_FAILED", "recipientName");
      // Tabs and line breaks are text, and a real emoji pair is one character.
      expect((await live("POST", "/parcels", { ...VALID, recipientName: "Amina\tB.\r\n😀" })).status).toBe(201);
    });

    test("in the cancel and sandbox trigger reasons (the outbox's jsonb)", async () => {
      const parcel = (await live("POST", "/parcels", VALID)).body;
      expectError(await live("POST", `/parcels/${parcel.id}/cancel`, { reason: "oops\u0000" }), 400, "VALIDATION_FAILED", "reason");
      const sandboxParcel = (await sandbox("POST", "/parcels", VALID)).body;
      const trigger = `/sandbox/parcels/${sandboxParcel.id}/trigger-event`;
      expectError(await sandbox("POST", trigger, { toStatus: "LOST", reason: "x\ud800" }), 400, "VALIDATION_FAILED", "reason");
      expectError(await sandbox("POST", trigger, { toStatus: "LOST", reason: "x\udc00y" }), 400, "VALIDATION_FAILED", "reason");
      expect((await live("GET", `/parcels/${parcel.id}`)).body.status).toBe("CREATED");
    });

    test("in the back-office: organisation and key names, relay points, transition reasons", async () => {
      expectError(await bo().call("POST", "/organizations", { name: "Boutique\u0000" }), 400, "VALIDATION_FAILED", "name");
      expectError(
        await bo().call("POST", `/organizations/${orgId}/api-keys`, { mode: "live", name: "k\ud83d" }),
        400,
        "VALIDATION_FAILED",
        "name"
      );
      expectError(
        await bo().call("POST", "/relay-points", { code: "DZ-NUL-TEST", name: "Point\u0000", city: "Oran\u001b" }),
        400,
        "VALIDATION_FAILED",
        "name"
      );
      const parcel = (await live("POST", "/parcels", VALID)).body;
      expectError(
        await bo().call("POST", `/parcels/${parcel.id}/transitions`, { toStatus: "READY_FOR_PICKUP", reason: "\u0000" }),
        400,
        "VALIDATION_FAILED",
        "reason"
      );
    });

    test("in a field name", async () => {
      expectError(await live("POST", "/parcels", { ...VALID, "we\u0000ightG": 1 }), 400, "VALIDATION_FAILED");
    });
  });

  describe("2. a Content-Encoding the body does not have is a 400, before or after the key", () => {
    test.each(["gzip", "deflate", "br"])("%s on a plain body", async encoding => {
      for (const [path, headers] of [
        ["/api/partner/v1/parcels", { "X-API-Key": liveKey }],
        ["/api/backoffice/v1/organizations", { Authorization: `Bearer ${system().backofficeToken}` }]
      ] as const) {
        const res = await http(base(), "POST", path, {
          headers: { ...headers, "Content-Type": "application/json", "Content-Encoding": encoding },
          rawBody: JSON.stringify({ name: "x" })
        });
        expectError(res, 400, "VALIDATION_FAILED");
      }
    });

    test("an unknown encoding is a 415; a real gzip body is read", async () => {
      const headers = { "X-API-Key": liveKey, "Content-Type": "application/json" };
      const res = await fetch(`${base()}/api/partner/v1/parcels`, {
        method: "POST",
        headers: { ...headers, "Content-Encoding": "compress" },
        body: JSON.stringify(VALID)
      });
      expect(res.status).toBe(415);
      expect(((await res.json()) as { code: string }).code).toBe("UNSUPPORTED_MEDIA_TYPE");
      const gz = await fetch(`${base()}/api/partner/v1/parcels`, {
        method: "POST",
        headers: { ...headers, "Content-Encoding": "gzip" },
        body: gzipSync(JSON.stringify(VALID))
      });
      expect(gz.status).toBe(201);
    });

    test("a gzip bomb is a 413, not a stalled process", async () => {
      const res = await fetch(`${base()}/api/partner/v1/parcels`, {
        method: "POST",
        headers: { "X-API-Key": liveKey, "Content-Type": "application/json", "Content-Encoding": "gzip" },
        body: gzipSync(Buffer.alloc(50 * 1024 * 1024, " "))
      });
      expect(res.status).toBe(413);
      expect(((await res.json()) as { code: string }).code).toBe("PAYLOAD_TOO_LARGE");
    });
  });

  test("3. the sandbox trigger needs parcels:write", async () => {
    const parcel = (await sandbox("POST", "/parcels", VALID)).body;
    const readOnly = partner(base(), readOnlySandboxKey);
    expectError(await readOnly("POST", `/sandbox/parcels/${parcel.id}/trigger-event`, { toStatus: "DELIVERED" }), 403, "SCOPE_MISSING");
    expect((await sandbox("GET", `/parcels/${parcel.id}`)).body.status).toBe("CREATED");
  });

  describe("4. OPTIONS runs nothing", () => {
    test("a preflight for POST cancel does not cancel, a preflight for POST /parcels does not create", async () => {
      const parcel = (await live("POST", "/parcels", VALID)).body;
      const before = await balance("live");
      for (const origin of [ALLOWED_ORIGIN, "https://evil.example"]) {
        for (const path of [`/api/partner/v1/parcels/${parcel.id}/cancel`, "/api/partner/v1/parcels"]) {
          const res = await fetch(`${base()}${path}`, {
            method: "OPTIONS",
            headers: {
              Origin: origin,
              "Access-Control-Request-Method": "POST",
              "X-API-Key": liveKey,
              "Content-Type": "application/json"
            },
            body: JSON.stringify(VALID)
          });
          expect(res.status).toBe(origin === ALLOWED_ORIGIN ? 204 : 403);
        }
      }
      expect((await live("GET", `/parcels/${parcel.id}`)).body.status).toBe("CREATED");
      expect(await balance("live")).toBe(before);
    });

    test("an allowed origin gets the CORS headers; any other none", async () => {
      const preflight = await fetch(`${base()}/api/partner/v1/parcels`, {
        method: "OPTIONS",
        headers: { Origin: ALLOWED_ORIGIN, "Access-Control-Request-Method": "POST" }
      });
      expect(preflight.status).toBe(204);
      expect(preflight.headers.get("access-control-allow-origin")).toBe(ALLOWED_ORIGIN);
      expect(preflight.headers.get("access-control-allow-methods")).toBe("GET, HEAD, POST");
      expect(preflight.headers.get("access-control-allow-headers")).toContain("X-API-Key");
      const allowed = await http(base(), "GET", "/api/partner/v1/health", { headers: { "X-API-Key": liveKey, Origin: ALLOWED_ORIGIN } });
      expect(allowed.headers.get("access-control-allow-origin")).toBe(ALLOWED_ORIGIN);
      expect(allowed.headers.get("access-control-expose-headers")).toContain("X-RateLimit-Remaining");
      const other = await http(base(), "GET", "/api/partner/v1/health", {
        headers: { "X-API-Key": liveKey, Origin: "https://evil.example" }
      });
      expect(other.status).toBe(200);
      expect(other.headers.get("access-control-allow-origin")).toBeNull();
    });

    test("a plain OPTIONS answers Allow and lists nothing", async () => {
      const res = await fetch(`${base()}/api/partner/v1/parcels`, { method: "OPTIONS", headers: { "X-API-Key": liveKey } });
      expect(res.status).toBe(204);
      expect(res.headers.get("allow")).toBe("GET, HEAD, POST, OPTIONS");
      expect(await res.text()).toBe("");
      const unknown = await fetch(`${base()}/api/partner/v1/nothing-here`, { method: "OPTIONS" });
      expect(unknown.status).toBe(404);
    });
  });

  test("5. __proto__, constructor and prototype keys are refused, in every mode alike", async () => {
    const poisoned = `{"__proto__":{"weightG":1200,"anything":1},"recipientName":"A","recipientPhone":"+213555123456","destinationRelayCode":"DZ-16-HYDRA"}`;
    const res = await http(base(), "POST", "/api/partner/v1/parcels", {
      headers: { "X-API-Key": liveKey, "Content-Type": "application/json" },
      rawBody: poisoned
    });
    expectError(res, 400, "VALIDATION_FAILED", "__proto__");
    for (const key of ["constructor", "prototype"]) {
      expectError(await live("POST", "/parcels", { ...VALID, [key]: { weightG: 1 } }), 400, "VALIDATION_FAILED", key);
    }
    const nested = await http(base(), "POST", "/api/backoffice/v1/organizations", {
      headers: { Authorization: `Bearer ${system().backofficeToken}`, "Content-Type": "application/json" },
      rawBody: `{"name":"x","meta":{"__proto__":{"admin":true}}}`
    });
    expectError(nested, 400, "VALIDATION_FAILED", "meta.__proto__");
  });

  describe("6. every request counts against the key, whatever fails after authentication", () => {
    test("malformed JSON, 413, 415, bad encodings, bad escapes and unknown routes carry the rate headers and count", async () => {
      const headers = { "X-API-Key": liveKey };
      const attempts: Array<() => Promise<HttpResult>> = [
        () =>
          http(base(), "POST", "/api/partner/v1/parcels", { headers: { ...headers, "Content-Type": "application/json" }, rawBody: "{bad" }),
        () =>
          http(base(), "POST", "/api/partner/v1/parcels", {
            headers: { ...headers, "Content-Type": "application/json" },
            rawBody: `{"a":"${"x".repeat(70_000)}"}`
          }),
        () =>
          http(base(), "POST", "/api/partner/v1/parcels", {
            headers: { ...headers, "Content-Type": "text/plain" },
            rawBody: JSON.stringify(VALID)
          }),
        () =>
          http(base(), "POST", "/api/partner/v1/parcels", {
            headers: { ...headers, "Content-Type": "application/json", "Content-Encoding": "gzip" },
            rawBody: "{}"
          }),
        () => http(base(), "GET", "/api/partner/v1/parcels/%E0%A4%A", { headers }),
        () => http(base(), "GET", "/api/partner/v1/no-such-route", { headers }),
        () => http(base(), "DELETE", "/api/partner/v1/parcels", { headers })
      ];
      const expected = [400, 413, 415, 400, 400, 404, 405];
      let last = remaining(await live("GET", "/health"));
      for (const [i, attempt] of attempts.entries()) {
        const res = await attempt();
        expect(res.status).toBe(expected[i]);
        expect(res.body.status).toBe(expected[i]);
        const now = remaining(res);
        expect(now).toBe(last - 1);
        last = now;
      }
    });

    test("without a key, a malformed body is a 401, not a 400", async () => {
      const res = await http(base(), "POST", "/api/partner/v1/parcels", {
        headers: { "Content-Type": "application/json" },
        rawBody: "{bad"
      });
      expectError(res, 401, "UNAUTHENTICATED");
      expectError(await http(base(), "GET", "/api/partner/v1/no-such-route"), 401, "UNAUTHENTICATED");
    });
  });

  test("8. a sandbox trigger to CANCELLED refunds like a cancel; other triggers move no money", async () => {
    const start = await balance("sandbox");
    const a = (await sandbox("POST", "/parcels", VALID)).body;
    const b = (await sandbox("POST", "/parcels", VALID)).body;
    expect(await balance("sandbox")).toBe(start - 2 * PRICE);

    await sandbox("POST", `/sandbox/parcels/${a.id}/trigger-event`, { toStatus: "READY_FOR_PICKUP" });
    expect((await sandbox("POST", `/sandbox/parcels/${a.id}/trigger-event`, { toStatus: "CANCELLED" })).status).toBe(202);
    expect(await balance("sandbox")).toBe(start - PRICE);
    expectError(await sandbox("POST", `/parcels/${a.id}/cancel`), 409, "PARCEL_NOT_CANCELLABLE");

    // Moved on from CANCELLED and cancelled again: refunded once, never charged again.
    await sandbox("POST", `/sandbox/parcels/${a.id}/trigger-event`, { toStatus: "CREATED" });
    await sandbox("POST", `/sandbox/parcels/${a.id}/trigger-event`, { toStatus: "CANCELLED" });
    expect(await balance("sandbox")).toBe(start - PRICE);

    // From a status a merchant cannot cancel in, no refund (as for a cancel, which would be a 409).
    await sandbox("POST", `/sandbox/parcels/${b.id}/trigger-event`, { toStatus: "IN_TRANSIT" });
    await sandbox("POST", `/sandbox/parcels/${b.id}/trigger-event`, { toStatus: "CANCELLED" });
    expect(await balance("sandbox")).toBe(start - PRICE);
  });

  describe("9. a label URL that does not verify is a 403, whatever part is malformed", () => {
    let labelPath: string;
    beforeAll(async () => {
      const parcel = (await live("POST", "/parcels", VALID)).body;
      const url = new URL(parcel.labelUrl);
      labelPath = url.pathname + url.search;
    });

    test.each([
      ["an over-long signature", (p: string) => p.replace(/signature=[0-9a-f]+/, `signature=${"a".repeat(300)}`)],
      ["an over-long expiry", (p: string) => p.replace(/expires=\d+/, `expires=${"9".repeat(40)}`)],
      ["a non-numeric expiry", (p: string) => p.replace(/expires=\d+/, "expires=soon")],
      ["a repeated signature", (p: string) => `${p}&signature=00`],
      ["a malformed parcel id", (p: string) => p.replace(/\/labels\/[^.]+\.pdf/, "/labels/not-a-parcel.pdf")]
    ])("%s", async (_what, mutate) => {
      const res = await http(base(), "GET", mutate(labelPath), { headers: { "X-Forwarded-For": "198.51.100.9" } });
      expectError(res, 403, "LABEL_URL_INVALID");
    });

    test("downloads are limited per client address, with the rate headers", async () => {
      const client = { "X-Forwarded-For": `203.0.113.${Math.floor(Math.random() * 250)}` };
      const first = await fetch(`${base()}${labelPath}`, { headers: client });
      expect(first.status).toBe(200);
      await first.arrayBuffer();
      const limit = Number(first.headers.get("x-ratelimit-limit"));
      expect(limit).toBeGreaterThan(1);
      expect(Number(first.headers.get("x-ratelimit-remaining"))).toBe(limit - 1);
      for (let i = 1; i < limit; i++) await (await fetch(`${base()}${labelPath}`, { headers: client })).arrayBuffer();
      const refused = await http(base(), "GET", labelPath, { headers: client });
      expectError(refused, 429, "RATE_LIMITED");
      expect(Number(refused.headers.get("retry-after"))).toBeGreaterThan(0);
      // Another client is not affected.
      expect((await fetch(`${base()}${labelPath}`, { headers: { "X-Forwarded-For": "192.0.2.44" } })).status).toBe(200);
    });
  });

  describe("10. the smaller ones", () => {
    test("two different keys, or another scheme beside a key, are a 401", async () => {
      const other = (await bo().createKey(orgId)).key;
      const both = await http(base(), "GET", "/api/partner/v1/health", {
        headers: { Authorization: `ApiKey ${liveKey}`, "X-API-Key": other }
      });
      expectError(both, 401, "UNAUTHENTICATED");
      const bearer = await http(base(), "GET", "/api/partner/v1/health", { headers: { Authorization: "Bearer x", "X-API-Key": liveKey } });
      expectError(bearer, 401, "UNAUTHENTICATED");
      const same = await http(base(), "GET", "/api/partner/v1/health", {
        headers: { Authorization: `ApiKey ${liveKey}`, "X-API-Key": liveKey }
      });
      expect(same.status).toBe(200);
    });

    test("oversized headers and a malformed request line are answered in the error shape", async () => {
      const url = new URL(base());
      const big = await rawRequest(
        base(),
        `GET /api/partner/v1/health HTTP/1.1\r\nHost: ${url.host}\r\nX-Big: ${"a".repeat(20_000)}\r\n\r\n`
      );
      expect(big.status).toBe(431);
      expect(JSON.parse(big.body)).toEqual({ code: "HEADERS_TOO_LARGE", message: expect.any(String), status: 431 });
      const garbage = await rawRequest(base(), "HELLO THERE\r\n\r\n");
      expect(garbage.status).toBe(400);
      expect(JSON.parse(garbage.body)).toMatchObject({ code: "VALIDATION_FAILED", status: 400 });
    });

    test("a DELETE with an unframed body (Node's HTTP client) gets the route's answer, as curl's framed one does", async () => {
      const url = new URL(base());
      const body = '{"reason":"no longer needed"}';
      const request = (framing: string) =>
        rawRequest(
          base(),
          `DELETE /api/public/v1/tracking/RP000000000DZ HTTP/1.1\r\nHost: ${url.host}\r\nX-Forwarded-For: 192.0.2.77\r\n` +
            `Content-Type: application/json\r\n${framing}\r\n${body}`
        );
      const framed = await request(`Content-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n`);
      expect(framed.status).toBe(405);
      // No Content-Length, no chunked encoding, a kept-alive connection: the body reads as the start of a next request.
      const unframed = await request("");
      expect({ status: unframed.status, code: JSON.parse(unframed.body).code }).toEqual({ status: 405, code: "METHOD_NOT_ALLOWED" });
      expect(unframed.headers.allow).toBe("GET, HEAD");
      // The route's answer, then the connection closes: what followed the request is not answered.
      expect(unframed.body.match(/"status"/g)).toHaveLength(1);
    });

    test("a client that stops sending is cut off with a 408 in the error shape", async () => {
      const url = new URL(base());
      const slowHeaders = await rawRequest(base(), `GET /api/partner/v1/health HTTP/1.1\r\nHost: ${url.host}\r\nX-Slow: 1`);
      expect(slowHeaders.status).toBe(408);
      expect(JSON.parse(slowHeaders.body)).toMatchObject({ code: "REQUEST_TIMEOUT", status: 408 });
      const slowBody = await rawRequest(
        base(),
        `POST /api/partner/v1/parcels HTTP/1.1\r\nHost: ${url.host}\r\nX-API-Key: ${liveKey}\r\nContent-Type: application/json\r\nContent-Length: 500\r\n\r\n{"recipientName":`,
        { timeoutMs: 40_000 }
      );
      expect(slowBody.closed).toBe(true);
      expect([400, 408]).toContain(slowBody.status);
      expect(JSON.parse(slowBody.body).status).toBe(slowBody.status);
    });

    test("names are counted in characters as users see them", async () => {
      expect((await live("POST", "/parcels", { ...VALID, recipientName: "😀".repeat(100) })).status).toBe(201);
      expectError(await live("POST", "/parcels", { ...VALID, recipientName: "😀".repeat(101) }), 400, "VALIDATION_FAILED", "recipientName");
    });

    test("a text/plain body is a 415, not a missing field", async () => {
      const res = await http(base(), "POST", "/api/partner/v1/parcels", {
        headers: { "X-API-Key": liveKey, "Content-Type": "text/plain" },
        rawBody: JSON.stringify(VALID)
      });
      expectError(res, 415, "UNSUPPORTED_MEDIA_TYPE");
    });

    test("a wrong method is a 405 with Allow", async () => {
      const res = await http(base(), "PUT", "/api/partner/v1/parcels", { headers: { "X-API-Key": liveKey } });
      expectError(res, 405, "METHOD_NOT_ALLOWED");
      expect(res.headers.get("allow")).toBe("GET, HEAD, POST");
      const bo405 = await http(base(), "GET", `/api/backoffice/v1/parcels/${orgId}/transitions`, {
        headers: { Authorization: `Bearer ${system().backofficeToken}` }
      });
      expectError(bo405, 405, "METHOD_NOT_ALLOWED");
      expect(bo405.headers.get("allow")).toBe("POST");
    });

    test("a phone needs at least eight digits", async () => {
      expectError(await live("POST", "/parcels", { ...VALID, recipientPhone: "        " }), 400, "VALIDATION_FAILED", "recipientPhone");
      expectError(
        await live("POST", "/parcels", { ...VALID, recipientPhone: "+1 2 3 4 5 6 7" }),
        400,
        "VALIDATION_FAILED",
        "recipientPhone"
      );
      expect((await live("POST", "/parcels", { ...VALID, recipientPhone: "05 55 12 34 56" })).status).toBe(201);
    });
  });
}
