import { randomBytes, randomUUID } from "node:crypto";
import { backoffice, partner } from "../helpers/http";
import { checkMoneyInvariant } from "../helpers/money-invariant";
import { waitFor, waitForWebhookRoutes } from "../helpers/parcel-events";
import { createTestDatabase } from "../helpers/postgres";
import { freePort, RunningProcess, startNode, waitForHttp } from "../helpers/processes";
import { Receiver, startReceiver } from "../helpers/receivers";
import { describeWithServers, distributedEnv } from "../helpers/servers";

const sleep = (ms: number) => new Promise(r => setTimeout(r, ms));

/** Every process in turn, the gateway last: the load's clients retry through it. */
const KILL_ORDER = ["parcels", "wallet", "auth", "labels", "notifications", "webhooks", "gateway"] as const;

/**
 * Issue 3, acceptance 3, and issue 13, acceptance 2: creates and transitions in flight while each
 * service process in turn is killed with SIGKILL and restarted. Afterwards the sweeper must leave
 * the money invariant intact, every parcel the API created must be there, paid once, and every
 * parcel's events must have reached its webhook: no parcel, ledger entry or webhook lost.
 */
describeWithServers(["postgres", "redis", "nats"], "crash safety: SIGKILL of each service under load (distributed)", () => {
  let database: { url: string; drop: () => Promise<void> };
  let hooks: Receiver;
  const procs: Record<string, RunningProcess> = {};
  let port: number;
  let env: Record<string, string>;
  const backofficeToken = `bo_${randomBytes(16).toString("hex")}`;

  const start = async (service: string) => {
    procs[service] = await startNode({ ...env, SERVICES: service, NODE_ID: `${service}-node` });
  };

  beforeAll(async () => {
    hooks = await startReceiver();
    database = await createTestDatabase();
    port = await freePort();
    env = {
      ...distributedEnv(database.url, backofficeToken, "crash"),
      PORT: String(port),
      PENDING_SWEEP_AFTER_SECONDS: "2",
      SWEEP_INTERVAL_MS: "500",
      OUTBOX_INTERVAL_MS: "100",
      WEBHOOK_WORKER_INTERVAL_MS: "100",
      HOLDING_INTERVAL_MS: "300",
      WEBHOOK_ALLOW_PRIVATE: "true"
    };
    await Promise.all(KILL_ORDER.map(start));
    await waitForHttp(`http://127.0.0.1:${port}/readyz`);
    await waitForWebhookRoutes(`http://127.0.0.1:${port}`, backofficeToken);
  }, 200_000);

  afterAll(async () => {
    await Promise.all(Object.values(procs).map(p => p.stop()));
    await hooks?.close();
    await database?.drop();
  });

  test("after SIGKILL of each process mid-flight and a restart, nothing is lost: parcels, ledger, webhooks", async () => {
    const base = `http://127.0.0.1:${port}`;
    const bo = backoffice(base, backofficeToken);
    const merchants: Array<{ key: string; call: ReturnType<typeof partner> }> = [];
    for (const name of ["Crash A", "Crash B", "Crash C"]) {
      const org = await bo.createOrganization(name);
      const { key } = await bo.createKey(org.id, { rateLimitPerMinute: 100_000 });
      await bo.call("POST", `/organizations/${org.id}/wallet/top-ups`, { amountDzd: 1_000_000 });
      const hook = await bo.call("PUT", `/organizations/${org.id}/webhook`, { url: `${hooks.url}/${org.id}`, secret: "s".repeat(32) });
      expect(hook.status).toBe(200);
      merchants.push({ key, call: partner(base, key) });
    }

    let running = true;
    const outcomes: Record<string, number> = {};
    const created: string[] = [];
    const moved: string[] = [];
    /** Raw fetch: answers while a process is down are 503s by design, which the OpenAPI check would not know apart. */
    const send = (method: string, path: string, headers: Record<string, string>, body?: unknown) =>
      fetch(`${base}${path}`, { method, headers: { "Content-Type": "application/json", ...headers }, body: JSON.stringify(body) });
    const worker = async (i: number) => {
      const merchant = merchants[i % merchants.length];
      while (running) {
        // One idempotency key per parcel, reused until an answer arrives: a create whose answer was
        // lost (the gateway killed) is replayed, never made twice.
        const idempotencyKey = randomUUID();
        let res: Response | null = null;
        while (res === null && running) {
          res = await send(
            "POST",
            "/api/partner/v1/parcels",
            { Authorization: `ApiKey ${merchant.key}`, "Idempotency-Key": idempotencyKey },
            {
              recipientName: "Crash Test",
              recipientPhone: "0555 00 00 00",
              weightG: 700,
              destinationRelayCode: "DZ-16-ALGER-CENTRE"
            }
          ).catch(() => {
            outcomes.network = (outcomes.network ?? 0) + 1;
            return sleep(100).then(() => null);
          });
        }
        if (!res) break;
        outcomes[res.status] = (outcomes[res.status] ?? 0) + 1;
        expect(res.status).not.toBe(500);
        const parcel = (await res.json()) as { id: string };
        if (res.status !== 201 && res.status !== 200) continue;
        if (!created.includes(parcel.id)) created.push(parcel.id);
        const transition = await send(
          "POST",
          `/api/backoffice/v1/parcels/${parcel.id}/transitions`,
          { Authorization: `Bearer ${backofficeToken}` },
          { toStatus: "READY_FOR_PICKUP", reason: "scan" }
        ).catch(() => null);
        if (transition?.status === 200) moved.push(parcel.id);
        await transition?.arrayBuffer();
        // Every fourth parcel goes on to its relay point and is not collected: the deadline, moved
        // to the past, sends it back with a return fee while processes die around it.
        if (transition?.status === 200 && moved.length % 4 === 0) await expire(parcel.id);
      }
    };
    const expire = async (id: string) => {
      const bo = { Authorization: `Bearer ${backofficeToken}` };
      for (const toStatus of ["PICKED_UP", "IN_TRANSIT", "AT_RELAY"]) {
        const res = await send("POST", `/api/backoffice/v1/parcels/${id}/transitions`, bo, { toStatus }).catch(() => null);
        await res?.arrayBuffer();
        if (res?.status !== 200) return;
      }
      const put = await send("PUT", `/api/backoffice/v1/parcels/${id}/pickup-deadline`, bo, {
        pickupDeadline: "2020-01-01T00:00:00Z"
      }).catch(() => null);
      await put?.arrayBuffer();
      if (put?.status === 200) expiring.push(id);
    };
    const expiring: string[] = [];
    const load = Promise.all(Array.from({ length: 9 }, (_, i) => worker(i)));
    const moreCreated = (count: number) =>
      waitFor(
        () => created.length,
        n => n >= count,
        60_000
      );

    try {
      for (const service of KILL_ORDER) {
        await moreCreated(created.length + 10);
        await procs[service].stop("SIGKILL");
        await start(service);
        if (service === "gateway") await waitForHttp(`${base}/readyz`);
      }
      await moreCreated(created.length + 10);
    } finally {
      running = false;
      await load;
    }

    process.stdout.write(`crash-safety outcomes: ${JSON.stringify(outcomes)}\n`);
    expect(created.length).toBeGreaterThan(70);

    // The sweeper runs every 500 ms on PENDING rows older than 2 s.
    let report = await checkMoneyInvariant(database.url);
    for (let i = 0; i < 60 && (report.pending > 0 || report.refundPending > 0 || report.returnFeePending > 0); i++) {
      await sleep(500);
      report = await checkMoneyInvariant(database.url);
    }
    expect(report.pending).toBe(0);
    expect(report.returnFeePending).toBe(0);
    expect(report.violations).toEqual([]);
    expect(report.accounts).toBe(3);

    // Every parcel the API said it created is there, paid.
    const visible = new Set<string>();
    for (const { call } of merchants) {
      for (let page = 0; ; page++) {
        const res = await call("GET", `/parcels?size=100&page=${page}`);
        for (const p of res.body.items) visible.add(p.id);
        if (page + 1 >= res.body.totalPages) break;
      }
    }
    for (const id of created) expect(visible.has(id)).toBe(true);
    expect(visible.size).toBe(report.visibleParcels);

    // Every event of those parcels reached the merchant's webhook, at least once.
    const received = (type: string) =>
      new Set(
        hooks.requests
          .map(r => JSON.parse(r.rawBody) as { type: string; data: { parcel: { id: string } } })
          .filter(body => body.type === type)
          .map(body => body.data.parcel.id)
      );
    // One parse of the requests per poll: parsing them once per parcel kept this process too busy to answer the webhooks.
    const receivedAll = (type: string, ids: string[]) => {
      const got = received(type);
      return ids.every(id => got.has(id));
    };
    await hooks.waitFor(() => receivedAll("parcel.created", created), 60_000);
    await hooks.waitFor(() => receivedAll("parcel.ready_for_pickup", moved), 60_000);
    // Every parcel whose deadline was moved to the past went back once, with its fee (the invariant checked "once").
    expect(expiring.length).toBeGreaterThan(5);
    await hooks.waitFor(() => receivedAll("parcel.return_pending", expiring), 60_000);
    report = await checkMoneyInvariant(database.url);
    for (let i = 0; i < 60 && report.returnFeePending > 0; i++) {
      await sleep(500);
      report = await checkMoneyInvariant(database.url);
    }
    expect(report.violations).toEqual([]);
    expect(report.returnFeePending).toBe(0);
    expect(report.returnFees).toBeGreaterThanOrEqual(expiring.length);
  }, 300_000);
});
