import Redis from "ioredis";
import { RateLimiterAbstract, RateLimiterMemory, RateLimiterRedis, RateLimiterRes } from "rate-limiter-flexible";

export interface RateDecision {
  allowed: boolean;
  limit: number;
  remaining: number;
  retryAfterSeconds: number;
}

const WINDOW_SECONDS = 60;

/**
 * Per-key fixed one-minute windows. With Redis the counter is shared (one atomic INCR per
 * request), so N gateways together let exactly the limit through; without it each process counts
 * alone. A key's limit can differ from the default, hence one limiter per distinct limit.
 */
export class KeyRateLimiter {
  private readonly limiters = new Map<number, RateLimiterAbstract>();

  constructor(
    private readonly redis: Redis | null,
    private readonly keyPrefix: string
  ) {}

  private limiterFor(points: number): RateLimiterAbstract {
    let limiter = this.limiters.get(points);
    if (!limiter) {
      const options = { points, duration: WINDOW_SECONDS, keyPrefix: `${this.keyPrefix}:${points}` };
      limiter = this.redis
        ? new RateLimiterRedis({
            ...options,
            storeClient: this.redis,
            // If Redis goes away the API keeps answering, limited per process, instead of failing.
            insuranceLimiter: new RateLimiterMemory(options)
          })
        : new RateLimiterMemory(options);
      this.limiters.set(points, limiter);
    }
    return limiter;
  }

  async consume(key: string, limit: number): Promise<RateDecision> {
    try {
      const res = await this.limiterFor(limit).consume(key, 1);
      return { allowed: true, limit, remaining: res.remainingPoints, retryAfterSeconds: 0 };
    } catch (rejection) {
      if (!(rejection instanceof RateLimiterRes)) throw rejection;
      return {
        allowed: false,
        limit,
        remaining: 0,
        retryAfterSeconds: Math.max(1, Math.ceil(rejection.msBeforeNext / 1000))
      };
    }
  }
}
