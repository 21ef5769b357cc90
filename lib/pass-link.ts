import { createHmac, timingSafeEqual } from "node:crypto";
import { s10CheckDigit } from "./s10";

/**
 * The SMS link to the page with the recipient's pickup pass (issue 43, decision 0047):
 * `/t/{token}`, as long as the plain `/t/{tracking number}` it replaces in the pick-up SMS, so
 * that the relay point's name keeps its room in one segment. The 13 base62 characters hold the
 * parcel's serial (27 bits: the gateway finds the parcel without a secret) and 50 bits of an HMAC
 * under ENCRYPTION_KEY (parcels checks them): the tracking number alone, printed on the label, never
 * opens the pass, and guessing a token is out of reach at the public pages' rate limit. Numbers of
 * the generator's shape only (`RP` + 8 digits + check digit + `DZ`); another has no such link.
 */

const ALPHABET = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz";
export const PASS_LINK_TOKEN_LENGTH = 13;
const MAC_BITS = 50n;
const NUMBER_SHAPE = /^RP(\d{8})\dDZ$/;
const TOKEN_SHAPE = /^[0-9A-Za-z]{13}$/;

function macOf(trackingNumber: string, secret: string): bigint {
  const digest = createHmac("sha256", secret).update(`pickup-pass-link:${trackingNumber}`).digest();
  return BigInt(`0x${digest.subarray(0, 8).toString("hex")}`) >> (64n - MAC_BITS);
}

function toBase62(value: bigint): string {
  let out = "";
  for (let i = 0; i < PASS_LINK_TOKEN_LENGTH; i++) {
    out = ALPHABET[Number(value % 62n)] + out;
    value /= 62n;
  }
  return out;
}

function fromBase62(token: string): bigint {
  let value = 0n;
  for (const char of token) value = value * 62n + BigInt(ALPHABET.indexOf(char));
  return value;
}

/** The parcel's link token, or null for a number not of the generator's shape. */
export function passLinkToken(trackingNumber: string, secret: string): string | null {
  const serial = NUMBER_SHAPE.exec(trackingNumber)?.[1];
  if (serial === undefined) return null;
  return toBase62((BigInt(serial) << MAC_BITS) | macOf(trackingNumber, secret));
}

/** The tracking number a token names (no secret needed), or null for text that is no token. */
export function trackingNumberOfToken(token: string): string | null {
  if (!TOKEN_SHAPE.test(token)) return null;
  const serial = fromBase62(token) >> MAC_BITS;
  if (serial >= 100_000_000n) return null;
  const digits = serial.toString().padStart(8, "0");
  return `RP${digits}${s10CheckDigit(digits)}DZ`;
}

/** Whether `token` is the link token of this parcel; in constant time. */
export function isPassLinkToken(trackingNumber: string, token: string, secret: string): boolean {
  const expected = passLinkToken(trackingNumber, secret);
  if (expected === null || token.length !== expected.length) return false;
  return timingSafeEqual(Buffer.from(token), Buffer.from(expected));
}
