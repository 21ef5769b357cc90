import { createCipheriv, createDecipheriv, createHmac, createSecretKey, KeyObject, randomFillSync, timingSafeEqual } from "node:crypto";
import { AppError } from "./errors";

/**
 * Field-level encryption of PII at rest (recipient name and phone, webhook secrets; DESIGN §2).
 * Each value is sealed on its own with AES-256-GCM so that a leaked row or backup reveals
 * nothing, and any change to the stored text is detected instead of decrypting to garbage.
 */

const VERSION = "v1";
const ALGORITHM = "aes-256-gcm";
/** 96-bit IVs are what GCM is designed for; random ones are safe far beyond our volumes. */
const IV_BYTES = 12;
const TAG_BYTES = 16;
const KEY_SHAPE = /^[0-9a-fA-F]{64}$/;
const B64URL = /^[A-Za-z0-9_-]*$/;

/** The keys in use (one or two per process), imported once: checking and importing one per field was a create's hottest crypto. */
const keys = new Map<string, KeyObject>();

function keyFromHex(keyHex: string): KeyObject {
  const known = keys.get(keyHex);
  if (known) return known;
  // Never echo the key: this message may end up in logs.
  if (typeof keyHex !== "string" || !KEY_SHAPE.test(keyHex)) {
    throw new AppError("INTERNAL", "encryption key must be 64 hexadecimal characters (32 bytes)");
  }
  const key = createSecretKey(Buffer.from(keyHex, "hex"));
  keys.set(keyHex, key);
  return key;
}

/**
 * IVs are cut from a pool of random bytes refilled from the CSPRNG when spent, as Node does for
 * randomUUID: one call to the generator per 256 fields instead of one each. Each IV is used before
 * the next call can refill the pool (all of it is synchronous), and no IV is ever cut twice.
 */
const IV_POOL = Buffer.alloc(IV_BYTES * 256);
let ivOffset = IV_POOL.length;

function freshIv(): Buffer {
  if (ivOffset === IV_POOL.length) {
    randomFillSync(IV_POOL);
    ivOffset = 0;
  }
  const iv = IV_POOL.subarray(ivOffset, ivOffset + IV_BYTES);
  ivOffset += IV_BYTES;
  return iv;
}

/** Returns `v1:<iv>:<tag>:<ciphertext>`, each part base64url; the version leaves room for key rotation. */
export function encryptField(plain: string, keyHex: string): string {
  const key = keyFromHex(keyHex);
  const iv = freshIv();
  const cipher = createCipheriv(ALGORITHM, key, iv, { authTagLength: TAG_BYTES });
  const ciphertext = Buffer.concat([cipher.update(plain, "utf8"), cipher.final()]);
  const tag = cipher.getAuthTag();
  return [VERSION, iv.toString("base64url"), tag.toString("base64url"), ciphertext.toString("base64url")].join(":");
}

/** Throws when the value is malformed, was altered, or was sealed with another key. */
export function decryptField(encoded: string, keyHex: string): string {
  const key = keyFromHex(keyHex);
  const parts = typeof encoded === "string" ? encoded.split(":") : [];
  if (parts.length !== 4 || parts[0] !== VERSION || !parts.slice(1).every(p => B64URL.test(p))) {
    throw new AppError("INTERNAL", "encrypted field is not in the v1 format");
  }
  const iv = Buffer.from(parts[1], "base64url");
  const tag = Buffer.from(parts[2], "base64url");
  const ciphertext = Buffer.from(parts[3], "base64url");
  // A shortened tag would weaken authentication, so lengths are checked rather than trusted.
  if (iv.length !== IV_BYTES || tag.length !== TAG_BYTES) {
    throw new AppError("INTERNAL", "encrypted field is not in the v1 format");
  }
  try {
    const decipher = createDecipheriv(ALGORITHM, key, iv, { authTagLength: TAG_BYTES });
    decipher.setAuthTag(tag);
    return Buffer.concat([decipher.update(ciphertext), decipher.final()]).toString("utf8");
  } catch {
    throw new AppError("INTERNAL", "encrypted field failed authentication (altered, or wrong key)");
  }
}

/** Lower-case hex HMAC-SHA256, the form used in `X-Relay-Signature: sha256=<hex>`. */
export function hmacSha256Hex(secret: string, data: string | Buffer): string {
  return createHmac("sha256", secret).update(data).digest("hex");
}

/**
 * Constant-time comparison of two hex digests (case-insensitive), so a signature check leaks
 * nothing about how many leading characters matched. Length or format mismatch is simply false,
 * and so are two empty strings: an empty digest is never a real signature.
 */
export function safeEqualHex(a: string, b: string): boolean {
  if (typeof a !== "string" || typeof b !== "string") return false;
  if (a.length === 0 || a.length !== b.length || a.length % 2 !== 0) return false;
  if (!/^[0-9a-fA-F]*$/.test(a) || !/^[0-9a-fA-F]*$/.test(b)) return false;
  return timingSafeEqual(Buffer.from(a, "hex"), Buffer.from(b, "hex"));
}
