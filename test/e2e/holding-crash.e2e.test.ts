import { randomBytes } from "node:crypto";
import { Client } from "pg";
import { backoffice, partner } from "../helpers/http";
import { checkMoneyInvariant } from "../helpers/money-invariant";
import { waitFor, waitForWebhookRoutes } from "../helpers/parcel-events";
import { createTestDatabase } from "../helpers/postgres";
import { freePort, RunningProcess, startNode, waitForHttp } from "../helpers/processes";
import { Receiver, startReceiver } from "../helpers/receivers";
import { describeWithServers, distributedEnv } from "../helpers/servers";

const SERVICES = ["gateway", "auth", "wallet", "parcels", "labels", "notifications", "webhooks"] as const;
const PARCELS = 16;

/**
 * Issue 18: a SIGKILL of `parcels` between a deadline passing and the parcel's return. Half the
 * deadlines are moved to the past through the back-office right before the kill (the pass they
 * trigger may be cut in the middle), the other half while `parcels` is down. After the restart,
 * every parcel goes back exactly once, its fee charged once, its webhook sent, and the money
 * invariant holds — as it does with a second parcels instance running passes beside the first.
 */
describeWithServers(["postgres", "redis", "nats"], "holding period: SIGKILL of parcels between a deadline and its return", () => {
  let database: { url: string; drop: () => Promise<void> };
  let hooks: Receiver;
  const procs: Record<string, RunningProcess> = {};
  let port: number;
  let env: Record<string, string>;
  const backofficeToken = `bo_${randomBytes(16).toString("hex")}`;

  const start = async (service: string, nodeId = `${service}-node`) => {
    procs[nodeId] = await startNode({ ...env, SERVICES: service, NODE_ID: nodeId });
  };

  beforeAll(async () => {
    hooks = await startReceiver();
    database = await createTestDatabase();
    port = await freePort();
    env = {
      ...distributedEnv(database.url, backofficeToken, "holding"),
      PORT: String(port),
      OUTBOX_INTERVAL_MS: "100",
      WEBHOOK_WORKER_INTERVAL_MS: "100",
      HOLDING_INTERVAL_MS: "300",
      WEBHOOK_ALLOW_PRIVATE: "true"
    };
    await Promise.all(SERVICES.map(service => start(service)));
    // A second parcels instance: its holding passes race the first one's.
    await start("parcels", "parcels-node-2");
    await waitForHttp(`http://127.0.0.1:${port}/readyz`);
    await waitForWebhookRoutes(`http://127.0.0.1:${port}`, backofficeToken);
  }, 200_000);

  afterAll(async () => {
    await Promise.all(Object.values(procs).map(p => p.stop()));
    await hooks?.close();
    await database?.drop();
  });

  test("every parcel past its deadline goes back once, its fee charged once, its webhook sent; the invariant holds", async () => {
    const base = `http://127.0.0.1:${port}`;
    const bo = backoffice(base, backofficeToken);
    const org = await bo.createOrganization("Holding Crash");
    const { key } = await bo.createKey(org.id, { rateLimitPerMinute: 100_000 });
    await bo.call("POST", `/organizations/${org.id}/wallet/top-ups`, { amountDzd: 100_000 });
    expect(
      (await bo.call("PUT", `/organizations/${org.id}/webhook`, { url: `${hooks.url}/${org.id}`, secret: "s".repeat(32) })).status
    ).toBe(200);
    const shop = partner(base, key);

    const ids: string[] = [];
    for (let i = 0; i < PARCELS; i++) {
      const created = await shop("POST", "/parcels", {
        recipientName: "Holding Test",
        recipientPhone: "0555 00 00 00",
        weightG: 700,
        destinationRelayCode: "DZ-16-ALGER-CENTRE",
        codAmountDzd: 1000
      });
      expect(created.status).toBe(201);
      for (const toStatus of ["READY_FOR_PICKUP", "PICKED_UP", "IN_TRANSIT", "AT_RELAY"]) {
        expect((await bo.call("POST", `/parcels/${created.body.id}/transitions`, { toStatus })).status).toBe(200);
      }
      ids.push(created.body.id);
    }
    const [before, during] = [ids.slice(0, PARCELS / 2), ids.slice(PARCELS / 2)];

    // Deadlines in the past, then both parcels instances killed at once: no pass gets to finish what it began.
    for (const id of before) {
      const put = await bo.call("PUT", `/parcels/${id}/pickup-deadline`, { pickupDeadline: "2020-01-01T00:00:00Z" });
      expect(put.status === 200 || put.status === 409).toBe(true);
    }
    await Promise.all([procs["parcels-node"].stop("SIGKILL"), procs["parcels-node-2"].stop("SIGKILL")]);
    const pg = new Client({ connectionString: database.url });
    await pg.connect();
    try {
      await pg.query("UPDATE parcels.parcels SET pickup_deadline = now() - interval '1 minute' WHERE id = ANY($1::uuid[])", [during]);
    } finally {
      await pg.end();
    }
    await Promise.all([start("parcels"), start("parcels", "parcels-node-2")]);

    const statuses = async () =>
      Promise.all(
        ids.map(
          async id => (await shop("GET", `/parcels/${id}`)).body as { status: string; pricePaidDzd: number; returnFeeDzd: number | null }
        )
      );
    const returned = await waitFor(statuses, views => views.every(v => v.status === "RETURN_PENDING" && v.returnFeeDzd !== null), 60_000);
    for (const view of returned) {
      expect(view).toMatchObject({ status: "RETURN_PENDING", codStatus: "NOT_COLLECTED" });
      // Half the shipping price alone (issue 26): never more than half of what was paid.
      expect(view.returnFeeDzd!).toBeGreaterThan(0);
      expect(Math.round(view.returnFeeDzd! * 100)).toBeLessThanOrEqual(Math.round(view.pricePaidDzd * 50));
    }

    for (const id of ids) {
      const events = (await shop("GET", `/parcels/${id}/events`)).body.items as { status: string; reason: string | null }[];
      expect(events.filter(e => e.status === "RETURN_PENDING")).toEqual([expect.objectContaining({ reason: "PICKUP_EXPIRED" })]);
    }
    const wallet = await bo.call("GET", `/organizations/${org.id}/wallet?mode=live`);
    const fees = (wallet.body.entries as { kind: string; parcelId: string }[]).filter(e => e.kind === "return_fee");
    expect(fees.map(f => f.parcelId).sort()).toEqual([...ids].sort());

    const report = await checkMoneyInvariant(database.url);
    expect(report.violations).toEqual([]);
    expect(report.returnFeePending).toBe(0);
    expect(report.returnFees).toBe(PARCELS);

    // One parcel.return_pending event per parcel reached the webhook (retries carry the same event id).
    const returnEvents = () =>
      hooks.requests
        .map(r => JSON.parse(r.rawBody) as { id: string; type: string; reason: string | null; data: { parcel: { id: string } } })
        .filter(body => body.type === "parcel.return_pending");
    await hooks.waitFor(() => new Set(returnEvents().map(e => e.data.parcel.id)).size === PARCELS, 60_000);
    for (const id of ids) {
      const mine = returnEvents().filter(e => e.data.parcel.id === id);
      expect(new Set(mine.map(e => e.id)).size).toBe(1);
      expect(mine[0].reason).toBe("PICKUP_EXPIRED");
    }
  }, 300_000);
});
