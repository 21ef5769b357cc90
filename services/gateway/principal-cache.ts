import { LRUCache } from "lru-cache";
import type { Principal } from "../../lib/principal";

/**
 * The gateway's memory of resolved API keys, by the key as presented: a request whose key was seen
 * a moment ago skips its SHA-256, the round trip to auth and its database read (the hash is made
 * only to ask auth, on a miss; the key itself never leaves the gateway). Bounded in count and in age, so that a
 * change nobody announced (a key edited straight in the database) is picked up within `ttlMs`;
 * a revocation is announced to every gateway and applied before the revoke call returns
 * (auth.revokeApiKey → gateway.forgetApiKey on each gateway node), so a revoked key stops at once.
 * Unknown keys are never remembered: a key created a moment ago works on its first request.
 *
 * A lookup that began before a forget must not store what it found (auth may have answered just
 * before the revocation committed): each lookup takes the epoch first, and every forget moves it.
 */
export class PrincipalCache {
  private readonly entries: LRUCache<string, Principal> | null;
  private epoch = 0;
  /** Lookups under way, so that a burst of requests with a key not yet cached asks auth once. */
  private readonly inFlight = new Map<string, { epoch: number; answer: Promise<Principal | null> }>();

  constructor(options: { max: number; ttlMs: number }) {
    this.entries = options.ttlMs > 0 && options.max > 0 ? new LRUCache({ max: options.max, ttl: options.ttlMs }) : null;
  }

  get(key: string): Principal | undefined {
    return this.entries?.get(key);
  }

  /**
   * The principal of a key: from memory, or from `lookup` (auth), which concurrent requests
   * for the same key share — two hundred requests of a new key are one read, not two hundred in the
   * database's queue ahead of their own bodies. A request arriving after a forget never joins a
   * lookup that began before it. Unknown keys (null) are not remembered. A key in memory is
   * answered as a value, not a promise: the edge then admits the request without an await.
   */
  resolve(key: string, lookup: () => Promise<Principal | null>): Principal | Promise<Principal | null> {
    const cached = this.get(key);
    if (cached) return cached;
    const pending = this.inFlight.get(key);
    if (pending && pending.epoch === this.epoch) return pending.answer;
    const epoch = this.epoch;
    const answer = lookup()
      .then(principal => {
        if (principal) this.set(key, principal, epoch);
        return principal;
      })
      .finally(() => {
        if (this.inFlight.get(key)?.answer === answer) this.inFlight.delete(key);
      });
    this.inFlight.set(key, { epoch, answer });
    return answer;
  }

  /** Taken before asking auth; hand it back to `set`. */
  lookupEpoch(): number {
    return this.epoch;
  }

  /** Remembers a principal auth resolved, unless something was forgotten since the lookup began. */
  set(key: string, principal: Principal, lookupEpoch: number): void {
    if (lookupEpoch === this.epoch) this.entries?.set(key, principal);
  }

  /** Forgets every entry of this key id (there is one, but the cache is keyed by the key); how many went. */
  forgetKey(keyId: string): number {
    this.epoch += 1;
    if (!this.entries) return 0;
    let forgotten = 0;
    for (const [key, principal] of this.entries.entries()) {
      if (principal.keyId === keyId && this.entries.delete(key)) forgotten += 1;
    }
    return forgotten;
  }

  clear(): void {
    this.epoch += 1;
    this.entries?.clear();
  }

  get size(): number {
    return this.entries?.size ?? 0;
  }
}
