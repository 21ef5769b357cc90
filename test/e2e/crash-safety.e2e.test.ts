import { randomBytes } from "node:crypto";
import { backoffice, partner } from "../helpers/http";
import { checkMoneyInvariant } from "../helpers/money-invariant";
import { createTestDatabase } from "../helpers/postgres";
import { freePort, RunningProcess, startNode, waitForHttp } from "../helpers/processes";
import { describeWithServers, distributedEnv } from "../helpers/servers";

const sleep = (ms: number) => new Promise(r => setTimeout(r, ms));

/**
 * Issue 3, acceptance 3: creates in flight while the parcels process, then the wallet process, is
 * killed with SIGKILL and restarted. Afterwards the sweeper must leave the money invariant intact.
 */
describeWithServers(["postgres", "redis", "nats"], "crash safety of the create-parcel saga (distributed)", () => {
  let database: { url: string; drop: () => Promise<void> };
  const procs: Record<string, RunningProcess> = {};
  let port: number;
  let env: Record<string, string>;
  const backofficeToken = `bo_${randomBytes(16).toString("hex")}`;

  const start = async (service: string) => {
    procs[service] = await startNode({ ...env, SERVICES: service, NODE_ID: `${service}-node` });
  };

  beforeAll(async () => {
    database = await createTestDatabase();
    port = await freePort();
    env = {
      ...distributedEnv(database.url, backofficeToken, "crash"),
      PORT: String(port),
      PENDING_SWEEP_AFTER_SECONDS: "2",
      SWEEP_INTERVAL_MS: "500"
    };
    await Promise.all(["auth", "wallet", "parcels", "gateway"].map(start));
    await waitForHttp(`http://127.0.0.1:${port}/readyz`);
  }, 120_000);

  afterAll(async () => {
    await Promise.all(Object.values(procs).map(p => p.stop()));
    await database?.drop();
  });

  test("after SIGKILL of parcels then wallet mid-flight, every un-refunded debit has exactly one visible parcel", async () => {
    const base = `http://127.0.0.1:${port}`;
    const bo = backoffice(base, backofficeToken);
    const merchants: Array<ReturnType<typeof partner>> = [];
    for (const name of ["Crash A", "Crash B", "Crash C"]) {
      const org = await bo.createOrganization(name);
      const { key } = await bo.createKey(org.id, { rateLimitPerMinute: 100_000 });
      await bo.call("POST", `/organizations/${org.id}/wallet/top-ups`, { amountDzd: 1_000_000 });
      merchants.push(partner(base, key));
    }

    let running = true;
    const outcomes: Record<string, number> = {};
    const created: string[] = [];
    const worker = async (i: number) => {
      const call = merchants[i % merchants.length];
      while (running) {
        try {
          const res = await call("POST", "/parcels", {
            recipientName: "Crash Test",
            recipientPhone: "0555 00 00 00",
            weightG: 700,
            destinationRelayCode: "DZ-16-ALGER-CENTRE"
          });
          outcomes[res.status] = (outcomes[res.status] ?? 0) + 1;
          if (res.status === 201) created.push(res.body.id);
          expect(res.status).not.toBe(500);
        } catch {
          outcomes.network = (outcomes.network ?? 0) + 1;
        }
      }
    };
    const load = Promise.all(Array.from({ length: 12 }, (_, i) => worker(i)));

    await sleep(1500);
    await procs.parcels.stop("SIGKILL");
    await sleep(500);
    await start("parcels");
    await sleep(1500);
    await procs.wallet.stop("SIGKILL");
    await sleep(500);
    await start("wallet");
    await sleep(1500);
    running = false;
    await load;

    process.stdout.write(`crash-safety outcomes: ${JSON.stringify(outcomes)}\n`);
    expect(outcomes[201]).toBeGreaterThan(20);

    // The sweeper runs every 500 ms on PENDING rows older than 2 s.
    let report = await checkMoneyInvariant(database.url);
    for (let i = 0; i < 60 && (report.pending > 0 || report.refundPending > 0); i++) {
      await sleep(500);
      report = await checkMoneyInvariant(database.url);
    }
    expect(report.pending).toBe(0);
    expect(report.violations).toEqual([]);
    expect(report.accounts).toBe(3);

    // Every parcel the API said it created is there, paid.
    const visible = new Set<string>();
    for (const call of merchants) {
      for (let page = 0; ; page++) {
        const res = await call("GET", `/parcels?size=100&page=${page}`);
        for (const p of res.body.items) visible.add(p.id);
        if (page + 1 >= res.body.totalPages) break;
      }
    }
    for (const id of created) expect(visible.has(id)).toBe(true);
    expect(visible.size).toBe(report.visibleParcels);
  }, 180_000);
});
