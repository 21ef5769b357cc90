import http from "node:http";
import { brotliCompressSync, deflateSync, gzipSync } from "node:zlib";
import fc from "fast-check";
import { apiDocument } from "../helpers/api-documents";
import { backoffice, partner } from "../helpers/http";
import type { SystemUnderTest } from "./gateway-contract";

/**
 * Property-based fuzzing of every route of both APIs: random methods, paths, path parameters,
 * query strings, headers, encodings and bodies. Whatever arrives, the answer is below 500, an
 * error is in the normalised shape with its status, nothing hangs and no connection is reset
 * before an answer. `npm test` runs it with a fixed seed; `npm run fuzz` with a random one
 * (FUZZ_SEED, FUZZ_RUNS), printing the seed and the smallest failing request.
 */

export const FUZZ_SEED = process.env.FUZZ_SEED === "random" ? Date.now() % 2_147_483_647 : Number(process.env.FUZZ_SEED ?? 20261121);
export const FUZZ_RUNS = Number(process.env.FUZZ_RUNS ?? 1500);
const REQUEST_TIMEOUT_MS = 15_000;

interface FuzzRequest {
  method: string;
  path: string;
  headers: Record<string, string>;
  body: Buffer | null;
}

interface Answer {
  status: number;
  contentType: string;
  text: string;
}

interface World {
  liveKey: string;
  sandboxKey: string;
  readOnlyKey: string;
  backofficeToken: string;
  orgId: string;
  otherOrgId: string;
  spareKeyId: string;
  endpointId: string;
  eventId: string;
  parcelIds: string[];
  trackingNumbers: string[];
  labelPath: string;
  labelDocumentPath: string;
}

const DOCUMENTS = [apiDocument("partner"), apiDocument("backoffice")];

/** Every documented operation: the fuzz aims at real endpoints most of the time, with the right method. */
const OPERATIONS = DOCUMENTS.flatMap(doc =>
  Object.entries(doc.paths).flatMap(([template, item]) =>
    (["get", "post", "put", "delete", "patch"] as const)
      .filter(method => item[method])
      .map(method => ({ method: method.toUpperCase(), template, operationId: item[method]!.operationId }))
  )
);

/** The operations that move money or status, aimed at more often: the invariant afterwards has something to check. */
const MONEY_OPERATIONS = new Set([
  "createParcel",
  "createParcelBatch",
  "cancelParcel",
  "triggerSandboxEvent",
  "transitionParcel",
  "topUpWallet"
]);
const WEIGHTED_OPERATIONS = OPERATIONS.flatMap(op => (MONEY_OPERATIONS.has(op.operationId) ? [op, op, op, op] : [op]));

const TEMPLATES = [
  ...OPERATIONS.map(o => o.template),
  "/v3/api-docs/partner",
  "/v3/api-docs/backoffice",
  "/docs",
  "/docs/swagger-ui.css",
  "/healthz",
  "/readyz",
  "/track",
  "/track/{trackingNumber}"
];

/** The tracking pages answer people, in HTML, errors included (services/gateway/tracking-page): each under its CSP. */
const isTrackingPage = (path: string) => /^\/track(\/|\?|$)/.test(path);

const STATUSES = ["CREATED", "READY_FOR_PICKUP", "PICKED_UP", "IN_TRANSIT", "AT_RELAY", "RELAY_NOTIFIED", "DELIVERED", "CANCELLED", "LOST"];

/** Strings that have broken parsers before: control characters, surrogates, escapes, sizes. */
const nasty = fc.oneof(
  fc.string({ maxLength: 40 }),
  fc.string({ unit: "grapheme", maxLength: 20 }),
  fc.string({ unit: "binary", maxLength: 20 }),
  fc.constantFrom(
    "",
    " ",
    "\u0000",
    "a\u0000b",
    "\ud800",
    "\udfff",
    "😀".repeat(101),
    "%00",
    "%ZZ",
    "%E0%A4%A",
    "..",
    "../..",
    "null",
    "-1",
    "1e309",
    "x".repeat(5000),
    "<script>",
    "' OR 1=1 --"
  )
);

const jsonish: fc.Arbitrary<unknown> = fc.oneof(
  fc.jsonValue({ maxDepth: 3 }),
  nasty,
  fc.integer(),
  fc.double(),
  fc.constantFrom(null, true, 0, -1, 30000, 30001, 10_000_000.001, 1234.56, [] as unknown[], {})
);

function mutate(valid: Record<string, unknown>): fc.Arbitrary<Record<string, unknown>> {
  const keys = Object.keys(valid);
  return fc
    .record({
      replace: fc.dictionary(fc.constantFrom(...keys), jsonish, { maxKeys: 3 }),
      drop: fc.subarray(keys, { maxLength: Math.min(2, keys.length) }),
      extra: fc.dictionary(fc.oneof(fc.string({ maxLength: 8 }), fc.constantFrom("__proto__", "constructor", "prototype")), jsonish, {
        maxKeys: 2
      })
    })
    .map(({ replace, drop, extra }) => {
      const out: Record<string, unknown> = { ...valid, ...replace };
      for (const key of drop) delete out[key];
      for (const [key, value] of Object.entries(extra)) Object.defineProperty(out, key, { value, enumerable: true });
      return out;
    });
}

/** A valid body of each operation that takes one, for the fuzz to start from. */
const VALID_BODIES: Record<string, Record<string, unknown>> = {
  createParcel: {
    recipientName: "Fuzz",
    recipientPhone: "+213 555 00 00 00",
    weightG: 700,
    destinationRelayCode: "DZ-16-HYDRA",
    codAmountDzd: 1500
  },
  createParcelBatch: {
    items: [
      {
        recipientName: "Fuzz",
        recipientPhone: "+213 555 00 00 00",
        weightG: 700,
        destinationRelayCode: "DZ-16-HYDRA",
        idempotencyKey: "fuzz-item"
      },
      {
        recipientName: "Fuzz 2",
        recipientPhone: "0555 00 00 01",
        weightG: 30000,
        destinationRelayCode: "DZ-31-ORAN-CENTRE",
        codAmountDzd: 1
      }
    ]
  },
  createLabelDocument: { parcelIds: ["3f6c8e1a-5b2d-4c7e-9a10-2b3c4d5e6f70"], format: "a4", startOffset: 1 },
  cancelParcel: { reason: "fuzz" },
  triggerSandboxEvent: { toStatus: "DELIVERED", reason: "fuzz" },
  createOrganization: { name: "Fuzz Org" },
  createApiKey: { mode: "sandbox", scopes: ["parcels:read"], name: "fuzz", rateLimitPerMinute: 100 },
  topUpWallet: { amountDzd: 100, mode: "sandbox" },
  setWebhookEndpoint: { url: "https://hooks.example.invalid/fuzz", secret: "s".repeat(32) },
  createWebhookEndpoint: {
    url: "https://hooks.example.invalid/fuzz",
    secret: "s".repeat(32),
    mode: "sandbox",
    eventTypes: ["parcel.delivered"],
    enabled: true,
    description: "fuzz"
  },
  updateWebhookEndpoint: { url: "https://hooks.example.invalid/other", mode: "both", eventTypes: null, enabled: false, description: null },
  rotateWebhookSecret: { secret: null, overlapSeconds: 60 },
  replayWebhookEvents: { since: "2026-01-17T00:00:00Z", only: "failed" },
  transitionParcel: { toStatus: "DELIVERED", reason: "fuzz", pin: "123456" },
  createCodRemittance: {
    reference: "VIR-FUZZ",
    mode: "sandbox",
    parcelIds: ["3f6c8e1a-5b2d-4c7e-9a10-2b3c4d5e6f70"],
    paidOn: "2026-02-28"
  },
  setCodSettings: { payout: "WALLET" },
  upsertRelayPoint: {
    code: "DZ-FZ-POINT",
    name: "Fuzz point",
    city: "Alger",
    wilaya: "16",
    address: "1 rue",
    active: true,
    nameAr: "نقطة",
    latitude: 36.7,
    longitude: 3.05,
    openingHours: { mon: [{ open: "08:00", close: "12:00" }], tue: [], wed: [], thu: [], fri: [], sat: [], sun: [] }
  },
  quoteParcel: { weightG: 700, destinationRelayCode: "DZ-16-HYDRA", codAmountDzd: 1500, declaredValueDzd: 9000 }
};

function bodyArbitrary(operationId: string | null): fc.Arbitrary<{ bytes: Buffer | null; json: boolean }> {
  const asJson = (value: unknown) => ({ bytes: Buffer.from(JSON.stringify(value) ?? "null"), json: true });
  const own = operationId ? VALID_BODIES[operationId] : undefined;
  const starts = own ? [own] : Object.values(VALID_BODIES);
  return fc.oneof(
    { weight: own ? 3 : 0, arbitrary: fc.constant(asJson(own ?? {})) },
    {
      weight: 4,
      arbitrary: fc
        .constantFrom(...starts)
        .chain(mutate)
        .map(asJson)
    },
    { weight: 2, arbitrary: jsonish.map(asJson) },
    {
      weight: 1,
      arbitrary: fc
        .constantFrom(
          "{bad",
          '{"__proto__":{"weightG":1200}}',
          "[".repeat(5000),
          '{"a":' + "[".repeat(100_000),
          '{"a":' + "[".repeat(20_000) + "]".repeat(20_000) + "}",
          "null",
          "",
          '"\\ud800"',
          `{"a":"${"x".repeat(70_000)}"}`
        )
        .map(text => ({ bytes: Buffer.from(text), json: true }))
    },
    { weight: 1, arbitrary: fc.uint8Array({ maxLength: 200 }).map(bytes => ({ bytes: Buffer.from(bytes), json: false })) },
    { weight: 1, arbitrary: fc.constant({ bytes: null, json: false }) }
  );
}

/** Every byte percent-encoded: any string, even one with an unpaired surrogate, becomes a valid URL part. */
function percentEncoded(text: string): string {
  return Buffer.from(text, "utf8").toString("hex").replace(/../g, "%$&");
}

function requestArbitrary(world: World): fc.Arbitrary<FuzzRequest> {
  const pathValue = fc.oneof(
    fc.constantFrom(
      ...world.parcelIds,
      ...world.trackingNumbers,
      world.orgId,
      world.otherOrgId,
      world.spareKeyId,
      world.endpointId,
      world.eventId
    ),
    fc.uuid(),
    nasty.map(percentEncoded),
    fc.constantFrom("%00", "%ZZ", "%E0%A4%A", "a%2Fb", "..", "x.pdf")
  );
  const fill = (template: string) => {
    const names = [...template.matchAll(/\{([^}]+)\}/g)].map(m => m[1]);
    return fc.tuple(...names.map(() => pathValue)).map(values => names.reduce((p, name, i) => p.replace(`{${name}}`, values[i]), template));
  };
  const methods = fc.constantFrom("GET", "GET", "POST", "POST", "PUT", "DELETE", "PATCH", "OPTIONS", "HEAD");
  // Half aimed at a documented operation with its own method and body, half anywhere with anything.
  const target = fc.oneof(
    {
      weight: 6,
      arbitrary: fc
        .constantFrom(...WEIGHTED_OPERATIONS)
        .chain(op => fc.record({ method: fc.constant(op.method), path: fill(op.template), body: bodyArbitrary(op.operationId) }))
    },
    { weight: 2, arbitrary: fc.record({ method: methods, path: fc.constantFrom(...TEMPLATES).chain(fill), body: bodyArbitrary(null) }) },
    { weight: 1, arbitrary: fc.record({ method: methods, path: fc.constant(world.labelPath), body: bodyArbitrary(null) }) },
    { weight: 1, arbitrary: fc.record({ method: methods, path: fc.constant(world.labelDocumentPath), body: bodyArbitrary(null) }) },
    { weight: 1, arbitrary: fc.record({ method: methods, path: fc.webPath().map(p => p || "/"), body: bodyArbitrary(null) }) }
  );
  const query = fc.oneof(
    fc.constant(""),
    fc
      .array(
        fc.tuple(
          fc.oneof(
            fc.constantFrom(
              "status",
              "page",
              "size",
              "mode",
              "expires",
              "signature",
              "format",
              "startOffset",
              "parcels",
              "__proto__[x]",
              "a[b][c]",
              "q",
              "wilaya",
              "city",
              "near",
              "radiusKm",
              "number",
              "lang",
              "after",
              "limit",
              "type",
              "parcelId",
              "endpointId"
            ),
            fc.string({ maxLength: 8 })
          ),
          fc.oneof(
            fc.constantFrom(
              ...STATUSES,
              "0",
              "-1",
              "100",
              "101",
              "abc",
              "",
              "16",
              "36.75,3.05",
              "91,0",
              "ar",
              "RP123456785DZ",
              "3",
              "4",
              "a4",
              "zpl",
              "4x6"
            ),
            nasty
          )
        ),
        { maxLength: 4 }
      )
      .map(pairs => "?" + pairs.map(([k, v]) => `${percentEncoded(k)}=${percentEncoded(v)}`).join("&"))
  );
  const anyCredentials = fc.constantFrom<Record<string, string>>(
    { Authorization: `ApiKey ${world.liveKey}`, "X-API-Key": world.sandboxKey },
    { Authorization: "Bearer x", "X-API-Key": world.liveKey },
    { "X-API-Key": world.readOnlyKey },
    { Authorization: "Bearer wrong" },
    { Authorization: "ApiKey rp_live_" + "x".repeat(40) },
    { Authorization: `Bearer ${world.backofficeToken}` },
    { Authorization: `ApiKey ${world.liveKey}` },
    {}
  );
  // Mostly the credential the path's API takes, so that requests get past authentication.
  const credentialsFor = (path: string) => {
    const right = path.startsWith("/api/backoffice")
      ? fc.constant({ Authorization: `Bearer ${world.backofficeToken}` })
      : fc.constantFrom<Record<string, string>>({ Authorization: `ApiKey ${world.liveKey}` }, { "X-API-Key": world.sandboxKey });
    return fc.oneof({ weight: 3, arbitrary: right }, { weight: 1, arbitrary: anyCredentials });
  };
  const contentType = fc.constantFrom(
    "application/json",
    "application/json",
    "application/json",
    "application/json",
    "application/json; charset=utf-8",
    "application/json; charset=latin1",
    "application/vnd.api+json",
    "text/plain",
    "application/x-www-form-urlencoded",
    "multipart/form-data; boundary=x",
    ""
  );
  const encoding = fc.constantFrom("", "", "", "", "", "identity", "gzip", "deflate", "br", "compress", "gzip, br", "GZIP");
  const extra = fc.record(
    {
      Origin: fc.constantFrom("https://shop.example.dz", "https://evil.example", "null"),
      "Access-Control-Request-Method": fc.constantFrom("POST", "GET", "DELETE", "BREW"),
      "Idempotency-Key": fc.oneof(
        fc.string({ maxLength: 300 }).filter(s => /^[\x20-\x7e]*$/.test(s)),
        fc.constant("fuzz-key")
      ),
      "X-Request-Id": fc.string({ maxLength: 300 }).filter(s => /^[\x20-\x7e]*$/.test(s)),
      "X-Forwarded-For": fc.ipV4()
    },
    { requiredKeys: [] }
  );
  return fc
    .record({
      target: target.chain(t => credentialsFor(t.path).map(credentials => ({ ...t, credentials }))),
      query,
      contentType,
      encoding,
      compressForReal: fc.boolean(),
      extra
    })
    .map(({ target: { method, path, body: generated, credentials }, ...r }) => {
      const headers: Record<string, string> = { ...credentials, ...r.extra };
      if (r.contentType) headers["Content-Type"] = r.contentType;
      let body = method === "GET" || method === "HEAD" ? null : generated.bytes;
      if (body && r.encoding) {
        headers["Content-Encoding"] = r.encoding;
        if (r.compressForReal) {
          const coder = { gzip: gzipSync, deflate: deflateSync, br: brotliCompressSync }[r.encoding as "gzip"];
          if (coder) body = coder(body);
        }
      }
      return { method, path: path.split("?")[0] + r.query, headers, body };
    });
}

const agent = new http.Agent({ keepAlive: true, maxSockets: 4 });

function send(baseUrl: string, request: FuzzRequest): Promise<Answer> {
  const url = new URL(baseUrl);
  return new Promise((resolve, reject) => {
    let answered = false;
    const req = http.request(
      {
        host: url.hostname,
        port: url.port,
        method: request.method,
        path: request.path,
        headers: request.headers,
        agent,
        timeout: REQUEST_TIMEOUT_MS
      },
      res => {
        answered = true;
        const chunks: Buffer[] = [];
        res.on("data", chunk => chunks.push(chunk));
        res.on("end", () =>
          resolve({
            status: res.statusCode ?? 0,
            contentType: String(res.headers["content-type"] ?? ""),
            text: Buffer.concat(chunks).toString("utf8")
          })
        );
        res.on("error", reject);
      }
    );
    req.on("timeout", () => req.destroy(new Error(`no answer within ${REQUEST_TIMEOUT_MS} ms (hang)`)));
    req.on("error", err => {
      // Writing the rest of a body the server already refused (413) may fail after its answer.
      if (!answered) reject(err);
    });
    // Node's client frames a GET/DELETE/OPTIONS body with no length: say it, or the body would be
    // read as the next request (broken framing is the raw-socket tests' business, not this one's).
    if (request.body) req.setHeader("Content-Length", request.body.length);
    if (request.body) req.end(request.body);
    else req.end();
  });
}

/** What every answer must be, whatever was sent. */
export function checkAnswer(request: FuzzRequest, answer: Answer): string[] {
  const problems: string[] = [];
  if (answer.status >= 500 || answer.status < 100) problems.push(`status ${answer.status}`);
  if (answer.status >= 400 && request.method !== "HEAD" && isTrackingPage(request.path) && answer.contentType.startsWith("text/html")) {
    if (!answer.text.includes('<main id="content">'))
      problems.push(`a tracking page error that is not a page: ${answer.text.slice(0, 200)}`);
  } else if (answer.status >= 400 && request.method !== "HEAD") {
    if (!answer.contentType.includes("application/json")) problems.push(`error with content-type "${answer.contentType}"`);
    try {
      const body = JSON.parse(answer.text) as { code?: unknown; message?: unknown; status?: unknown };
      if (typeof body.code !== "string" || typeof body.message !== "string" || body.status !== answer.status) {
        problems.push(`error body not in the normalised shape: ${answer.text.slice(0, 200)}`);
      }
    } catch {
      problems.push(`error body is not JSON: ${answer.text.slice(0, 200)}`);
    }
  }
  if (/\bat .+\.(js|ts):\d+/.test(answer.text)) problems.push("a stack trace in the answer");
  return problems;
}

function describeRequest(r: FuzzRequest): string {
  const body = r.body ? ` body(${r.body.length}B)=${JSON.stringify(r.body.subarray(0, 120).toString("latin1"))}` : "";
  return `${r.method} ${r.path.slice(0, 200)} ${JSON.stringify(r.headers).slice(0, 300)}${body}`;
}

/** The fuzz run against one started system; `afterwards` checks what must hold once it is over. */
export function fuzzContract(system: () => SystemUnderTest): void {
  let world: World;

  beforeAll(async () => {
    const base = system().baseUrl;
    const bo = backoffice(base, system().backofficeToken);
    const org = await bo.createOrganization("Fuzz SARL");
    const other = await bo.createOrganization("Fuzz Other");
    const liveKey = (await bo.createKey(org.id, { rateLimitPerMinute: 1_000_000 })).key;
    const sandboxKey = (await bo.createKey(org.id, { mode: "sandbox", rateLimitPerMinute: 1_000_000 })).key;
    const readOnlyKey = (await bo.createKey(org.id, { scopes: ["parcels:read"], rateLimitPerMinute: 1_000_000 })).key;
    const spare = await bo.createKey(org.id, { mode: "sandbox" });
    await bo.call("POST", `/organizations/${org.id}/wallet/top-ups`, { amountDzd: 5_000_000 });
    await bo.call("POST", `/organizations/${org.id}/wallet/top-ups`, { amountDzd: 5_000_000, mode: "sandbox" });
    const body = { recipientName: "Fuzz", recipientPhone: "0555000000", weightG: 300, destinationRelayCode: "DZ-16-HYDRA" };
    const parcels = [
      (await partner(base, liveKey)("POST", "/parcels", body)).body,
      (await partner(base, sandboxKey)("POST", "/parcels", body)).body
    ];
    const url = new URL(parcels[0].labelUrl);
    const endpoint = await bo.call("POST", `/organizations/${org.id}/webhook-endpoints`, { url: "https://hooks.example.invalid/fuzz" });
    const events = await partner(base, liveKey)("GET", "/events?limit=1");
    const document = new URL((await partner(base, liveKey)("POST", "/labels", { parcelIds: [parcels[0].id], format: "a4" })).body.url);
    world = {
      liveKey,
      sandboxKey,
      readOnlyKey,
      backofficeToken: system().backofficeToken,
      orgId: org.id,
      otherOrgId: other.id,
      spareKeyId: spare.id,
      endpointId: endpoint.body.id,
      // The outbox may not have handed the first event over yet: any uuid then.
      eventId: events.body.items[0]?.id ?? spare.id,
      parcelIds: parcels.map(p => p.id),
      trackingNumbers: parcels.map(p => p.trackingNumber),
      labelPath: url.pathname + url.search,
      labelDocumentPath: document.pathname + document.search
    };
  });

  afterAll(() => agent.destroy());

  test(
    `${FUZZ_RUNS} random requests over every route: no 5xx, errors in the normalised shape, no hang, no reset (seed ${FUZZ_SEED})`,
    async () => {
      const base = system().baseUrl;
      const statuses = new Map<number, number>();
      await fc.assert(
        fc.asyncProperty(requestArbitrary(world), async request => {
          if (process.env.FUZZ_VERBOSE) process.stderr.write(`${describeRequest(request)}\n`);
          const answer = await send(base, request);
          statuses.set(answer.status, (statuses.get(answer.status) ?? 0) + 1);
          const problems = checkAnswer(request, answer);
          if (problems.length > 0) throw new Error(`${problems.join("; ")}\n  for ${describeRequest(request)}`);
        }),
        {
          seed: FUZZ_SEED,
          numRuns: FUZZ_RUNS,
          endOnFailure: true,
          interruptAfterTimeLimit: 10 * 60_000,
          verbose: process.env.FUZZ_VERBOSE ? 2 : 0
        }
      );
      const histogram = [...statuses]
        .sort(([a], [b]) => a - b)
        .map(([status, n]) => `${status}×${n}`)
        .join(" ");
      process.stderr.write(`fuzz (seed ${FUZZ_SEED}): ${histogram}\n`);
      // The run reached real work, not only refusals.
      expect((statuses.get(200) ?? 0) + (statuses.get(201) ?? 0)).toBeGreaterThan(FUZZ_RUNS / 50);
      // Still serving, and answering as before.
      expect((await partner(base, world.liveKey)("GET", "/health")).status).toBe(200);
    },
    15 * 60_000
  );
}
