import { randomBytes } from "node:crypto";
import { backoffice, partner } from "../helpers/http";
import { createTestDatabase } from "../helpers/postgres";
import { freePort, RunningProcess, startNode, waitForHttp } from "../helpers/processes";
import { describeWithServers, distributedEnv } from "../helpers/servers";
import { SystemUnderTest } from "./gateway-contract";
import { everyContract } from "./every-contract";
import { HOSTILE_INPUT_ENV } from "./hostile-input-contract";
import { checkMoneyInvariant } from "../helpers/money-invariant";
import { SmsInbox, startSmsInbox } from "../helpers/sms-inbox";

/**
 * Distributed mode: auth in one process, two gateways in two others, talking over the local NATS,
 * with PostgreSQL for data and Redis for the shared rate limits.
 */
describeWithServers(["postgres", "redis", "nats"], "distributed mode (NATS + PostgreSQL + Redis)", () => {
  const processes: RunningProcess[] = [];
  let database: { url: string; drop: () => Promise<void> };
  let ports: number[];
  let healthPort: number;
  let labels: RunningProcess;
  let commonEnv: Record<string, string>;
  let sms: SmsInbox;
  const backofficeToken = `bo_${randomBytes(16).toString("hex")}`;

  beforeAll(async () => {
    database = await createTestDatabase();
    ports = [await freePort(), await freePort()];
    healthPort = await freePort();
    sms = await startSmsInbox();
    const common = { ...distributedEnv(database.url, backofficeToken, "test"), ...sms.env };
    const started = await Promise.all([
      startNode({ ...common, SERVICES: "auth", NODE_ID: "auth-1", HEALTH_PORT: String(healthPort) }),
      startNode({ ...common, SERVICES: "wallet", NODE_ID: "wallet-1" }),
      startNode({ ...common, SERVICES: "logistics", NODE_ID: "logistics-1" }),
      startNode({ ...common, SERVICES: "parcels", NODE_ID: "parcels-1" }),
      // Loopback receivers: the webhooks contract's endpoints are on this machine.
      startNode({ ...common, SERVICES: "notifications,webhooks", NODE_ID: "events-1", WEBHOOK_ALLOW_PRIVATE: "true" }),
      startNode({ ...common, ...HOSTILE_INPUT_ENV, SERVICES: "gateway", NODE_ID: "gateway-1", PORT: String(ports[0]) }),
      startNode({ ...common, ...HOSTILE_INPUT_ENV, SERVICES: "gateway", NODE_ID: "gateway-2", PORT: String(ports[1]) })
    ]);
    processes.push(...started);
    labels = await startNode({ ...common, SERVICES: "labels", NODE_ID: "labels-1" });
    commonEnv = common;
    await Promise.all(ports.map(p => waitForHttp(`http://127.0.0.1:${p}/readyz`)));
  }, 200_000);

  afterAll(async () => {
    await Promise.all([...processes, labels].map(p => p?.stop()));
    await database?.drop();
    await sms?.close();
  });

  const system = (): SystemUnderTest & { databaseUrl: string } => ({
    baseUrl: `http://127.0.0.1:${ports[0]}`,
    secondGatewayUrl: `http://127.0.0.1:${ports[1]}`,
    backofficeToken,
    databaseUrl: database.url,
    logs: () => processes.map(p => p.output()).join("\n"),
    sms
  });

  everyContract(system);

  test("after all that traffic, the money invariant holds", async () => {
    const report = await checkMoneyInvariant(database.url);
    expect(report.violations).toEqual([]);
    expect(report.visibleParcels).toBeGreaterThan(0);
  });

  test("labels service stopped: parcels still created and read with labelUrl null; a URL again once it is back", async () => {
    const base = `http://127.0.0.1:${ports[0]}`;
    const bo = backoffice(base, backofficeToken);
    const org = await bo.createOrganization("Sans Etiquettes");
    const call = partner(base, (await bo.createKey(org.id)).key);
    await bo.call("POST", `/organizations/${org.id}/wallet/top-ups`, { amountDzd: 10_000 });
    const body = { recipientName: "R", recipientPhone: "0555000000", weightG: 300, destinationRelayCode: "DZ-16-HYDRA" };
    const withLabels = (await call("POST", "/parcels", body)).body;
    expect(withLabels.labelUrl).toContain(`/labels/${withLabels.id}.pdf`);

    await labels.stop();
    const created = await call("POST", "/parcels", body);
    expect(created.status).toBe(201);
    expect(created.body.labelUrl).toBeNull();
    const read = await call("GET", `/parcels/${created.body.id}`);
    expect(read.status).toBe(200);
    expect(read.body.labelUrl).toBeNull();

    labels = await startNode({ ...commonEnv, SERVICES: "labels", NODE_ID: "labels-1" });
    let again = (await call("GET", `/parcels/${created.body.id}`)).body;
    for (let i = 0; i < 50 && again.labelUrl === null; i++) {
      await new Promise(r => setTimeout(r, 100));
      again = (await call("GET", `/parcels/${created.body.id}`)).body;
    }
    expect(again.labelUrl).toContain(`/labels/${created.body.id}.pdf`);
    const pdf = await fetch(again.labelUrl.replace(/^https?:\/\/[^/]+/, base));
    expect(pdf.status).toBe(200);
    expect(pdf.headers.get("content-type")).toContain("application/pdf");
  });

  test("a process without a gateway still answers its probes", async () => {
    const live = await fetch(`http://127.0.0.1:${healthPort}/healthz`);
    expect(live.status).toBe(200);
    const ready = await fetch(`http://127.0.0.1:${healthPort}/readyz`);
    expect(ready.status).toBe(200);
    expect(await ready.json()).toEqual({ status: "ok", nodeID: "auth-1", problems: [] });
    expect((await fetch(`http://127.0.0.1:${healthPort}/startedz`)).status).toBe(200);
  });

  test("each process runs only the services it was given", () => {
    const node = (id: string) => processes.find(p => p.output().includes(`Node ID: ${id}\n`))!.output();
    expect(node("auth-1")).toContain("Service 'auth' started");
    expect(node("auth-1")).not.toContain("Service 'gateway' started");
    expect(node("gateway-1")).toContain("Service 'gateway' started");
    expect(node("gateway-1")).not.toContain("Service 'auth' started");
    expect(node("logistics-1")).toContain("Service 'logistics' started");
    expect(node("logistics-1")).not.toContain("Service 'parcels' started");
  });
});
