import { randomUUID } from "node:crypto";
import Redis from "ioredis";
import { blockSizeFor, KeyRateLimiter } from "../../services/gateway/rate-limit";
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

  test("one gateway reserves places in blocks: a round trip per block, headers exact, then refusals without Redis", async () => {
    const limiter = gatewayLimiter();
    const limit = 100;
    const block = blockSizeFor(limit);
    expect(block).toBeGreaterThan(1);
    const reader = new Redis(REDIS_URL);
    clients.push(reader);
    const counted = async () => Number(await reader.get(`${prefix}:${limit}:key-blocks`));
    const decisions = [];
    for (let i = 0; i < block + 2; i++) decisions.push(await limiter.consume("key-blocks", limit));
    // Two reservations, not block + 2 increments.
    expect(await counted()).toBe(2 * block);
    for (let i = block + 2; i < limit + 5; i++) decisions.push(await limiter.consume("key-blocks", limit));
    expect(decisions.slice(0, limit).map(d => d.remaining)).toEqual(Array.from({ length: limit }, (_, i) => limit - 1 - i));
    for (const refused of decisions.slice(limit)) {
      expect(refused).toMatchObject({ allowed: false, remaining: 0, limit });
      expect(refused.retryAfterSeconds).toBeGreaterThan(0);
      expect(refused.retryAfterSeconds).toBeLessThanOrEqual(60);
    }
    // The shared counter moved by whole blocks, and not at all for the refusals once the window was full.
    expect(await counted()).toBe(limit);
  });

  test("answers at once only from the block it holds: a spent block, window not full, waits for the next reservation", async () => {
    const limiter = gatewayLimiter();
    const limit = 100;
    const block = blockSizeFor(limit);
    expect(limiter.consumeNow("key-now", limit)).toBeNull();
    expect((await limiter.consume("key-now", limit)).remaining).toBe(limit - 1);
    for (let i = 1; i < block; i++) expect(limiter.consumeNow("key-now", limit)?.remaining).toBe(limit - 1 - i);
    expect(limiter.consumeNow("key-now", limit)).toBeNull();
    expect((await limiter.consume("key-now", limit)).remaining).toBe(limit - 1 - block);
  });

  test("two gateways never admit more than the limit, and fall short by at most the other's unused block (decision 0039)", async () => {
    const [a, b] = [gatewayLimiter(), gatewayLimiter()];
    const limit = 200;
    const block = blockSizeFor(limit);
    // A takes a few and then sees no more traffic for this key: the rest of its block stays unused.
    const fromA = await Promise.all(Array.from({ length: 3 }, () => a.consume("key-shared", limit)));
    const fromB = await Promise.all(Array.from({ length: limit + 50 }, () => b.consume("key-shared", limit)));
    const total = [...fromA, ...fromB].filter(d => d.allowed).length;
    expect(total).toBeLessThanOrEqual(limit);
    expect(total).toBeGreaterThanOrEqual(limit - (block - 1));
    // Interleaved on both: every place handed out once, so never over the limit.
    const interleaved = await Promise.all(Array.from({ length: 2 * limit }, (_, i) => (i % 2 === 0 ? a : b).consume("key-both", limit)));
    const admitted = interleaved.filter(d => d.allowed);
    expect(admitted.length).toBeLessThanOrEqual(limit);
    expect(admitted.length).toBeGreaterThanOrEqual(limit - (block - 1));
    expect(new Set(admitted.map(d => d.remaining)).size).toBe(admitted.length);
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

  test("answers at once once its window is open, counting the same places as consume", async () => {
    const limiter = new KeyRateLimiter(null, "mem");
    // No window yet: the first request opens it (a reservation, here without Redis).
    expect(limiter.consumeNow("k", 3)).toBeNull();
    expect((await limiter.consume("k", 3)).remaining).toBe(2);
    expect(limiter.consumeNow("k", 3)).toEqual({ allowed: true, limit: 3, remaining: 1, retryAfterSeconds: 0 });
    expect((await limiter.consume("k", 3)).remaining).toBe(0);
    const refused = limiter.consumeNow("k", 3);
    expect(refused?.allowed).toBe(false);
    expect(refused?.retryAfterSeconds).toBeGreaterThan(0);
    // Another key, or the same key under another limit, is its own window.
    expect(limiter.consumeNow("other", 3)).toBeNull();
    expect(limiter.consumeNow("k", 4)).toBeNull();
  });
});

describe("per-key rate limit when Redis cannot be reached", () => {
  test("the API keeps answering, limited per process, instead of failing", async () => {
    // Nothing listens on port 1: every reservation fails at once (no offline queue, as the gateway's client).
    const unreachable = new Redis("redis://127.0.0.1:1", { enableOfflineQueue: false, maxRetriesPerRequest: 1, retryStrategy: () => null });
    unreachable.on("error", () => undefined);
    try {
      const limiter = new KeyRateLimiter(unreachable, "down");
      const seen = [];
      for (let i = 0; i < 3; i++) seen.push(await limiter.consume("k", 2));
      expect(seen.map(d => d.allowed)).toEqual([true, true, false]);
      expect(seen.map(d => d.remaining)).toEqual([1, 0, 0]);
      expect(seen[2].retryAfterSeconds).toBeGreaterThan(0);
    } finally {
      unreachable.disconnect();
    }
  });
});
