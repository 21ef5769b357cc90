import { randomBytes, randomUUID } from "node:crypto";
import { Client } from "pg";
import { backoffice, partner } from "../helpers/http";
import { waitFor } from "../helpers/parcel-events";
import { createTestDatabase } from "../helpers/postgres";
import { freePort, RunningProcess, startNode, waitForHttp } from "../helpers/processes";
import { Receiver, startReceiver } from "../helpers/receivers";
import { describeWithServers, distributedEnv } from "../helpers/servers";

const sleep = (ms: number) => new Promise(r => setTimeout(r, ms));

/**
 * Issue 4, acceptance 3 and 4, distributed: two webhooks worker processes on one database; one is
 * killed with SIGKILL while 500 events are in flight and restarted. Every event arrives at least
 * once, a duplicate only ever with the same delivery id; with both workers up, none twice.
 */
describeWithServers(["postgres", "redis", "nats"], "webhooks at-least-once across crashes (distributed)", () => {
  let database: { url: string; drop: () => Promise<void> };
  const procs: Record<string, RunningProcess> = {};
  let env: Record<string, string>;
  let base: string;
  let hooks: Receiver;
  const token = `bo_${randomBytes(12).toString("hex")}`;

  const start = async (name: string, services: string, extra: Record<string, string> = {}) => {
    procs[name] = await startNode({ ...env, SERVICES: services, NODE_ID: name, ...extra });
  };

  beforeAll(async () => {
    hooks = await startReceiver();
    database = await createTestDatabase();
    const port = await freePort();
    base = `http://127.0.0.1:${port}`;
    env = {
      ...distributedEnv(database.url, token, "hooks"),
      WEBHOOK_ALLOW_PRIVATE: "true",
      WEBHOOK_TIMEOUT_MS: "2000",
      WEBHOOK_WORKER_INTERVAL_MS: "100",
      OUTBOX_INTERVAL_MS: "100"
    };
    await Promise.all([
      start("core", "auth,wallet,parcels,labels,notifications"),
      start("webhooks-a", "webhooks"),
      start("webhooks-b", "webhooks"),
      start("gateway", "gateway", { PORT: String(port) })
    ]);
    await waitForHttp(`${base}/readyz`);
    // Readiness covers the services parcels need; the webhooks workers may be discovered a moment later.
    const probe = `/organizations/${randomUUID()}/webhook-deliveries`;
    for (let i = 0; i < 100 && (await backoffice(base, token).call("GET", probe)).status === 503; i++) {
      await new Promise(r => setTimeout(r, 100));
    }
  }, 200_000);

  afterAll(async () => {
    await Promise.all(Object.values(procs).map(p => p.stop()));
    await hooks?.close();
    await database?.drop();
  });

  async function merchantWithHook(name: string) {
    const bo = backoffice(base, token);
    const org = await bo.createOrganization(name);
    const key = (await bo.createKey(org.id, { mode: "sandbox", rateLimitPerMinute: 100_000 })).key;
    await bo.call("POST", `/organizations/${org.id}/wallet/top-ups`, { amountDzd: 1_000_000, mode: "sandbox" });
    expect((await bo.call("PUT", `/organizations/${org.id}/webhook`, { url: `${hooks.url}/${name}`, secret: "s".repeat(32) })).status).toBe(
      200
    );
    return partner(base, key);
  }

  async function createParcels(call: ReturnType<typeof partner>, count: number): Promise<string[]> {
    const ids: string[] = [];
    for (let i = 0; i < count; i += 25) {
      const batch = await Promise.all(
        Array.from({ length: Math.min(25, count - i) }, () =>
          call("POST", "/parcels", { recipientName: "R", recipientPhone: "0555000000", weightG: 300, destinationRelayCode: "DZ-16-HYDRA" })
        )
      );
      for (const r of batch) {
        expect(r.status).toBe(201);
        ids.push(r.body.id);
      }
    }
    return ids;
  }

  /** Deliveries of these parcels' events not yet delivered (pending or in flight). */
  async function notDelivered(parcelIds: string[]): Promise<number> {
    const client = new Client({ connectionString: database.url });
    await client.connect();
    try {
      const { rows } = await client.query(
        "SELECT count(*)::int AS n FROM webhooks.deliveries WHERE parcel_id = ANY($1::uuid[]) AND status <> 'delivered'",
        [parcelIds]
      );
      return rows[0].n as number;
    } finally {
      await client.end();
    }
  }

  /** parcel id → the delivery ids its parcel.created event arrived with. */
  function createdDeliveries(path: string): Map<string, string[]> {
    const byParcel = new Map<string, string[]>();
    for (const req of hooks.requests.filter(r => r.path === path)) {
      const body = JSON.parse(req.rawBody);
      if (body.type !== "parcel.created") continue;
      const list = byParcel.get(body.data.parcel.id) ?? [];
      list.push(String(req.headers["x-relay-delivery-id"]));
      byParcel.set(body.data.parcel.id, list);
    }
    return byParcel;
  }

  test("SIGKILL of a webhooks worker with 500 events in flight: every event delivered, duplicates share the delivery id", async () => {
    // A slow receiver keeps deliveries in flight when the worker dies.
    hooks.respond = () => ({ status: 200, delayMs: 30 });
    const call = await merchantWithHook("crash");
    const creating = createParcels(call, 500);
    await hooks.waitFor(reqs => reqs.filter(r => r.path === "/crash").length >= 50, 60_000);
    await procs["webhooks-a"].stop("SIGKILL");
    const ids = await creating;
    await sleep(500);
    await start("webhooks-a", "webhooks");

    // Claims of the killed worker come back after their lease (time-out + 30 s).
    await hooks.waitFor(() => createdDeliveries("/crash").size >= 500, 150_000);
    const delivered = createdDeliveries("/crash");
    for (const id of ids) {
      const deliveryIds = delivered.get(id);
      expect(deliveryIds).toBeDefined();
      expect(new Set(deliveryIds).size).toBe(1);
    }
  }, 240_000);

  test("two workers on one database never send the same attempt twice", async () => {
    hooks.respond = () => ({ status: 200, delayMs: 5 });
    const call = await merchantWithHook("pair");
    const ids = await createParcels(call, 200);
    await hooks.waitFor(() => createdDeliveries("/pair").size >= 200, 90_000);
    // Nothing more is sent once every delivery of these parcels is final: a condition, not a pause.
    await waitFor(
      () => notDelivered(ids),
      n => n === 0,
      60_000
    );
    const delivered = createdDeliveries("/pair");
    for (const id of ids) expect(delivered.get(id)).toHaveLength(1);
    // Both workers took part: the attempts log records which node sent each attempt.
    const client = new Client({ connectionString: database.url });
    await client.connect();
    try {
      const { rows } = await client.query(
        `SELECT DISTINCT a.worker FROM webhooks.attempts a JOIN webhooks.deliveries d ON d.id = a.delivery_id
          WHERE d.parcel_id = ANY($1::uuid[])`,
        [ids]
      );
      expect(rows.map(r => r.worker).sort()).toEqual(["webhooks-a", "webhooks-b"]);
    } finally {
      await client.end();
    }
  }, 180_000);
});
