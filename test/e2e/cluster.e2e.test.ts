import { randomBytes } from "node:crypto";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { Client } from "pg";
import { partner } from "../helpers/http";
import { freePort, ROOT, RunningProcess, startProcess } from "../helpers/processes";
import { SmsInbox, startSmsInbox } from "../helpers/sms-inbox";
import { describeWithServers, PG_ADMIN_URL } from "../helpers/servers";
import { SystemUnderTest } from "./gateway-contract";
import { everyContract } from "./every-contract";
import { HOSTILE_INPUT_ENV } from "./hostile-input-contract";
import { checkMoneyInvariant } from "../helpers/money-invariant";

interface ReadyLine {
  namespace: string;
  gateways: string[];
  backofficeToken: string;
  processes: Array<{ name: string; pid: number; healthPort: number }>;
  demo: { organizationId: string; liveKey?: string; sandboxKey?: string } | null;
}

const EVERY_PROCESS = [
  "auth",
  "wallet",
  "parcels",
  "labels",
  "notifications",
  "webhooks-1",
  "webhooks-2",
  "logistics",
  "gateway-1",
  "gateway-2"
];

const alive = (pid: number) => {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
};

function exitCodeOf(proc: RunningProcess): Promise<number | null> {
  if (proc.child.exitCode !== null || proc.child.signalCode !== null) return Promise.resolve(proc.child.exitCode);
  return new Promise(resolve => proc.child.once("exit", code => resolve(code)));
}

/**
 * `npm run start:cluster` as a developer runs it: the runner alone (node dist/bin/cluster.js),
 * given only a database that does not exist yet, a data folder and two free gateway ports; the
 * local NATS, PostgreSQL and Redis at their defaults.
 */
describeWithServers(["postgres", "redis", "nats"], "start:cluster (every service its own process)", () => {
  const databaseName = `relay_t_${randomBytes(6).toString("hex")}`;
  const databaseUrl = Object.assign(new URL(PG_ADMIN_URL), { pathname: `/${databaseName}` }).toString();
  let dataDir: string;
  let ports: number[];
  let runner: RunningProcess;
  let ready: ReadyLine;
  let sms: SmsInbox;

  async function startCluster(): Promise<{ proc: RunningProcess; ready: ReadyLine }> {
    const proc = startProcess(process.execPath, [path.join(ROOT, "dist", "bin", "cluster.js"), "--fresh-namespace"], {
      DATABASE_URL: databaseUrl,
      DATA_DIR: dataDir,
      CLUSTER_GATEWAY_PORTS: ports.join(","),
      ...sms.env,
      // What the shared contracts expect of every system (the distributed suite sets the same):
      // the hostile-input suite's CORS origin, proxy hop and short timeouts; loopback webhook receivers.
      ...HOSTILE_INPUT_ENV,
      WEBHOOK_ALLOW_PRIVATE: "true"
    });
    const match = await proc.waitForOutput(/RELAY_CLUSTER_READY (\{.*\})/, 120_000);
    return { proc, ready: JSON.parse(match[1]) as ReadyLine };
  }

  beforeAll(async () => {
    dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "relay-cluster-"));
    sms = await startSmsInbox();
    ports = [await freePort(), await freePort()];
    while (ports[1] === ports[0]) ports[1] = await freePort();
    ({ proc: runner, ready } = await startCluster());
  }, 150_000);

  afterAll(async () => {
    await runner?.stop();
    const admin = new Client({ connectionString: PG_ADMIN_URL });
    await admin.connect();
    await admin.query(`DROP DATABASE IF EXISTS ${databaseName} WITH (FORCE)`);
    await admin.end();
    fs.rmSync(dataDir, { recursive: true, force: true });
    await sms?.close();
  });

  const system = (): SystemUnderTest & { databaseUrl: string } => ({
    baseUrl: ready.gateways[0],
    secondGatewayUrl: ready.gateways[1],
    backofficeToken: ready.backofficeToken,
    databaseUrl,
    logs: () => runner.output(),
    sms
  });

  test("creates the database, runs each service in its own process, and prints the URLs, the token and a working demo merchant", async () => {
    expect(runner.output()).toContain(`created database ${databaseName}`);
    expect(ready.processes.map(p => p.name)).toEqual(EVERY_PROCESS);
    expect(new Set(ready.processes.map(p => p.pid)).size).toBe(EVERY_PROCESS.length);
    expect(ready.namespace).toMatch(/^relay-[0-9a-f]{8}$/);
    for (const p of ready.processes) {
      const res = await fetch(`http://127.0.0.1:${p.healthPort}/readyz`);
      expect({ name: p.name, status: res.status }).toEqual({ name: p.name, status: 200 });
      expect(await res.json()).toMatchObject({ nodeID: p.name });
    }
    const banner = runner.output().slice(runner.output().indexOf("relay-parcels cluster is running"));
    for (const port of ports) expect(banner).toContain(`http://localhost:${port}`);
    expect(banner).toContain(`Back-office token (Authorization: Bearer …): ${ready.backofficeToken}`);
    expect(banner).toContain(`live key:    ${ready.demo?.liveKey}`);

    for (const gateway of ready.gateways) {
      const health = await partner(gateway, ready.demo!.liveKey!)("GET", "/health");
      expect({ gateway, status: health.status, organization: health.body.organizationName }).toEqual({
        gateway,
        status: 200,
        organization: "Demo Merchant SARL"
      });
    }
    expect(fs.statSync(path.join(dataDir, "secrets.json")).mode & 0o777).toBe(0o600);
  });

  everyContract(system);

  test("after all that traffic, the money invariant holds", async () => {
    const report = await checkMoneyInvariant(databaseUrl);
    expect(report.violations).toEqual([]);
    expect(report.visibleParcels).toBeGreaterThan(0);
  });

  let labelUrlBeforeRestart: string;

  test("both gateways serve the same system: a parcel created through one is read through the other", async () => {
    const [first, second] = ready.gateways.map(gateway => partner(gateway, ready.demo!.sandboxKey!));
    const created = await first("POST", "/parcels", {
      recipientName: "Amina B.",
      recipientPhone: "+213 555 12 34 56",
      weightG: 1200,
      destinationRelayCode: "DZ-16-ALGER-CENTRE"
    });
    expect(created.status).toBe(201);
    const read = await second("GET", `/parcels/${created.body.id}`);
    expect(read.status).toBe(200);
    expect(read.body.trackingNumber).toBe(created.body.trackingNumber);
    labelUrlBeforeRestart = read.body.labelUrl;
    expect(labelUrlBeforeRestart).toContain(`/labels/${created.body.id}`);
  });

  test("Ctrl-C (SIGINT to the runner) stops every process, and the runner exits 0", async () => {
    process.kill(runner.child.pid!, "SIGINT");
    expect(await exitCodeOf(runner)).toBe(0);
    expect(ready.processes.filter(p => alive(p.pid)).map(p => p.name)).toEqual([]);
    expect(runner.output()).toContain("every process stopped cleanly");
    for (const name of EVERY_PROCESS)
      expect(runner.output()).toContain(`${name} (pid ${ready.processes.find(p => p.name === name)!.pid}): exit code 0`);
  }, 60_000);

  test("a restart keeps the secrets and the demo merchant; a process that dies takes the cluster down with a non-zero exit", async () => {
    const before = ready;
    ({ proc: runner, ready } = await startCluster());
    expect(ready.backofficeToken).toBe(before.backofficeToken);
    expect(ready.demo).toEqual({ organizationId: before.demo!.organizationId });
    expect(runner.output()).not.toContain(before.demo!.liveKey!);
    expect(runner.output()).not.toContain("created database");
    // Signed with LABEL_URL_SECRET before the restart, checked with the one read back after it.
    const signed = new URL(labelUrlBeforeRestart);
    // The gateways are ready once auth, wallet and parcels answer; labels may join a moment
    // later, and until then a download is a 503 to retry, which is what a client does here.
    let label = await fetch(`${ready.gateways[1]}${signed.pathname}${signed.search}`);
    for (let i = 0; i < 100 && label.status === 503; i++) {
      await new Promise(r => setTimeout(r, 100));
      label = await fetch(`${ready.gateways[1]}${signed.pathname}${signed.search}`);
    }
    expect(label.status).toBe(200);
    expect(label.headers.get("content-type")).toContain("application/pdf");
    const health = await partner(ready.gateways[0], before.demo!.liveKey!)("GET", "/health");
    expect(health.status).toBe(200);

    const labels = ready.processes.find(p => p.name === "labels")!;
    process.kill(labels.pid, "SIGKILL");
    expect(await exitCodeOf(runner)).toBe(1);
    expect(runner.output()).toMatch(new RegExp(`labels \\(pid ${labels.pid}\\) exited unexpectedly \\(SIGKILL\\): stopping the cluster`));
    expect(ready.processes.filter(p => alive(p.pid)).map(p => p.name)).toEqual([]);
  }, 180_000);
});
