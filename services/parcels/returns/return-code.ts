/**
 * Return codes (issue 21): 8 characters a customer reads out at a counter (lib/spoken-code.ts),
 * unique among open returns (a unique index; a collision draws again).
 */
export {
  generateSpokenCode as generateReturnCode,
  normaliseSpokenCode as normaliseReturnCode,
  SPOKEN_CODE_PATTERN as RETURN_CODE_PATTERN
} from "../../../lib/spoken-code";
