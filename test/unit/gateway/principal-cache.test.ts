import { PrincipalCache } from "../../../services/gateway/principal-cache";
import type { Principal } from "../../../lib/principal";

const principal = (keyId: string): Principal => ({
  keyId,
  keyPrefix: `rp_live_${keyId}`,
  organizationId: "00000000-0000-4000-8000-000000000001",
  organizationName: "Boutique Amel",
  mode: "live",
  scopes: ["parcels:read"],
  rateLimitPerMinute: null
});

describe("the gateway's principal cache", () => {
  test("remembers a resolved key by its hash", () => {
    const cache = new PrincipalCache({ max: 10, ttlMs: 60_000 });
    cache.set("h1", principal("k1"), cache.lookupEpoch());
    expect(cache.get("h1")).toEqual(principal("k1"));
    expect(cache.get("h2")).toBeUndefined();
  });

  test("forgetting a key id removes its entry, and only its entry", () => {
    const cache = new PrincipalCache({ max: 10, ttlMs: 60_000 });
    cache.set("h1", principal("k1"), cache.lookupEpoch());
    cache.set("h2", principal("k2"), cache.lookupEpoch());
    expect(cache.forgetKey("k1")).toBe(1);
    expect(cache.get("h1")).toBeUndefined();
    expect(cache.get("h2")).toEqual(principal("k2"));
    expect(cache.forgetKey("k1")).toBe(0);
  });

  test("a lookup that began before a revocation does not store its (stale) answer", () => {
    const cache = new PrincipalCache({ max: 10, ttlMs: 60_000 });
    const epoch = cache.lookupEpoch();
    cache.forgetKey("k1"); // the revocation lands while auth's answer is on its way
    cache.set("h1", principal("k1"), epoch);
    expect(cache.get("h1")).toBeUndefined();
    cache.set("h1", principal("k1"), cache.lookupEpoch());
    expect(cache.get("h1")).toBeDefined();
  });

  test("clear forgets everything and also voids lookups under way", () => {
    const cache = new PrincipalCache({ max: 10, ttlMs: 60_000 });
    cache.set("h1", principal("k1"), cache.lookupEpoch());
    const epoch = cache.lookupEpoch();
    cache.clear();
    cache.set("h2", principal("k2"), epoch);
    expect(cache.size).toBe(0);
  });

  test("bounded in count: the least recently used goes first", () => {
    const cache = new PrincipalCache({ max: 2, ttlMs: 60_000 });
    cache.set("h1", principal("k1"), cache.lookupEpoch());
    cache.set("h2", principal("k2"), cache.lookupEpoch());
    cache.get("h1");
    cache.set("h3", principal("k3"), cache.lookupEpoch());
    expect([cache.get("h1")?.keyId, cache.get("h2"), cache.get("h3")?.keyId]).toEqual(["k1", undefined, "k3"]);
  });

  test("a time-to-live of 0 turns the cache off", () => {
    const cache = new PrincipalCache({ max: 10, ttlMs: 0 });
    cache.set("h1", principal("k1"), cache.lookupEpoch());
    expect(cache.get("h1")).toBeUndefined();
  });
  test("concurrent requests of a key not yet cached share one lookup; the answer is then remembered", async () => {
    const cache = new PrincipalCache({ max: 10, ttlMs: 60_000 });
    let lookups = 0;
    let answer!: (p: Principal | null) => void;
    const lookup = () => {
      lookups += 1;
      return new Promise<Principal | null>(resolve => (answer = resolve));
    };
    const waiting = Array.from({ length: 200 }, () => cache.resolve("h1", lookup));
    answer(principal("k1"));
    expect(await Promise.all(waiting)).toEqual(Array(200).fill(principal("k1")));
    expect(lookups).toBe(1);
    expect(await cache.resolve("h1", lookup)).toEqual(principal("k1"));
    expect(lookups).toBe(1);
  });

  test("a request after a revocation never joins a lookup that began before it, and unknown keys are asked again", async () => {
    const cache = new PrincipalCache({ max: 10, ttlMs: 60_000 });
    const answers: Array<(p: Principal | null) => void> = [];
    const lookup = () => new Promise<Principal | null>(resolve => answers.push(resolve));
    const before = cache.resolve("h1", lookup);
    cache.forgetKey("k1");
    const after = cache.resolve("h1", lookup);
    expect(answers).toHaveLength(2);
    answers[0](principal("k1"));
    answers[1](null);
    expect(await before).toEqual(principal("k1"));
    expect(await after).toBeNull();
    expect(cache.get("h1")).toBeUndefined();
    const again = cache.resolve("h1", lookup);
    expect(answers).toHaveLength(3);
    answers[2](null);
    expect(await again).toBeNull();
  });

  test("a cached key is answered without its lookup (which hashes it); a revoked one is looked up, and hashed, again", async () => {
    const cache = new PrincipalCache({ max: 10, ttlMs: 60_000 });
    const hashed: string[] = [];
    const active = new Set(["k1"]);
    const lookup = (key: string) => async () => {
      hashed.push(key); // the gateway's lookup makes the key's SHA-256 to ask auth
      return active.has("k1") ? principal("k1") : null;
    };
    const key = "rp_live_secret-of-k1";
    for (let i = 0; i < 5; i++) expect(await cache.resolve(key, lookup(key))).toEqual(principal("k1"));
    expect(hashed).toEqual([key]);
    active.delete("k1");
    cache.forgetKey("k1");
    expect(await cache.resolve(key, lookup(key))).toBeNull();
    expect(hashed).toEqual([key, key]);
  });
});
