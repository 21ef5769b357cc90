import { randomBytes } from "node:crypto";
import type { ServiceBroker } from "moleculer";
import { createSystem } from "../../bin/system";
import { loadConfig } from "../../lib/config";
import { blockSizeFor } from "../../services/gateway/rate-limit";
import { backoffice, partner } from "../helpers/http";
import { createTestDatabase } from "../helpers/postgres";
import { freePort } from "../helpers/processes";
import { describeWithServers, distributedEnv } from "../helpers/servers";

/**
 * Issue 31: two gateways (two brokers on the bus, one Redis) share one key's limit while each
 * counts in its own process from reserved blocks. Together they never admit more than the limit,
 * and fall short of it by at most the other gateway's unused block (decision 0039); the refusals
 * are the 429 of SPEC §8 with Retry-After, and the admitted answers carry the rate headers.
 */
describeWithServers(["postgres", "redis", "nats"], "one key's rate limit across two gateways", () => {
  const token = `bo_${randomBytes(12).toString("hex")}`;
  const brokers: ServiceBroker[] = [];
  const bases: string[] = [];
  let database: { url: string; drop: () => Promise<void> };

  beforeAll(async () => {
    database = await createTestDatabase();
    const env = { ...distributedEnv(database.url, token, "rate2"), LOG_LEVEL: "warn" };
    for (const services of ["gateway,auth", "gateway"]) {
      const port = await freePort();
      const base = `http://127.0.0.1:${port}`;
      const broker = await createSystem(loadConfig({ ...env, SERVICES: services, PORT: String(port), PUBLIC_BASE_URL: base }), {
        logger: false,
        // Two brokers in one process: each needs its own node id on the bus.
        nodeID: `rate2-${services.replace(",", "-")}-${randomBytes(3).toString("hex")}`
      });
      await broker.start();
      brokers.push(broker);
      bases.push(base);
    }
    // The second gateway routes the partner API once it has seen auth on the bus.
    await brokers[1].waitForServices(["auth"], 20_000);
  }, 90_000);

  afterAll(async () => {
    for (const broker of brokers.reverse()) await broker.stop();
    await database?.drop();
  });

  test("the total admitted stays within the limit and its stated tolerance", async () => {
    const limit = 100;
    const block = blockSizeFor(limit);
    const admin = backoffice(bases[0], token);
    const org = await admin.createOrganization("Two Gateways SARL");
    const { key } = await admin.createKey(org.id, { rateLimitPerMinute: limit });
    const callers = bases.map(base => partner(base, key));

    const answers = [];
    // Alternating, a few at a time on each: both gateways hold blocks of the same window at once.
    for (let i = 0; i < 2 * limit; i += 8) {
      answers.push(...(await Promise.all(Array.from({ length: 8 }, (_, j) => callers[(i + j) % 2]("GET", "/health")))));
    }
    const admitted = answers.filter(a => a.status === 200);
    const refused = answers.filter(a => a.status !== 200);
    expect(admitted.length).toBeLessThanOrEqual(limit);
    expect(admitted.length).toBeGreaterThanOrEqual(limit - (bases.length - 1) * (block - 1));
    for (const answer of admitted) {
      expect(answer.headers.get("x-ratelimit-limit")).toBe(String(limit));
      expect(Number(answer.headers.get("x-ratelimit-remaining"))).toBeGreaterThanOrEqual(0);
    }
    expect(new Set(admitted.map(a => a.headers.get("x-ratelimit-remaining"))).size).toBe(admitted.length);
    for (const answer of refused) {
      expect(answer.status).toBe(429);
      expect(answer.body.code).toBe("RATE_LIMITED");
      const retryAfter = Number(answer.headers.get("retry-after"));
      expect(retryAfter).toBeGreaterThan(0);
      expect(retryAfter).toBeLessThanOrEqual(60);
    }
  });
});
