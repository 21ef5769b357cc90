import { randomUUID } from "node:crypto";
import Redis from "ioredis";
import { KeyRateLimiter } from "../../services/gateway/rate-limit";
import { describeWithServers, REDIS_URL } from "../helpers/servers";

describeWithServers(["redis"], "per-key rate limit shared through Redis", () => {
  const clients: Redis[] = [];
  const prefix = `test:${randomUUID()}`;

  afterAll(async () => {
    await Promise.all(clients.map(c => c.quit()));
  });

  function gatewayLimiter(): KeyRateLimiter {
    const client = new Redis(REDIS_URL, { enableOfflineQueue: true });
    clients.push(client);
    return new KeyRateLimiter(client, prefix);
  }

  test("two gateways with their own connections let exactly N through between them", async () => {
    const [a, b] = [gatewayLimiter(), gatewayLimiter()];
    const limit = 25;
    const decisions = await Promise.all(Array.from({ length: 60 }, (_, i) => (i % 2 === 0 ? a : b).consume("key-1", limit)));
    expect(decisions.filter(d => d.allowed)).toHaveLength(limit);
    const remaining = decisions
      .filter(d => d.allowed)
      .map(d => d.remaining)
      .sort((x, y) => x - y);
    expect(remaining).toEqual(Array.from({ length: limit }, (_, i) => i));
    for (const refused of decisions.filter(d => !d.allowed)) {
      expect(refused.retryAfterSeconds).toBeGreaterThan(0);
      expect(refused.retryAfterSeconds).toBeLessThanOrEqual(60);
    }
  });

  test("keys are counted apart", async () => {
    const limiter = gatewayLimiter();
    await limiter.consume("key-2", 1);
    expect((await limiter.consume("key-2", 1)).allowed).toBe(false);
    expect((await limiter.consume("key-3", 1)).allowed).toBe(true);
  });
});

describe("per-key rate limit in memory (embedded)", () => {
  test("counts down to zero, then refuses with a retry delay", async () => {
    const limiter = new KeyRateLimiter(null, "mem");
    const seen = [];
    for (let i = 0; i < 4; i++) seen.push(await limiter.consume("k", 3));
    expect(seen.map(d => d.allowed)).toEqual([true, true, true, false]);
    expect(seen.map(d => d.remaining)).toEqual([2, 1, 0, 0]);
    expect(seen[3].retryAfterSeconds).toBeGreaterThan(0);
  });
});
