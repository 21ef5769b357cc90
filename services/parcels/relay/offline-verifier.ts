import { createHash, createHmac, pbkdf2 } from "node:crypto";
import { promisify } from "node:util";
import { LRUCache } from "lru-cache";

/**
 * What lets a phone check a pick-up PIN without the network (issue 27, decision 0032): for each
 * parcel on its shelf, PBKDF2-HMAC-SHA256 of the PIN with a salt of its own — never the PIN — which
 * the browser recomputes with WebCrypto from the PIN the recipient types. The salt is derived from
 * the parcel, its PIN version and a server secret, so a verifier is the same on every call and
 * every instance, and is computed once per PIN (kept in memory).
 */

export const VERIFIER_ALG = "PBKDF2-SHA256";
/** About 0.1-0.3 s for one PIN on a cheap Android phone's WebCrypto; the server computes each once. */
export const VERIFIER_ITERATIONS = 100_000;
const HASH_BYTES = 32;

export interface OfflineVerifier {
  alg: typeof VERIFIER_ALG;
  salt: string;
  iterations: number;
  hash: string;
}

const derive = promisify(pbkdf2);
const cache = new LRUCache<string, OfflineVerifier>({ max: 20_000 });

/**
 * The PIN's version: a number that changes whenever a new PIN is sealed (a reset), read from the
 * sealed PIN itself (each sealing has a fresh IV), so no column has to follow it.
 */
export function pinVersionOf(pickupPinEnc: string): number {
  return parseInt(createHash("sha256").update(pickupPinEnc).digest("hex").slice(0, 8), 16);
}

export async function offlineVerifier(parcel: { id: string; pickupPinEnc: string }, pin: string, secret: string): Promise<OfflineVerifier> {
  const version = pinVersionOf(parcel.pickupPinEnc);
  const cacheKey = `${parcel.id}:${version}`;
  const known = cache.get(cacheKey);
  if (known) return known;
  const salt = createHmac("sha256", secret).update(`offline-verifier:${cacheKey}`).digest().subarray(0, 16);
  const hash = await derive(pin, salt, VERIFIER_ITERATIONS, HASH_BYTES, "sha256");
  const verifier: OfflineVerifier = {
    alg: VERIFIER_ALG,
    salt: salt.toString("base64"),
    iterations: VERIFIER_ITERATIONS,
    hash: hash.toString("base64")
  };
  cache.set(cacheKey, verifier);
  return verifier;
}
