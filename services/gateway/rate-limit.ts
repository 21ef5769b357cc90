import type Redis from "ioredis";
import { RateLimiterMemory, RateLimiterRes } from "rate-limiter-flexible";
import { reserveBlock, Reservation } from "./rate-limit-reserve";
import type { RedisFallback } from "./redis-fallback";

export interface RateDecision {
  allowed: boolean;
  limit: number;
  remaining: number;
  retryAfterSeconds: number;
}

/** A decision, or a promise of one when Redis must be asked first. */
export type RateAnswer = RateDecision | Promise<RateDecision>;

const WINDOW_MS = 60_000;
/** A block is at most this share of the limit: limits under 40 a minute reserve one place at a time, exactly as before. */
const BLOCK_SHARE = 20;
/** And at most this many places, so that a gateway never sits on much of a large limit. */
const MAX_BLOCK = 1_000;

/** How many places one reservation takes for a limit (decision 0039 states the tolerance this gives). */
export function blockSizeFor(limit: number): number {
  return Math.max(1, Math.min(MAX_BLOCK, Math.floor(limit / BLOCK_SHARE)));
}

/** This process's places in one key's current window: `next` to `last` are its own to hand out. */
interface Window {
  next: number;
  last: number;
  endsAt: number;
  /** Every place up to the limit is taken (by this gateway or another): refuse until `endsAt`. */
  full: boolean;
}

function admitted(limit: number, place: number): RateDecision {
  return { allowed: true, limit, remaining: limit - place, retryAfterSeconds: 0 };
}

function refused(limit: number, msLeft: number): RateDecision {
  return { allowed: false, limit, remaining: 0, retryAfterSeconds: Math.max(1, Math.ceil(msLeft / 1000)) };
}

/**
 * Per-key fixed one-minute windows, counted in this process from blocks of places reserved in
 * Redis: one round trip per block instead of one per request, and none once the window is full
 * (decision 0039). Across gateways the total admitted never exceeds the limit; it can fall short
 * by the places other gateways reserved and did not use. One gateway alone is exact, headers
 * included. Without Redis (embedded) the whole window is this process's: one map lookup per request.
 */
export class KeyRateLimiter {
  private readonly windows = new Map<string, Window>();
  private readonly reserving = new Map<string, Promise<void>>();
  /** If Redis goes away the API keeps answering, limited per process, instead of failing. */
  private readonly insurance = new Map<number, RateLimiterMemory>();
  private nextSweepAt = 0;

  constructor(
    private readonly redis: Redis | null,
    private readonly keyPrefix: string,
    /** Told when a reservation fails or succeeds: the one log line and gauge of the local fallback. */
    private readonly fallback?: RedisFallback
  ) {}

  /** The decision: at once from this process's window when it can give it, a promise when a block must be reserved first. */
  consume(key: string, limit: number): RateAnswer {
    return this.consumeNow(key, limit) ?? this.consumeAfterReserving(`${limit}:${key}`, key, limit);
  }

  /**
   * The decision when this process's window can give it (a place left in its block, or the window
   * full); null when a block must be reserved first. Most requests are so admitted without waiting
   * for a turn of the microtask queue.
   */
  consumeNow(key: string, limit: number): RateDecision | null {
    const window = this.windows.get(`${limit}:${key}`);
    if (!window) return null;
    const now = Date.now();
    if (now >= window.endsAt) return null;
    if (window.next <= window.last) return admitted(limit, window.next++);
    return window.full ? refused(limit, window.endsAt - now) : null;
  }

  private async consumeAfterReserving(id: string, key: string, limit: number): Promise<RateDecision> {
    // Requests that find the block spent while one reservation is on its way wait for it, rather than reserve one each.
    const pending = this.reserving.get(id);
    if (pending) {
      await pending;
      return this.consume(key, limit);
    }
    const reservation = this.reserve(id, key, limit);
    this.reserving.set(id, reservation);
    try {
      await reservation;
      if (this.redis) this.fallback?.restored();
    } catch (err) {
      this.fallback?.lost(err);
      return this.consumeInsured(key, limit);
    } finally {
      this.reserving.delete(id);
    }
    return this.consume(key, limit);
  }

  private async reserve(id: string, key: string, limit: number): Promise<void> {
    this.sweep();
    const taken: Reservation = this.redis
      ? await reserveBlock(this.redis, `${this.keyPrefix}:${limit}:${key}`, blockSizeFor(limit), WINDOW_MS)
      : { last: limit, endsAt: Date.now() + WINDOW_MS };
    const size = this.redis ? blockSizeFor(limit) : limit;
    const first = taken.last - size + 1;
    this.windows.set(id, { next: first, last: Math.min(taken.last, limit), endsAt: taken.endsAt, full: taken.last >= limit });
  }

  private async consumeInsured(key: string, limit: number): Promise<RateDecision> {
    let limiter = this.insurance.get(limit);
    if (!limiter) {
      limiter = new RateLimiterMemory({ points: limit, duration: WINDOW_MS / 1000, keyPrefix: `${this.keyPrefix}:${limit}` });
      this.insurance.set(limit, limiter);
    }
    try {
      const res = await limiter.consume(key, 1);
      return { allowed: true, limit, remaining: res.remainingPoints, retryAfterSeconds: 0 };
    } catch (rejection) {
      if (!(rejection instanceof RateLimiterRes)) throw rejection;
      return refused(limit, rejection.msBeforeNext);
    }
  }

  /** Windows that ended are dropped, at most once a window, so that a key seen once does not stay forever. */
  private sweep(): void {
    const now = Date.now();
    if (now < this.nextSweepAt) return;
    this.nextSweepAt = now + WINDOW_MS;
    for (const [id, window] of this.windows) if (window.endsAt <= now) this.windows.delete(id);
  }
}
