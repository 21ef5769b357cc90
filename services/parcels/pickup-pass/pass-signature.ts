import { createPrivateKey, createPublicKey, KeyObject, sign, verify } from "node:crypto";

/**
 * The pickup pass (issue 43, decision 0047): what the recipient's tracking page shows as a QR and
 * the counter app checks without the network. It is the parcel's number, the pass's version and
 * the server's Ed25519 signature over them and the relay point that holds the parcel: the device
 * holds only the public key, so there is nothing on it to attack, and a new version (a new PIN, a
 * redirect) voids every earlier pass. Pure: no database, no configuration beyond the key given.
 *
 * The text is upper case, digits and dots only, so that it fits a QR's alphanumeric mode and
 * survives a keyboard-wedge scanner and a field that capitalises what it is typed:
 * `RP1.<tracking number>.<version>.<signature, base32>`.
 */

export const PASS_PREFIX = "RP1";
const PASS_SHAPE = /^RP1\.([A-Z]{2}[0-9]{9}[A-Z]{2})\.([0-9]{1,9})\.([A-Z2-7]{103})$/;
/** Ed25519 private keys as PKCS#8 DER: this fixed header, then the 32-byte seed (RFC 8410). */
const PKCS8_ED25519_PREFIX = Buffer.from("302e020100300506032b657004220420", "hex");
const BASE32 = "ABCDEFGHIJKLMNOPQRSTUVWXYZ234567";

export interface PickupPass {
  trackingNumber: string;
  version: number;
  signature: Buffer;
}

/** What is signed: the parcel, the relay point it waits at, and the pass's version. */
export function passMessage(trackingNumber: string, relayCode: string, version: number): Buffer {
  return Buffer.from(`relay-parcels pickup pass 1\n${trackingNumber}\n${relayCode}\n${version}`, "utf8");
}

export function toBase32(bytes: Uint8Array): string {
  let bits = 0;
  let value = 0;
  let out = "";
  for (const byte of bytes) {
    value = (value << 8) | byte;
    bits += 8;
    while (bits >= 5) {
      out += BASE32[(value >>> (bits - 5)) & 31];
      bits -= 5;
    }
  }
  if (bits > 0) out += BASE32[(value << (5 - bits)) & 31];
  return out;
}

export function fromBase32(text: string): Buffer {
  let bits = 0;
  let value = 0;
  const out: number[] = [];
  for (const char of text) {
    value = (value << 5) | BASE32.indexOf(char);
    bits += 5;
    if (bits >= 8) {
      out.push((value >>> (bits - 8)) & 255);
      bits -= 8;
    }
  }
  return Buffer.from(out);
}

/** The signing key from PICKUP_PASS_SIGNING_KEY: the hex of a 32-byte Ed25519 seed. */
export function passSigningKey(seedHex: string): KeyObject {
  return createPrivateKey({ key: Buffer.concat([PKCS8_ED25519_PREFIX, Buffer.from(seedHex, "hex")]), format: "der", type: "pkcs8" });
}

/** The public key the counter app verifies with: its 32 raw bytes, base64 (what WebCrypto's "raw" import takes). */
export function passPublicKey(signingKey: KeyObject): string {
  const spki = createPublicKey(signingKey).export({ format: "der", type: "spki" });
  return spki.subarray(spki.length - 32).toString("base64");
}

export function signPass(signingKey: KeyObject, trackingNumber: string, relayCode: string, version: number): string {
  const signature = sign(null, passMessage(trackingNumber, relayCode, version), signingKey);
  return `${PASS_PREFIX}.${trackingNumber}.${version}.${toBase32(signature)}`;
}

/** The pass a text holds, or null for any other text (a tracking number, a typo). */
export function parsePass(text: string): PickupPass | null {
  const match = PASS_SHAPE.exec(text.trim().toUpperCase());
  if (!match) return null;
  return { trackingNumber: match[1], version: Number(match[2]), signature: fromBase32(match[3]) };
}

/** True when the signature is the server's over this parcel, this relay point and this version. */
export function isSignedPass(signingKey: KeyObject, pass: PickupPass, relayCode: string): boolean {
  return verify(null, passMessage(pass.trackingNumber, relayCode, pass.version), createPublicKey(signingKey), pass.signature);
}
