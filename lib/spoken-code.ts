import { randomInt } from "node:crypto";

/**
 * Codes a person reads out or types at a counter (a customer's return code, a phone's pairing
 * code): 8 characters from an alphabet without look-alikes (no 0/O, 1/I/L), 31 symbols, so
 * 31^8 ≈ 8.5·10^11 codes, drawn with the CSPRNG. Shared by `parcels` (return codes) and `auth`
 * (pairing codes).
 */
export const SPOKEN_CODE_ALPHABET = "ABCDEFGHJKMNPQRSTUVWXYZ23456789";
export const SPOKEN_CODE_LENGTH = 8;
export const SPOKEN_CODE_PATTERN = /^[A-HJKMNP-Z2-9]{8}$/;

export function generateSpokenCode(): string {
  let code = "";
  for (let i = 0; i < SPOKEN_CODE_LENGTH; i++) code += SPOKEN_CODE_ALPHABET[randomInt(SPOKEN_CODE_ALPHABET.length)];
  return code;
}

/** A code as typed or scanned: spaces and dashes dropped, upper case. */
export function normaliseSpokenCode(typed: string): string {
  return typed.replace(/[\s-]+/g, "").toUpperCase();
}
