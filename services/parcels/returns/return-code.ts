import { randomInt } from "node:crypto";

/**
 * Return codes (issue 21): 8 characters a customer reads out at a counter, from an alphabet without
 * look-alikes (no 0/O, 1/I/L): 31 symbols, so 31^8 ≈ 8.5·10^11 codes, drawn with the CSPRNG.
 * Unique among open returns (a unique index; a collision draws again).
 */
export const RETURN_CODE_ALPHABET = "ABCDEFGHJKMNPQRSTUVWXYZ23456789";
export const RETURN_CODE_LENGTH = 8;
export const RETURN_CODE_PATTERN = /^[A-HJKMNP-Z2-9]{8}$/;

export function generateReturnCode(): string {
  let code = "";
  for (let i = 0; i < RETURN_CODE_LENGTH; i++) code += RETURN_CODE_ALPHABET[randomInt(RETURN_CODE_ALPHABET.length)];
  return code;
}

/** A code as typed at a counter: spaces and dashes dropped, upper case. */
export function normaliseReturnCode(typed: string): string {
  return typed.replace(/[\s-]+/g, "").toUpperCase();
}
