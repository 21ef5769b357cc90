import { createHash, randomBytes } from "node:crypto";

export type KeyMode = "live" | "sandbox";
export const SCOPES = ["parcels:read", "parcels:write", "wallet:read"] as const;
export type Scope = (typeof SCOPES)[number];
/** What an endpoint asks of a key: one scope, or "any" for calls every valid key may make (health). */
export type ScopeRequirement = Scope | "any";

/** Fixed prefixes (SPEC §5.3): a key says at a glance whether it touches real money. */
export const KEY_PREFIX: Record<KeyMode, string> = {
  live: "rp_live_",
  sandbox: "rp_sandbox_"
};

const SECRET_LENGTH = 40;
const ALPHABET = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789";
/** How many characters of the secret stay readable in `keyPrefix`; 8 base62 chars tell keys apart without weakening them. */
const VISIBLE_SECRET_CHARS = 8;

const KEY_SHAPE = /^rp_(live|sandbox)_[A-Za-z0-9]{40}$/;

export function randomBase62(length: number): string {
  // Rejection sampling keeps every character uniformly likely (256 is not a multiple of 62).
  let out = "";
  while (out.length < length) {
    for (const byte of randomBytes(length * 2)) {
      if (byte < 248 && out.length < length) out += ALPHABET[byte % 62];
    }
  }
  return out;
}

export interface NewKey {
  key: string;
  keyPrefix: string;
  keyHash: string;
}

export function generateApiKey(mode: KeyMode): NewKey {
  const key = KEY_PREFIX[mode] + randomBase62(SECRET_LENGTH);
  return { key, keyPrefix: readablePrefix(key), keyHash: hashApiKey(key) };
}

export function readablePrefix(key: string): string {
  const mode = modeOfKey(key);
  const head = mode ? KEY_PREFIX[mode].length : 0;
  return key.slice(0, head + VISIBLE_SECRET_CHARS);
}

/**
 * Keys carry 238 bits of randomness, so a fast unsalted SHA-256 is enough: nothing can be
 * brute-forced from the hash, and lookup by hash stays one indexed read per request.
 */
export function hashApiKey(key: string): string {
  return createHash("sha256").update(key, "utf8").digest("hex");
}

export function isWellFormedKey(key: string): boolean {
  return KEY_SHAPE.test(key);
}

export function modeOfKey(key: string): KeyMode | null {
  if (key.startsWith(KEY_PREFIX.live)) return "live";
  if (key.startsWith(KEY_PREFIX.sandbox)) return "sandbox";
  return null;
}

export type ApiKeyReading = { key: string } | { problem: string };

const NO_KEY = "Missing API key (use Authorization: ApiKey <key> or X-API-Key: <key>)";

/**
 * Reads the key from `Authorization: ApiKey <key>` or `X-API-Key: <key>` (SPEC §5.1). Anything
 * ambiguous is refused rather than guessed: another scheme in Authorization (Bearer, Basic) is
 * not a partner credential even beside a valid X-API-Key, and two different keys in the two
 * headers say the caller does not know which key it means.
 */
export function readApiKey(headers: Record<string, string | string[] | undefined>): ApiKeyReading {
  const single = (v: string | string[] | undefined) => (Array.isArray(v) ? v.join(",") : v);
  const authorization = single(headers["authorization"])?.trim();
  let fromAuthorization: string | null = null;
  if (authorization) {
    const match = /^ApiKey\s+(\S+)$/i.exec(authorization);
    if (!match) return { problem: "The Authorization header must use the ApiKey scheme (Authorization: ApiKey <key>)" };
    fromAuthorization = match[1];
  }
  const fromHeader = single(headers["x-api-key"])?.trim() || null;
  if (fromAuthorization && fromHeader && fromAuthorization !== fromHeader) {
    return { problem: "Authorization and X-API-Key carry two different keys; send one" };
  }
  const key = fromAuthorization ?? fromHeader;
  return key ? { key } : { problem: NO_KEY };
}
