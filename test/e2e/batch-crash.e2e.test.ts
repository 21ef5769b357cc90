import { randomBytes } from "node:crypto";
import { Client } from "pg";
import { backoffice } from "../helpers/http";
import { checkMoneyInvariant } from "../helpers/money-invariant";
import { waitFor } from "../helpers/parcel-events";
import { createTestDatabase } from "../helpers/postgres";
import { freePort, RunningProcess, startNode, waitForHttp } from "../helpers/processes";
import { describeWithServers, distributedEnv } from "../helpers/servers";

const SERVICES = ["auth", "labels", "wallet", "parcels", "gateway"] as const;
const BATCHES = 4;
const ITEMS = 100;

const item = (i: number) => ({
  recipientName: `Lot ${i}`,
  recipientPhone: "0555 00 00 00",
  weightG: 700,
  destinationRelayCode: "DZ-16-ALGER-CENTRE"
});

/**
 * Issue 19, acceptance 2: group commit (docs/decisions/0025) commits many creates' writes at once,
 * so a SIGKILL of the wallet or of the parcels process now lands in the middle of a group. After
 * the restart and the sweeper's pass, DESIGN §3 still holds: balance = the ledger's sum, and every
 * un-refunded debit has exactly one visible parcel; every item a batch answered 201 is there.
 */
describeWithServers(["postgres", "nats"], "crash safety: SIGKILL of wallet or parcels in the middle of batches (distributed)", () => {
  let database: { url: string; drop: () => Promise<void> };
  const procs: Record<string, RunningProcess> = {};
  let env: Record<string, string>;
  let base: string;
  const token = `bo_${randomBytes(16).toString("hex")}`;

  const start = async (service: string) => {
    procs[service] = await startNode({ ...env, SERVICES: service, NODE_ID: `${service}-node` });
  };

  beforeAll(async () => {
    database = await createTestDatabase();
    const port = await freePort();
    base = `http://127.0.0.1:${port}`;
    env = {
      ...distributedEnv(database.url, token, "batch-crash"),
      PORT: String(port),
      PENDING_SWEEP_AFTER_SECONDS: "2",
      SWEEP_INTERVAL_MS: "500",
      OUTBOX_INTERVAL_MS: "100"
    };
    for (const service of SERVICES) await start(service);
    await waitForHttp(`${base}/readyz`);
  }, 300_000);

  afterAll(async () => {
    await Promise.all(Object.values(procs).map(p => p.stop()));
    await database?.drop();
  });

  async function debitsSoFar(): Promise<number> {
    const client = new Client({ connectionString: database.url });
    await client.connect();
    try {
      const { rows } = await client.query("SELECT count(*)::int AS n FROM wallet.ledger WHERE kind = 'debit'");
      return rows[0].n as number;
    } finally {
      await client.end();
    }
  }

  test.each(["wallet", "parcels"])(
    "SIGKILL of %s mid-batch: after the restart every debit has its one visible parcel",
    async victim => {
      const bo = backoffice(base, token);
      const org = await bo.createOrganization(`Lots ${victim}`);
      const { key } = await bo.createKey(org.id, { rateLimitPerMinute: 100_000 });
      expect((await bo.call("POST", `/organizations/${org.id}/wallet/top-ups`, { amountDzd: 10_000_000 })).status).toBe(201);
      const headers = { Authorization: `ApiKey ${key}`, "Content-Type": "application/json" };
      const before = await debitsSoFar();

      let answered = 0;
      const createdIds: string[] = [];
      const batches = Array.from({ length: BATCHES }, (_, b) =>
        fetch(`${base}/api/partner/v1/parcels/batch`, {
          method: "POST",
          headers,
          body: JSON.stringify({ items: Array.from({ length: ITEMS }, (_, i) => item(b * ITEMS + i)) })
        })
          .then(async res => {
            const body = (await res.json()) as { items?: { status: number; parcel: { id: string } | null }[] };
            for (const it of body.items ?? []) if (it.status === 201) createdIds.push(it.parcel!.id);
          })
          .catch(() => undefined)
          .finally(() => answered++)
      );
      // In the middle: some of the batches' debits committed, not all of the batches answered.
      await waitFor(debitsSoFar, n => n >= before + 20, 60_000);
      expect(answered).toBeLessThan(BATCHES);
      await procs[victim].stop("SIGKILL");
      await start(victim);
      await Promise.all(batches);

      let report = await checkMoneyInvariant(database.url);
      for (let i = 0; i < 120 && (report.pending > 0 || report.violations.length > 0); i++) {
        await new Promise(r => setTimeout(r, 500));
        report = await checkMoneyInvariant(database.url);
      }
      expect(report.pending).toBe(0);
      expect(report.violations).toEqual([]);

      const visible = new Set<string>();
      for (let page = 0; ; page++) {
        const res = await fetch(`${base}/api/partner/v1/parcels?size=100&page=${page}`, { headers });
        const body = (await res.json()) as { items: { id: string }[]; totalPages: number };
        for (const p of body.items) visible.add(p.id);
        if (page + 1 >= body.totalPages) break;
      }
      expect(createdIds.filter(id => !visible.has(id))).toEqual([]);
    },
    300_000
  );
});
