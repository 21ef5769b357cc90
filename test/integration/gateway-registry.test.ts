import { randomBytes } from "node:crypto";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { backoffice, http } from "../helpers/http";
import { createTestDatabase } from "../helpers/postgres";
import { freePort, ROOT, RunningProcess, startProcess, waitForHttp } from "../helpers/processes";
import { describeWithServers, distributedEnv } from "../helpers/servers";

/**
 * Issue 9, acceptance 3 and the registry-built routes: a gateway process alone on the bus loads
 * no other service's code, answers 404 for routes nobody serves yet, and serves the partner and
 * back-office endpoints as soon as the services that declare them join, without a restart.
 */

const PRELOAD = path.join(ROOT, "test", "fixtures", "record-loaded-modules.cjs");
const START = path.join(ROOT, "dist", "bin", "start.js");
const SERVICES_DIR = path.join(ROOT, "dist", "services");

async function startService(env: Record<string, string>, preload = false): Promise<RunningProcess> {
  const proc = startProcess(process.execPath, [...(preload ? ["--require", PRELOAD] : []), START], env);
  await proc.waitForOutput(/ServiceBroker with \d+ service\(s\) started successfully/, 60_000);
  return proc;
}

/** Polls until `probe` answers `status` (the registry spreads over the bus within a heartbeat or two). */
async function eventually<T extends { status: number }>(probe: () => Promise<T>, status: number, timeoutMs = 20_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const res = await probe();
    if (res.status === status || Date.now() > deadline) return res;
    await new Promise(r => setTimeout(r, 200));
  }
}

describeWithServers(["postgres", "redis", "nats"], "a gateway built from the registry (distributed)", () => {
  const token = `bo_${randomBytes(12).toString("hex")}`;
  const modulesFile = path.join(fs.mkdtempSync(path.join(os.tmpdir(), "relay-modules-")), "loaded.json");
  let database: { url: string; drop: () => Promise<void> };
  let gateway: RunningProcess | undefined;
  let services: RunningProcess | undefined;
  let messaging: RunningProcess | undefined;
  let base: string;

  beforeAll(async () => {
    database = await createTestDatabase();
    const env = distributedEnv(database.url, token, "registry");
    const port = await freePort();
    base = `http://127.0.0.1:${port}`;
    gateway = await startService(
      { ...env, SERVICES: "gateway", PORT: String(port), PUBLIC_BASE_URL: base, LOADED_MODULES_FILE: modulesFile },
      true
    );
    await waitForHttp(`${base}/healthz`);
    (globalThis as { registryEnv?: Record<string, string> }).registryEnv = env;
  }, 90_000);

  /** Raw, not through the documented-response check: a 404 before the route exists is the point. */
  async function createOrganization(name: string): Promise<{ status: number; body: { id: string; code?: string } }> {
    const res = await fetch(`${base}/api/backoffice/v1/organizations`, {
      method: "POST",
      headers: { Authorization: `Bearer ${token}`, "Content-Type": "application/json" },
      body: JSON.stringify({ name })
    });
    return { status: res.status, body: (await res.json()) as { id: string; code?: string } };
  }

  afterAll(async () => {
    await messaging?.stop();
    await services?.stop();
    await gateway?.stop();
    await database?.drop();
  });

  test("before any service joins: their routes are unknown (404), and the document is 503 rather than partial", async () => {
    const res = await createOrganization("Too early SARL");
    expect(res.status).toBe(404);
    expect(res.body).toMatchObject({ code: "NOT_FOUND", status: 404 });
    // A partial document would read as the whole API: until every service has registered, 503 and Retry-After.
    const document = await http(base, "GET", "/v3/api-docs/partner");
    expect(document.status).toBe(503);
    expect(document.headers.get("retry-after")).toBeTruthy();
  });

  test("while the services are missing, readiness answers 503 and the log has no stack for it", async () => {
    const res = await fetch(`${base}/readyz`);
    expect(res.status).toBe(503);
    expect(((await res.json()) as { message: string }).message).toMatch(/^Not ready: /);
    // moleculer-web's own error log printed "Request error!" and a stack for every poll.
    expect(gateway!.output()).not.toMatch(/Request error|\n\s+at /);
  });

  test("services joining later: their routes answer and the document lists them, without restarting the gateway", async () => {
    const env = (globalThis as { registryEnv?: Record<string, string> }).registryEnv!;
    // Two nodes, as a deployment has several: one node with all seven services announces more than
    // NATS's 1 MB payload in its INFO packet.
    services = await startService({ ...env, SERVICES: "auth,wallet,parcels,labels" });
    messaging = await startService({ ...env, SERVICES: "webhooks,notifications,logistics" });

    const org = await eventually(() => createOrganization("Registry SARL"), 201);
    expect(org.status).toBe(201);
    const { key } = await backoffice(base, token).createKey(org.body.id);
    const health = await eventually(
      () => http(base, "GET", "/api/partner/v1/health", { headers: { Authorization: `ApiKey ${key}` } }),
      200
    );
    expect(health.status).toBe(200);
    const list = await http(base, "GET", "/api/partner/v1/parcels", { headers: { Authorization: `ApiKey ${key}` } });
    expect(list.status).toBe(200);
    const byTracking = await http(base, "GET", "/api/partner/v1/parcels/by-tracking/RP000000000DZ", {
      headers: { Authorization: `ApiKey ${key}` }
    });
    expect(byTracking.body).toMatchObject({ code: "PARCEL_NOT_FOUND" });

    const document = await eventually(() => http(base, "GET", "/v3/api-docs/partner"), 200);
    expect(Object.keys(document.body.paths)).toEqual(
      expect.arrayContaining([
        "/api/partner/v1/parcels",
        "/api/partner/v1/parcels/by-tracking/{trackingNumber}",
        "/api/partner/v1/parcels/{id}"
      ])
    );
  }, 90_000);

  test("the gateway process loaded no other service's module", async () => {
    await gateway!.stop();
    gateway = undefined;
    const loaded = JSON.parse(fs.readFileSync(modulesFile, "utf8")) as string[];
    const ofServices = loaded.filter(file => file.startsWith(SERVICES_DIR + path.sep)).map(file => path.relative(SERVICES_DIR, file));
    expect(ofServices).toContain("gateway.service.js");
    const foreign = ofServices.filter(file => !/^(gateway\.service\.js|gateway\/|index\.js$)/.test(file));
    expect(foreign).toEqual([]);
  }, 30_000);
});
