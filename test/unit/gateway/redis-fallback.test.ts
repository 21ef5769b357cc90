import type Redis from "ioredis";
import { blockSizeFor, KeyRateLimiter } from "../../../services/gateway/rate-limit";
import { RedisFallback } from "../../../services/gateway/redis-fallback";

/** Redis as the reservation script sees it: a shared counter, or a connection that is gone. */
function fakeRedis() {
  const state = { down: false, count: 0 };
  const client = {
    defineCommand: () => undefined,
    async relayReserve(_key: string, size: number, windowMs: number): Promise<[number, number]> {
      if (state.down) throw new Error("Connection is closed.");
      state.count += size;
      return [state.count, windowMs];
    }
  };
  return { state, redis: client as unknown as Redis };
}

describe("rate limits when Redis goes away (issue 46)", () => {
  test("requests keep being answered, limited by this gateway alone; the change is reported once each way", async () => {
    const { state, redis } = fakeRedis();
    const reports: Array<[boolean, string]> = [];
    const fallback = new RedisFallback((local, reason) => reports.push([local, reason]));
    const limit = 100;
    const limiter = new KeyRateLimiter(redis, "test", fallback);

    expect((await limiter.consume("k", limit)).allowed).toBe(true);
    expect(reports).toEqual([]);

    state.down = true;
    // Past the block held, every reservation fails: answered from the local limiter, reported once.
    const during = [];
    for (let i = 0; i < blockSizeFor(limit) + 10; i++) during.push(await limiter.consume("k", limit));
    expect(during.every(d => d.allowed)).toBe(true);
    expect(fallback.active).toBe(true);
    expect(reports).toEqual([[true, "Connection is closed."]]);

    state.down = false;
    // A new window's key reserves from Redis again: back to shared limits, reported once.
    expect((await limiter.consume("other", limit)).allowed).toBe(true);
    expect(fallback.active).toBe(false);
    expect(reports).toEqual([
      [true, "Connection is closed."],
      [false, "ready"]
    ]);
  });

  test("the local fallback still refuses past the limit", async () => {
    const { state, redis } = fakeRedis();
    state.down = true;
    const limiter = new KeyRateLimiter(redis, "test", new RedisFallback(() => undefined));
    const decisions = [];
    for (let i = 0; i < 7; i++) decisions.push(await limiter.consume("k", 5));
    expect(decisions.map(d => d.allowed)).toEqual([true, true, true, true, true, false, false]);
    expect(decisions[6].retryAfterSeconds).toBeGreaterThan(0);
  });

  test("a connection error and its recovery, told many times, are one report each", () => {
    const reports: boolean[] = [];
    const fallback = new RedisFallback(local => reports.push(local));
    for (let i = 0; i < 5; i++) fallback.lost(new Error("connect ECONNREFUSED"));
    for (let i = 0; i < 5; i++) fallback.restored();
    expect(reports).toEqual([true, false]);
  });
});
