import { randomBytes, randomUUID } from "node:crypto";
import { backoffice, partner } from "../helpers/http";
import { checkMoneyInvariant } from "../helpers/money-invariant";
import { waitFor, waitForWebhookRoutes } from "../helpers/parcel-events";
import { createTestDatabase } from "../helpers/postgres";
import { freePort, RunningProcess, startNode, waitForHttp } from "../helpers/processes";
import { Receiver, startReceiver } from "../helpers/receivers";
import { describeWithServers, distributedEnv } from "../helpers/servers";

/**
 * Issue 13, for SREs, against every service in its own process (two gateways), each with its
 * probe port and its Prometheus port:
 * - readiness follows dependencies and liveness does not (a wallet that is away);
 * - acceptance 3: each process's /metrics, after traffic, holds Moleculer's metrics and ours;
 * - acceptance 2: SIGTERM of each process under a load of creates and transitions: readiness
 *   turns false first, exit code 0, no request fails, nothing is lost.
 *
 * Services are stopped the way a Kubernetes rolling update does it: the replacement is ready
 * before the old pod gets SIGTERM (maxSurge; the PodDisruptionBudget keeps one). Gateways are
 * stopped without a replacement: clients, like a load balancer, go to the other gateway when a
 * connection is refused, which only happens before a request was sent.
 */

const SERVICES = ["auth", "wallet", "parcels", "labels", "notifications", "webhooks"] as const;
const GATEWAYS = ["gateway-1", "gateway-2"] as const;

interface Node {
  name: string;
  services: string;
  proc: RunningProcess;
  healthPort: number;
  metricsPort: number;
  gatewayPort?: number;
}

const exitCode = (proc: RunningProcess) =>
  proc.child.exitCode !== null || proc.child.signalCode !== null
    ? Promise.resolve(proc.child.exitCode)
    : new Promise<number | null>(resolve => proc.child.once("exit", code => resolve(code)));

async function probe(port: number, path: "/readyz" | "/healthz" | "/startedz"): Promise<{ status: number; body: { problems?: string[] } }> {
  const res = await fetch(`http://127.0.0.1:${port}${path}`);
  return { status: res.status, body: (await res.json()) as { problems?: string[] } };
}

/**
 * A connection that failed while connecting (refused, or reset in the closing listener's backlog)
 * carried no request: safe to send to the other gateway, as a load balancer does.
 */
const neverSent = (err: unknown) => {
  const cause = (err as { cause?: { code?: string; syscall?: string } }).cause;
  return cause?.code === "ECONNREFUSED" || cause?.syscall === "connect";
};

describeWithServers(["postgres", "redis", "nats"], "operations: probes, metrics, graceful shutdown (every service its own process)", () => {
  let database: { url: string; drop: () => Promise<void> };
  let hooks: Receiver;
  let env: Record<string, string>;
  const nodes = new Map<string, Node>();
  const retired: Node[] = [];
  const token = `bo_${randomBytes(16).toString("hex")}`;
  let gatewayUrls: string[];
  let orgId: string;
  let key: string;

  async function startService(name: string, services: string, extra: Record<string, string> = {}): Promise<Node> {
    const [healthPort, metricsPort] = [await freePort(), await freePort()];
    const proc = await startNode({
      ...env,
      ...extra,
      SERVICES: services,
      NODE_ID: name,
      HEALTH_PORT: String(healthPort),
      METRICS_PORT: String(metricsPort)
    });
    const node: Node = { name, services, proc, healthPort, metricsPort, gatewayPort: extra.PORT ? Number(extra.PORT) : undefined };
    nodes.set(name, node);
    return node;
  }

  const bo = () => backoffice(gatewayUrls[0], token);

  beforeAll(async () => {
    hooks = await startReceiver();
    database = await createTestDatabase();
    env = {
      ...distributedEnv(database.url, token, "ops"),
      WEBHOOK_ALLOW_PRIVATE: "true",
      WEBHOOK_WORKER_INTERVAL_MS: "100",
      OUTBOX_INTERVAL_MS: "100",
      PENDING_SWEEP_AFTER_SECONDS: "2",
      SWEEP_INTERVAL_MS: "500",
      // As in production (the keep-alive timeout): a stopping gateway leaves its idle kept-alive
      // connections to the workers' next requests instead of closing them under a request being sent.
      HTTP_DRAIN_IDLE_MS: "5000"
    };
    const ports = [await freePort(), await freePort()];
    gatewayUrls = ports.map(port => `http://127.0.0.1:${port}`);
    await Promise.all([
      ...SERVICES.map(service => startService(service, service)),
      ...GATEWAYS.map((name, i) => startService(name, "gateway", { PORT: String(ports[i]) }))
    ]);
    for (const node of nodes.values()) await waitForHttp(`http://127.0.0.1:${node.healthPort}/readyz`);
    for (const url of gatewayUrls) await waitForHttp(`${url}/readyz`);
    // Gateways are ready with auth, wallet and parcels; the webhooks routes may be learnt a moment later.
    for (const url of gatewayUrls) await waitForWebhookRoutes(url, token);

    const org = await bo().createOrganization("Ops Merchant");
    orgId = org.id;
    key = (await bo().createKey(org.id, { rateLimitPerMinute: 100_000 })).key;
    expect((await bo().call("POST", `/organizations/${org.id}/wallet/top-ups`, { amountDzd: 1_000_000 })).status).toBe(201);
    const hook = await bo().call("PUT", `/organizations/${org.id}/webhook`, { url: `${hooks.url}/ops`, secret: "s".repeat(32) });
    expect(hook.status).toBe(200);
    // The first answer of the receiver is a 500, so that a failed attempt is counted too.
    hooks.behaviour.set("/ops", index => ({ status: index === 0 ? 500 : 200 }));
  }, 180_000);

  afterAll(async () => {
    await Promise.all([...nodes.values(), ...retired].map(node => node.proc.stop("SIGKILL")));
    await hooks?.close();
    await database?.drop();
  });

  const newParcel = () => ({
    recipientName: "Ops Test",
    recipientPhone: "0555 00 00 00",
    weightG: 500,
    destinationRelayCode: "DZ-16-ALGER-CENTRE"
  });

  test("readiness follows what a process depends on; liveness does not", async () => {
    for (const node of nodes.values())
      expect({ node: node.name, ...(await probe(node.healthPort, "/readyz")) }).toMatchObject({ node: node.name, status: 200 });

    const wallet = nodes.get("wallet")!;
    await wallet.proc.stop("SIGTERM");
    expect(await exitCode(wallet.proc)).toBe(0);
    nodes.delete("wallet");
    const parcels = nodes.get("parcels")!;
    const unready = await waitFor(
      () => probe(parcels.healthPort, "/readyz"),
      r => r.status === 503
    );
    expect(unready.body.problems).toEqual(["wallet unreachable"]);
    // Neither liveness nor the startup probe depends on the wallet: nothing gets restarted for it.
    expect((await probe(parcels.healthPort, "/healthz")).status).toBe(200);
    expect((await probe(parcels.healthPort, "/startedz")).status).toBe(200);
    expect((await fetch(`${gatewayUrls[0]}/readyz`)).status).toBe(503);
    // Processes that do not need the wallet stay ready.
    for (const name of ["auth", "labels", "notifications", "webhooks"])
      expect((await probe(nodes.get(name)!.healthPort, "/readyz")).status).toBe(200);

    // A create meanwhile is a clear 503, its pending row compensated later (counted as deferred).
    const res = await partner(gatewayUrls[0], key)("POST", "/parcels", newParcel());
    expect(res.status).toBe(503);

    await startService("wallet", "wallet");
    await waitFor(
      () => probe(parcels.healthPort, "/readyz"),
      r => r.status === 200
    );
    await waitForHttp(`${gatewayUrls[0]}/readyz`);
  }, 60_000);

  test("acceptance 3: after traffic, every process's /metrics holds Moleculer's metrics and the relay's", async () => {
    const call = partner(gatewayUrls[0], key);
    const created = await call("POST", "/parcels", newParcel());
    expect(created.status).toBe(201);
    const id = created.body.id;
    for (const toStatus of ["READY_FOR_PICKUP", "PICKED_UP", "IN_TRANSIT", "AT_RELAY"]) {
      expect((await bo().call("POST", `/parcels/${id}/transitions`, { toStatus, reason: "scan" })).status).toBe(200);
    }
    const label = new URL((await call("GET", `/parcels/${id}`)).body.labelUrl);
    expect((await fetch(`${gatewayUrls[0]}${label.pathname}${label.search}`)).status).toBe(200);
    const limited = partner(gatewayUrls[0], (await bo().createKey(orgId, { rateLimitPerMinute: 1 })).key);
    await limited("GET", "/health");
    expect((await limited("GET", "/health")).status).toBe(429);
    // The pick-up SMS and the webhooks (one refused, then delivered) are sent in the background.
    await hooks.waitFor(requests => requests.filter(r => r.path === "/ops").length >= 2);
    await waitFor(
      () => fetch(`${gatewayUrls[0]}/api/partner/v1/parcels/${id}`, { headers: { Authorization: `ApiKey ${key}` } }).then(r => r.json()),
      parcel => (parcel as { status: string }).status === "RELAY_NOTIFIED"
    );

    const metrics = async (name: string) => (await fetch(`http://127.0.0.1:${nodes.get(name)!.metricsPort}/metrics`)).text();
    const expected: Record<string, RegExp[]> = {
      "gateway-1": [
        /^relay_http_requests_total\{.*method="POST",route="\/api\/partner\/v1\/parcels",status="201"\} [1-9]/m,
        /^relay_http_requests_total\{.*route="\/api\/partner\/v1\/parcels",status="503"\} [1-9]/m,
        /^relay_rate_limit_rejections_total\{.*limit="key"\} 1$/m
      ],
      parcels: [/^relay_saga_compensations_total\{.*outcome="deferred"\} [1-9]/m, /^relay_outbox_lag_seconds\{[^}]*\} \d/m],
      webhooks: [
        /^relay_webhook_attempts_total\{.*status_class="2xx"\} [1-9]/m,
        /^relay_webhook_failures_total\{.*status_class="5xx"\} [1-9]/m
      ],
      notifications: [/^relay_sms_sent_total\{.*provider="log"\} 1$/m],
      labels: [/^relay_label_renders_total\{.*format="a6"\} [1-9]/m]
    };
    for (const name of nodes.keys()) {
      const text = await metrics(name);
      // Moleculer's own, in every process.
      expect({ name, moleculer: /^moleculer_request_total\{/m.test(text) || /^moleculer_event_received_total\{/m.test(text) }).toEqual({
        name,
        moleculer: true
      });
      for (const pattern of expected[name] ?? [])
        expect({ name, found: pattern.test(text) ? pattern : text }).toEqual({ name, found: pattern });
    }
  }, 90_000);

  test("acceptance 2: SIGTERM of each process under a load of creates and transitions: readiness false first, exit 0, no request fails, nothing lost", async () => {
    let running = true;
    let phase = "before any SIGTERM";
    const failures: string[] = [];
    const created: string[] = [];
    const statuses: Record<string, number> = {};
    /** Through the preferred gateway, or the other when the connection failed before anything was sent. */
    const send = async (prefer: number, method: string, path: string, body: unknown, headers: Record<string, string>) => {
      for (let attempt = 0; ; attempt++) {
        const url = gatewayUrls[(prefer + attempt) % gatewayUrls.length];
        try {
          return await fetch(`${url}${path}`, {
            method,
            headers: { "Content-Type": "application/json", ...headers },
            body: JSON.stringify(body)
          });
        } catch (err) {
          if (!neverSent(err) || attempt >= 10) throw err;
        }
      }
    };
    const worker = async (i: number) => {
      while (running) {
        try {
          const res = await send(i, "POST", "/api/partner/v1/parcels", newParcel(), {
            Authorization: `ApiKey ${key}`,
            "Idempotency-Key": randomUUID()
          });
          statuses[res.status] = (statuses[res.status] ?? 0) + 1;
          const parcel = (await res.json()) as { id: string };
          if (res.status !== 201) {
            failures.push(`${phase}: create: ${res.status} ${JSON.stringify(parcel)}`);
            continue;
          }
          created.push(parcel.id);
          const moved = await send(
            i + 1,
            "POST",
            `/api/backoffice/v1/parcels/${parcel.id}/transitions`,
            { toStatus: "READY_FOR_PICKUP" },
            {
              Authorization: `Bearer ${token}`
            }
          );
          statuses[moved.status] = (statuses[moved.status] ?? 0) + 1;
          if (moved.status !== 200) failures.push(`${phase}: transition: ${moved.status} ${await moved.text()}`);
          else await moved.arrayBuffer();
        } catch (err) {
          failures.push(`${phase}: network: ${(err as Error).message} ${String((err as { cause?: unknown }).cause)}`);
          await new Promise(r => setTimeout(r, 100));
        }
      }
    };
    const madeBefore = async (count: number) =>
      waitFor(
        () => created.length,
        n => n >= count,
        60_000
      );

    /** SIGTERM: /readyz answers 503 while the process still runs (before it stops answering), then it exits 0. */
    const terminate = async (node: Node) => {
      phase = `SIGTERM to ${node.name}`;
      process.kill(node.proc.child.pid!, "SIGTERM");
      // The signal and the probe race for the event loop: the first answer that is not a 200.
      const first = await waitFor(
        () => probe(node.healthPort, "/readyz").catch(() => ({ status: 0, body: { problems: ["no answer"] } })),
        answer => answer.status !== 200
      );
      expect({ node: node.name, readyz: first.status, problems: first.body.problems }).toEqual({
        node: node.name,
        readyz: 503,
        problems: ["stopping"]
      });
      expect({ node: node.name, exit: await exitCode(node.proc) }).toEqual({ node: node.name, exit: 0 });
      retired.push(node);
    };

    async function rollEveryProcess(): Promise<void> {
      for (const service of SERVICES) {
        await madeBefore(created.length + 5);
        const old = nodes.get(service)!;
        const replacement = await startService(`${service}-next`, service);
        await waitForHttp(`http://127.0.0.1:${replacement.healthPort}/readyz`);
        nodes.set(service, replacement);
        nodes.delete(`${service}-next`);
        await terminate(old);
      }
      for (const [i, name] of GATEWAYS.entries()) {
        await madeBefore(created.length + 5);
        const old = nodes.get(name)!;
        await terminate(old);
        await startService(name, "gateway", { PORT: String(old.gatewayPort) });
        await waitForHttp(`${gatewayUrls[i]}/readyz`);
      }
      await madeBefore(created.length + 5);
    }
    const load = Promise.all(Array.from({ length: 6 }, (_, i) => worker(i)));
    try {
      await rollEveryProcess();
    } finally {
      running = false;
      await load;
    }

    process.stdout.write(`graceful-shutdown outcomes: ${JSON.stringify(statuses)}\n`);
    const byPhase: Record<string, number> = {};
    for (const failure of failures) byPhase[failure.split(":")[0]] = (byPhase[failure.split(":")[0]] ?? 0) + 1;
    process.stdout.write(`failures by phase: ${JSON.stringify(byPhase)}\n${failures.slice(0, 5).join("\n")}\n`);
    expect(failures).toEqual([]);
    expect(created.length).toBeGreaterThan(40);

    // Nothing lost: every parcel paid once, each one's parcel.created webhook delivered.
    const report = await checkMoneyInvariant(database.url);
    expect(report.violations).toEqual([]);
    expect(report.pending).toBe(0);
    await hooks.waitFor(requests => {
      const delivered = new Set(
        requests
          .filter(r => r.path === "/ops")
          .map(r => JSON.parse(r.rawBody) as { type: string; data: { parcel: { id: string } } })
          .filter(body => body.type === "parcel.created")
          .map(body => body.data.parcel.id)
      );
      return created.every(id => delivered.has(id));
    }, 60_000);
  }, 300_000);
});
