import { Client } from "pg";
import { merchants, PARCEL } from "../e2e/merchant-helpers";
import { createTestDatabase } from "../helpers/postgres";
import { inProcessSystem } from "../helpers/in-process-system";
import { checkMoneyInvariant } from "../helpers/money-invariant";
import { describeWithServers } from "../helpers/servers";

/**
 * Issue 46: a database connection lost under a request in progress (a primary killed, a failover,
 * pg_terminate_backend) is a 503 with Retry-After in the normalised shape, never a 500; the pool
 * replaces the connection and the next request succeeds; nothing is half done (money invariant).
 * The request is held in progress by a lock an outside session takes, so that the kill lands
 * while it runs, without timing.
 */
describeWithServers(["postgres"], "a lost database connection", () => {
  let url = "";
  const sut = inProcessSystem(async () => {
    const database = await createTestDatabase();
    url = database.url;
    return { env: { DATABASE_URL: database.url, DATABASE_POOL_SIZE: "4" }, url: database.url, drop: database.drop };
  });
  const m = merchants(sut.system);

  /** Waits (polling, no deadline but jest's) until one of the system's sessions waits on a lock; answers its pid. */
  async function blockedBackend(admin: Client): Promise<number> {
    for (;;) {
      const { rows } = await admin.query<{ pid: number }>(
        `SELECT pid FROM pg_stat_activity WHERE datname = current_database() AND wait_event_type = 'Lock' AND pid <> pg_backend_pid()`
      );
      if (rows.length > 0) return rows[0].pid;
      await new Promise(resolve => setTimeout(resolve, 20));
    }
  }

  test("the create in progress answers 503 with Retry-After, the next one 201, and no money moved for the failed one", async () => {
    const merchant = await m.create("Loss SARL", 10_000);
    const admin = new Client({ connectionString: url });
    await admin.connect();
    try {
      await admin.query("BEGIN");
      await admin.query("LOCK TABLE parcels.parcels IN ACCESS EXCLUSIVE MODE");
      const pending = merchant.live("POST", "/parcels", PARCEL, { "Idempotency-Key": "loss-1" });
      const pid = await blockedBackend(admin);
      await admin.query("SELECT pg_terminate_backend($1)", [pid]);
      await admin.query("COMMIT");
      const res = await pending;
      expect({ status: res.status, code: res.body.code }).toEqual({ status: 503, code: "UNAVAILABLE" });
      expect(res.body).toEqual(expect.objectContaining({ status: 503, message: expect.any(String) }));
      expect(res.text).not.toMatch(/at .*\.(ts|js):\d+/);
      expect(Number(res.headers.get("retry-after"))).toBeGreaterThanOrEqual(1);
    } finally {
      await admin.end();
    }
    // The client's retry with the same key: one parcel, created now.
    const retried = await merchant.live("POST", "/parcels", PARCEL, { "Idempotency-Key": "loss-1" });
    expect(retried.status).toBe(201);
    const again = await merchant.live("POST", "/parcels", PARCEL, { "Idempotency-Key": "loss-1" });
    expect(again.body.id).toBe(retried.body.id);
    const list = await merchant.live("GET", "/parcels?size=10");
    expect(list.status).toBe(200);
    expect(list.body.items).toHaveLength(1);
    expect((await checkMoneyInvariant(url)).violations).toEqual([]);
  });

  test("every pooled connection killed at once: reads and writes after it succeed on new connections", async () => {
    const merchant = await m.create("Pool SARL", 10_000);
    const admin = new Client({ connectionString: url });
    await admin.connect();
    try {
      await admin.query(
        "SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = current_database() AND pid <> pg_backend_pid()"
      );
    } finally {
      await admin.end();
    }
    // An idle connection killed is dropped by the pool; one caught mid-use is a 503 the client retries.
    const created = await retryingOn503(() => merchant.live("POST", "/parcels", PARCEL, { "Idempotency-Key": "pool-1" }));
    expect(created.status).toBe(201);
    const read = await retryingOn503(() => merchant.live("GET", `/parcels/${created.body.id}`));
    expect(read.status).toBe(200);
    expect((await checkMoneyInvariant(url)).violations).toEqual([]);
  });
});

/** What a well-behaved client does: a 503 is tried again (a few times), anything else is the answer. */
async function retryingOn503<T extends { status: number }>(call: () => Promise<T>): Promise<T> {
  let res = await call();
  for (let i = 0; i < 5 && res.status === 503; i++) res = await call();
  return res;
}
