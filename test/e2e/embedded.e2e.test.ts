import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { http } from "../helpers/http";
import { freePort, ROOT, RunningProcess, START_WAIT_MS, startProcess } from "../helpers/processes";
import { SystemUnderTest } from "./gateway-contract";
import { everyContract } from "./every-contract";
import { HOSTILE_INPUT_ENV } from "./hostile-input-contract";
import { checkMoneyInvariant } from "../helpers/money-invariant";
import { startReceiver } from "../helpers/receivers";
import { SmsInbox, startSmsInbox } from "../helpers/sms-inbox";

/** `npm start` exactly as the README says: no servers, no variables but a port, a data folder and local receivers. */
describe("embedded mode (npm start)", () => {
  let proc: RunningProcess;
  let dataDir: string;
  let port: number;
  let demoLiveKey: string;
  let backofficeToken: string;
  let sms: SmsInbox;

  beforeAll(async () => {
    dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "relay-embedded-"));
    port = await freePort();
    // The one addition to `npm start`: the pick-up SMS go to a stand-in gateway, where tests read the PINs.
    sms = await startSmsInbox();
    proc = npmStart();
    const banner = await proc.waitForOutput(
      /curl -s -H "Authorization: ApiKey (rp_live_\w+)" (\S+)\/api\/partner\/v1\/health/,
      START_WAIT_MS
    );
    demoLiveKey = banner[1];
    backofficeToken = (await proc.waitForOutput(/Back-office token \(Authorization: Bearer …\): (\S+)/))[1];
  }, 200_000);

  afterAll(async () => {
    await proc?.stop();
    await sms?.close();
    fs.rmSync(dataDir, { recursive: true, force: true });
  });

  // The webhook contract's receivers are on this machine: WEBHOOK_ALLOW_PRIVATE, as the banner says.
  const npmStart = () =>
    startProcess("npm", ["start", "--silent"], {
      PORT: String(port),
      DATA_DIR: dataDir,
      WEBHOOK_ALLOW_PRIVATE: "true",
      ...HOSTILE_INPUT_ENV,
      ...sms.env
    });

  const system = (): SystemUnderTest => ({ baseUrl: `http://127.0.0.1:${port}`, backofficeToken, logs: () => proc.output(), sms });

  // The start-up time is the bench's business (no timed assertions in tests): here, that it serves.
  test("serves /health with the printed demo live key", async () => {
    const res = await http(`http://127.0.0.1:${port}`, "GET", "/api/partner/v1/health", {
      headers: { Authorization: `ApiKey ${demoLiveKey}` }
    });
    expect(res.status).toBe(200);
    expect(res.body.status).toBe("ok");
    expect(res.body.organizationName).toBe("Demo Merchant SARL");
    expect(res.body.keyPrefix).toBe(demoLiveKey.slice(0, 16));
  });

  test("the banner prints a sandbox key too, and each demo key exactly once", () => {
    const out = proc.output();
    const sandbox = /sandbox key: (rp_sandbox_\w+)/.exec(out);
    expect(sandbox).not.toBeNull();
    // Each key twice, both in the one banner: its own line and its ready-to-paste curl line.
    expect(out.split(sandbox![1]).length - 1).toBe(2);
    expect(out.split(demoLiveKey).length - 1).toBe(2);
    const banner = out.slice(out.indexOf("relay-parcels is running"));
    expect(banner.split(sandbox![1]).length - 1).toBe(2);
    expect(banner.split(demoLiveKey).length - 1).toBe(2);
  });

  everyContract(system);

  test("after all that traffic, the money invariant holds (read from the stopped process's database)", async () => {
    await proc.stop();
    const report = await checkMoneyInvariant({ pgliteDir: path.join(dataDir, "pgdata") });
    expect(report.violations).toEqual([]);
    expect(report.visibleParcels).toBeGreaterThan(0);
    proc = npmStart();
    await proc.waitForOutput(/Demo keys were printed on the first start/, START_WAIT_MS);
  }, 200_000);

  test("DATA_DIR is for its owner only: folders 0700, files 0600", () => {
    const loose: string[] = [];
    const walk = (p: string) => {
      const stat = fs.lstatSync(p);
      const expected = stat.isDirectory() ? 0o700 : 0o600;
      if ((stat.mode & 0o777) !== expected) loose.push(`${(stat.mode & 0o777).toString(8)} ${p}`);
      if (stat.isDirectory()) for (const entry of fs.readdirSync(p)) walk(path.join(p, entry));
    };
    walk(dataDir);
    expect(loose).toEqual([]);
    expect(fs.readdirSync(path.join(dataDir, "pgdata")).length).toBeGreaterThan(5);
  });

  test("the back-office CLI drives the same API", async () => {
    const cli = async (...args: string[]) => {
      const run = startProcess(process.execPath, [path.join(ROOT, "dist", "bin", "backoffice.js"), ...args], {
        BACKOFFICE_URL: `http://127.0.0.1:${port}`,
        BACKOFFICE_TOKEN: backofficeToken
      });
      await new Promise(resolve => run.child.once("exit", resolve));
      expect({ args, code: run.child.exitCode }).toEqual({ args, code: 0 });
      return JSON.parse(run.output());
    };
    const org = await cli("org:create", "Boutique", "Amel");
    expect(org.name).toBe("Boutique Amel");
    const key = await cli("key:create", org.id, "--mode", "sandbox", "--scopes", "parcels:read");
    expect(key).toMatchObject({ mode: "sandbox", scopes: ["parcels:read"], key: expect.stringMatching(/^rp_sandbox_/) });
    expect(await cli("wallet:top-up", org.id, "2500.50", "--mode", "sandbox")).toEqual({ mode: "sandbox", balanceDzd: 2500.5 });
    const listed = await cli("key:list", org.id);
    expect(listed.map((k: { id: string }) => k.id)).toEqual([key.id]);
    expect(JSON.stringify(listed)).not.toContain(key.key);
    expect((await cli("relay:list")).length).toBeGreaterThan(20);
    // A point filed by its commune: the CLI lists a wilaya's communes with their codes, and the commune decides the wilaya.
    const communes = startProcess(process.execPath, [path.join(ROOT, "dist", "bin", "backoffice.js"), "communes", "68"], {});
    await new Promise(resolve => communes.child.once("exit", resolve));
    expect(communes.output()).toContain("Wilaya 68 Bou Saâda (بوسعادة): 23 communes\n");
    expect(communes.output()).toContain("2820  Bou Saâda  بوسعادة  28001\n");
    expect(await cli("relay:add", "DZ-68-CLI-KSAR", "Kiosque du Ksar", "Bou Saâda", "--commune", "2820")).toMatchObject({
      code: "DZ-68-CLI-KSAR",
      wilaya: "68",
      formerWilaya: "28",
      commune: "2820"
    });
    expect(await cli("cod:payout", org.id, "WALLET")).toEqual({ organizationId: org.id, payout: "WALLET" });
    expect(await cli("cod:settings", org.id)).toEqual({ organizationId: org.id, payout: "WALLET" });

    // Webhook endpoints: add, list, test, replay, change, rotate, log, notices, remove.
    const hooks = await startReceiver();
    try {
      const endpoint = await cli(
        "webhook:endpoint:add",
        org.id,
        `${hooks.url}/cli`,
        "--mode",
        "sandbox",
        "--events",
        "parcel.created,parcel.delivered"
      );
      expect(endpoint).toMatchObject({
        mode: "sandbox",
        eventTypes: ["parcel.created", "parcel.delivered"],
        secret: expect.stringMatching(/^whsec_/)
      });
      expect((await cli("webhook:endpoints", org.id)).map((e: { id: string }) => e.id)).toEqual([endpoint.id]);
      expect(await cli("webhook:test", org.id, endpoint.id)).toMatchObject({ succeeded: true, statusCode: 200 });
      expect(hooks.on("/cli").map(r => r.headers["x-relay-event"])).toEqual(["ping"]);
      expect(await cli("webhook:replay", org.id, endpoint.id, "2026-01-01T00:00:00Z", "--failed")).toMatchObject({
        only: "failed",
        queued: 0
      });
      expect(await cli("webhook:endpoint:update", org.id, endpoint.id, "--disable", "--events", "all")).toMatchObject({
        enabled: false,
        eventTypes: null
      });
      expect((await cli("webhook:rotate", org.id, endpoint.id, "--overlap-hours", "2")).secrets).toHaveLength(2);
      expect(await cli("webhook:deliveries", org.id, "--endpoint", endpoint.id)).toMatchObject({ totalElements: 0 });
      expect(await cli("webhook:notices", org.id)).toEqual([]);
      expect(await cli("webhook:endpoint:remove", org.id, endpoint.id)).toEqual({ status: 204 });
    } finally {
      await hooks.close();
    }
  });

  test("a restart keeps the data and does not print the demo keys again", async () => {
    await proc.stop();
    const again = startProcess("npm", ["start", "--silent"], { PORT: String(port), DATA_DIR: dataDir });
    try {
      // `npm start` builds first (prestart): on a busy two-core machine that alone can take a minute.
      await again.waitForOutput(/Demo keys were printed on the first start/, 150_000);
      expect(again.output()).not.toContain(demoLiveKey);
      const res = await http(`http://127.0.0.1:${port}`, "GET", "/api/partner/v1/health", {
        headers: { Authorization: `ApiKey ${demoLiveKey}` }
      });
      expect(res.status).toBe(200);
    } finally {
      await again.stop();
    }
  }, 180_000);
});
