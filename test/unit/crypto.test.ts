import { createHmac, randomBytes } from "node:crypto";
import { decryptField, encryptField, hmacSha256Hex, safeEqualHex } from "../../lib/crypto";

const KEY = randomBytes(32).toString("hex");
const OTHER_KEY = randomBytes(32).toString("hex");

/** Flips one bit of one base64url part of an encoded value. */
function tamper(encoded: string, partIndex: number): string {
  const parts = encoded.split(":");
  const bytes = Buffer.from(parts[partIndex], "base64url");
  bytes[0] ^= 0x01;
  parts[partIndex] = bytes.toString("base64url");
  return parts.join(":");
}

describe("encryptField / decryptField", () => {
  it("round-trips text, including non-ASCII and empty strings", () => {
    for (const plain of ["Amina Benali", "+213 555 12 34 56", "محمد بن علي", ""]) {
      expect(decryptField(encryptField(plain, KEY), KEY)).toBe(plain);
    }
  });

  it("produces the compact v1 format with a 12-byte IV and a 16-byte tag", () => {
    const encoded = encryptField("Amina Benali", KEY);
    expect(encoded).toMatch(/^v1:[A-Za-z0-9_-]+:[A-Za-z0-9_-]+:[A-Za-z0-9_-]*$/);
    const [, iv, tag] = encoded.split(":");
    expect(Buffer.from(iv, "base64url")).toHaveLength(12);
    expect(Buffer.from(tag, "base64url")).toHaveLength(16);
    expect(encoded).not.toContain("Amina");
  });

  it("uses a fresh IV each time", () => {
    const a = encryptField("same text", KEY);
    const b = encryptField("same text", KEY);
    expect(a).not.toBe(b);
    expect(a.split(":")[1]).not.toBe(b.split(":")[1]);
  });

  it("never reuses an IV across refills of the IV pool, and each value still opens", () => {
    // 256 IVs per pool: a thousand fields take it through three refills.
    const encoded = Array.from({ length: 1000 }, (_, i) => encryptField(`name ${i}`, KEY));
    expect(new Set(encoded.map(e => e.split(":")[1])).size).toBe(1000);
    encoded.forEach((e, i) => expect(decryptField(e, KEY)).toBe(`name ${i}`));
  });

  it("keeps two keys apart once both are in use", () => {
    const a = encryptField("Amina", KEY);
    const b = encryptField("Amina", OTHER_KEY);
    expect(decryptField(a, KEY)).toBe("Amina");
    expect(decryptField(b, OTHER_KEY)).toBe("Amina");
    expect(() => decryptField(a, OTHER_KEY)).toThrow(/failed authentication/);
  });

  it("rejects altered ciphertext, tag or IV", () => {
    const encoded = encryptField("Amina Benali", KEY);
    expect(() => decryptField(tamper(encoded, 3), KEY)).toThrow(/authentication/);
    expect(() => decryptField(tamper(encoded, 2), KEY)).toThrow(/authentication/);
    expect(() => decryptField(tamper(encoded, 1), KEY)).toThrow(/authentication/);
  });

  it("rejects a value sealed with another key", () => {
    expect(() => decryptField(encryptField("Amina Benali", KEY), OTHER_KEY)).toThrow(/authentication/);
  });

  it("rejects malformed values", () => {
    const encoded = encryptField("x", KEY);
    expect(() => decryptField("not encrypted", KEY)).toThrow(/format/);
    expect(() => decryptField(encoded.replace(/^v1/, "v2"), KEY)).toThrow(/format/);
    expect(() => decryptField(encoded + ":extra", KEY)).toThrow(/format/);
    // A truncated tag must not be accepted (it would weaken authentication).
    const [v, iv, tag, ct] = encoded.split(":");
    const shortTag = Buffer.from(tag, "base64url").subarray(0, 8).toString("base64url");
    expect(() => decryptField([v, iv, shortTag, ct].join(":"), KEY)).toThrow(/format/);
  });

  it("requires a 64-hex-character key and does not echo it", () => {
    for (const bad of ["", "abc", KEY.slice(0, 62), KEY + "00", "z".repeat(64)]) {
      expect(() => encryptField("x", bad)).toThrow(/64 hexadecimal/);
      expect(() => decryptField("v1:a:b:c", bad)).toThrow(/64 hexadecimal/);
    }
    try {
      encryptField("x", "g" + KEY.slice(1));
    } catch (e) {
      expect((e as Error).message).not.toContain(KEY.slice(1, 20));
    }
    expect(decryptField(encryptField("x", KEY.toUpperCase()), KEY)).toBe("x");
  });
});

describe("hmacSha256Hex", () => {
  it("matches the RFC 4231 test case 2", () => {
    expect(hmacSha256Hex("Jefe", "what do ya want for nothing?")).toBe("5bdcc146bf60754e6a042426089575c75a003f089d2739839dec58b964ec3843");
  });

  it("gives the same digest for a string and its Buffer", () => {
    const body = JSON.stringify({ type: "parcel.delivered" });
    expect(hmacSha256Hex("s3cret", Buffer.from(body))).toBe(hmacSha256Hex("s3cret", body));
    expect(hmacSha256Hex("s3cret", body)).toBe(createHmac("sha256", "s3cret").update(body).digest("hex"));
    expect(hmacSha256Hex("other", body)).not.toBe(hmacSha256Hex("s3cret", body));
  });
});

describe("safeEqualHex", () => {
  const digest = hmacSha256Hex("k", "body");

  it("is true for equal digests, in either case", () => {
    expect(safeEqualHex(digest, digest)).toBe(true);
    expect(safeEqualHex(digest, digest.toUpperCase())).toBe(true);
  });

  it("is false for different, shorter, longer, empty or non-hex input", () => {
    const flipped = (digest[0] === "0" ? "1" : "0") + digest.slice(1);
    expect(safeEqualHex(digest, flipped)).toBe(false);
    expect(safeEqualHex(digest, digest.slice(0, -2))).toBe(false);
    expect(safeEqualHex(digest, digest + "00")).toBe(false);
    expect(safeEqualHex("", "")).toBe(false);
    expect(safeEqualHex("zz", "zz")).toBe(false);
    expect(safeEqualHex("abc", "abc")).toBe(false);
  });
});
