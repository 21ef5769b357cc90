import type { SmsInbox } from "../helpers/sms-inbox";
import { backoffice, http, partner } from "../helpers/http";

export interface SystemUnderTest {
  baseUrl: string;
  /** A second gateway on the same back end, where the mode has one (distributed). */
  secondGatewayUrl?: string;
  backofficeToken: string;
  logs: () => string;
  /** Where the system's pick-up SMS go (the PINs of live hand-overs). */
  sms: SmsInbox;
}

const ISO_UTC = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?Z$/;

function expectError(res: { status: number; body: any; headers: Headers }, status: number, code: string) {
  expect(res.status).toBe(status);
  expect(res.headers.get("content-type")).toContain("application/json");
  expect(res.body).toEqual(expect.objectContaining({ code, status, message: expect.any(String) }));
  expect(res.body.message.length).toBeGreaterThan(0);
  expect(JSON.stringify(res.body)).not.toMatch(/\bat .+\.(js|ts):\d+/);
}

/**
 * The gateway/auth contract of the foundation issue, run against any started system: the same
 * assertions for embedded and distributed mode.
 */
export function gatewayContract(system: () => SystemUnderTest): void {
  const secrets: string[] = [];
  let orgA: { id: string; name: string };
  let orgB: { id: string; name: string };
  let keyA: string;
  let keyB: string;

  beforeAll(async () => {
    const bo = backoffice(system().baseUrl, system().backofficeToken);
    orgA = await bo.createOrganization("Librairie El Djazair");
    orgB = await bo.createOrganization("Tech Store Oran");
    keyA = (await bo.createKey(orgA.id)).key;
    keyB = (await bo.createKey(orgB.id, { mode: "sandbox" })).key;
    secrets.push(keyA, keyB);
  });

  test("health answers 200 with the organisation of the key, its prefix and the server time", async () => {
    const res = await partner(system().baseUrl, keyA)("GET", "/health");
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      status: "ok",
      organizationId: orgA.id,
      organizationName: "Librairie El Djazair",
      keyPrefix: keyA.slice(0, "rp_live_".length + 8),
      serverTime: expect.stringMatching(ISO_UTC)
    });
    expect(keyA.startsWith(res.body.keyPrefix)).toBe(true);
    expect(res.body.keyPrefix.length).toBeLessThan(keyA.length);
    expect(Math.abs(Date.parse(res.body.serverTime) - Date.now())).toBeLessThan(60_000);
    expect(res.headers.get("x-request-id")).toBeTruthy();
  });

  test("X-API-Key works as well as Authorization: ApiKey", async () => {
    const res = await http(system().baseUrl, "GET", "/api/partner/v1/health", { headers: { "X-API-Key": keyB } });
    expect(res.status).toBe(200);
    expect(res.body.organizationId).toBe(orgB.id);
    expect(res.body.keyPrefix.startsWith("rp_sandbox_")).toBe(true);
  });

  test("a key of organisation A never resolves to B, and the other way round", async () => {
    const a = await partner(system().baseUrl, keyA)("GET", "/health");
    const b = await partner(system().baseUrl, keyB)("GET", "/health");
    expect(a.body.organizationId).toBe(orgA.id);
    expect(b.body.organizationId).toBe(orgB.id);
    expect(a.body.organizationId).not.toBe(b.body.organizationId);
  });

  test.each([
    ["no key", {}],
    ["a malformed key", { Authorization: "ApiKey not-a-key" }],
    ["an unknown well-formed key", { Authorization: "ApiKey rp_live_" + "x".repeat(40) }],
    ["a Bearer scheme", { Authorization: "Bearer KEY" }],
    ["an empty X-API-Key", { "X-API-Key": "" }]
  ])("%s gets 401 UNAUTHENTICATED", async (_label, headers) => {
    const resolved = Object.fromEntries(Object.entries(headers as Record<string, string>).map(([k, v]) => [k, v.replace("KEY", keyA)]));
    const res = await http(system().baseUrl, "GET", "/api/partner/v1/health", { headers: resolved });
    expectError(res, 401, "UNAUTHENTICATED");
    expect(res.headers.get("x-request-id")).toBeTruthy();
  });

  test("a revoked key stops working at once, on every gateway that had it in memory", async () => {
    const bo = backoffice(system().baseUrl, system().backofficeToken);
    const created = await bo.createKey(orgA.id);
    secrets.push(created.key);
    // Used (so remembered) on every gateway first.
    for (const url of [system().baseUrl, system().secondGatewayUrl].filter((u): u is string => u !== undefined)) {
      for (let i = 0; i < 3; i++) expect((await partner(url, created.key)("GET", "/health")).status).toBe(200);
    }
    const revoke = await bo.call("DELETE", `/organizations/${orgA.id}/api-keys/${created.id}`);
    expect(revoke.status).toBe(204);
    expectError(await partner(system().baseUrl, created.key)("GET", "/health"), 401, "UNAUTHENTICATED");
    if (system().secondGatewayUrl) {
      expectError(await partner(system().secondGatewayUrl!, created.key)("GET", "/health"), 401, "UNAUTHENTICATED");
    }
  });

  test("rate limit: remaining counts down N-1 … 0, then 429 with Retry-After", async () => {
    const bo = backoffice(system().baseUrl, system().backofficeToken);
    const limit = 5;
    const { key } = await bo.createKey(orgA.id, { rateLimitPerMinute: limit });
    secrets.push(key);
    const call = partner(system().baseUrl, key);
    const remaining: string[] = [];
    for (let i = 0; i < limit; i++) {
      const res = await call("GET", "/health");
      expect(res.status).toBe(200);
      expect(res.headers.get("x-ratelimit-limit")).toBe(String(limit));
      remaining.push(res.headers.get("x-ratelimit-remaining")!);
    }
    expect(remaining).toEqual(["4", "3", "2", "1", "0"]);
    const over = await call("GET", "/health");
    expectError(over, 429, "RATE_LIMITED");
    expect(Number(over.headers.get("retry-after"))).toBeGreaterThan(0);
    expect(Number(over.headers.get("retry-after"))).toBeLessThanOrEqual(60);
    expect(over.headers.get("x-ratelimit-remaining")).toBe("0");
  });

  test("with two gateways, the key still gets exactly N requests through in the window", async () => {
    const second = system().secondGatewayUrl;
    if (!second) return; // one gateway in this mode: the test above covers it
    const bo = backoffice(system().baseUrl, system().backofficeToken);
    const limit = 8;
    const { key } = await bo.createKey(orgA.id, { rateLimitPerMinute: limit });
    secrets.push(key);
    const results = await Promise.all(
      Array.from({ length: 20 }, (_, i) => partner(i % 2 === 0 ? system().baseUrl : second, key)("GET", "/health"))
    );
    expect(results.filter(r => r.status === 200)).toHaveLength(limit);
    expect(results.filter(r => r.status === 429)).toHaveLength(20 - limit);
  });

  test("every response carries X-Request-Id; a sane incoming one is echoed", async () => {
    const res = await http(system().baseUrl, "GET", "/api/partner/v1/health", {
      headers: { Authorization: `ApiKey ${keyA}`, "X-Request-Id": "merchant-req-42" }
    });
    expect(res.headers.get("x-request-id")).toBe("merchant-req-42");
    const weird = await http(system().baseUrl, "GET", "/api/partner/v1/health", {
      headers: { Authorization: `ApiKey ${keyA}`, "X-Request-Id": "x".repeat(300) }
    });
    expect(weird.headers.get("x-request-id")).toMatch(/^[0-9a-f-]{36}$/);
  });

  test.each([
    ["GET", "/nowhere"],
    ["GET", "/api/partner/v1/unknown"],
    ["GET", "/api/partner/v2/health"]
  ])("unknown route %s %s is a JSON 404, never HTML", async (method, path) => {
    const res = await http(system().baseUrl, method, path, { headers: { Authorization: `ApiKey ${keyA}` } });
    expectError(res, 404, "NOT_FOUND");
    expect(res.headers.get("x-request-id")).toBeTruthy();
  });

  test("a known route with another method is a JSON 405 with Allow, never HTML", async () => {
    const res = await http(system().baseUrl, "DELETE", "/api/partner/v1/health", { headers: { Authorization: `ApiKey ${keyA}` } });
    expectError(res, 405, "METHOD_NOT_ALLOWED");
    expect(res.headers.get("allow")).toBe("GET, HEAD");
    expect(res.headers.get("x-request-id")).toBeTruthy();
  });

  test.each(["/api/partner/v1/parcels/by-tracking/%ZZ", "/api/partner/v1/parcels/%E0%A4%A"])(
    "a broken %%-escape in %s is a 400, not a 500",
    async path => {
      const res = await http(system().baseUrl, "GET", path, { headers: { Authorization: `ApiKey ${keyA}` } });
      expectError(res, 400, "VALIDATION_FAILED");
    }
  );

  test("a broken %-escape in a label URL is the 403 of any label URL that does not verify", async () => {
    expectError(await http(system().baseUrl, "GET", "/labels/%ZZ.pdf"), 403, "LABEL_URL_INVALID");
  });

  test("a malformed JSON body is a 400 in the error shape", async () => {
    const res = await http(system().baseUrl, "POST", "/api/backoffice/v1/organizations", {
      headers: { Authorization: `Bearer ${system().backofficeToken}`, "Content-Type": "application/json" },
      rawBody: "{not json"
    });
    expectError(res, 400, "VALIDATION_FAILED");
  });

  test("the back-office refuses a missing or wrong token, and validates its input field by field", async () => {
    expectError(await http(system().baseUrl, "POST", "/api/backoffice/v1/organizations", { body: { name: "x" } }), 401, "UNAUTHENTICATED");
    expectError(
      await http(system().baseUrl, "GET", `/api/backoffice/v1/organizations/${orgA.id}`, {
        headers: { Authorization: `Bearer ${keyA}` }
      }),
      401,
      "UNAUTHENTICATED"
    );
    const bo = backoffice(system().baseUrl, system().backofficeToken);
    const bad = await bo.call("POST", `/organizations/${orgA.id}/api-keys`, { mode: "staging", scopes: ["admin"] });
    expectError(bad, 400, "VALIDATION_FAILED");
    expect(bad.body.details.map((d: { field: string }) => d.field).sort()).toEqual(["mode", "scopes.0"]);
    expectError(await bo.call("GET", "/organizations/not-a-uuid"), 400, "VALIDATION_FAILED");
    expectError(await bo.call("GET", "/organizations/7a3c1a52-61a8-4b9e-9c62-4d0c6d1f0e11"), 404, "ORGANIZATION_NOT_FOUND");
  });

  test("the key list shows prefixes and scopes, never the secret", async () => {
    const bo = backoffice(system().baseUrl, system().backofficeToken);
    const res = await bo.call("GET", `/organizations/${orgA.id}/api-keys`);
    expect(res.status).toBe(200);
    expect(res.body.length).toBeGreaterThan(0);
    for (const key of res.body) {
      expect(key).not.toHaveProperty("key");
      expect(key).not.toHaveProperty("keyHash");
      expect(key.scopes).toEqual(["parcels:read", "parcels:write", "wallet:read"]);
    }
    for (const secret of secrets) expect(res.text).not.toContain(secret.slice(20));
  });

  test("no key secret appears in any log line", async () => {
    // Give asynchronous loggers a moment to flush what the requests above produced.
    await new Promise(r => setTimeout(r, 300));
    const logs = system().logs();
    expect(logs.length).toBeGreaterThan(0);
    for (const secret of secrets) {
      expect(logs).not.toContain(secret);
      expect(logs).not.toContain(secret.slice(-20));
    }
  });
}
