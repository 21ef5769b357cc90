import { Joi } from "../../lib/joi";
import wilayaList from "../../resources/wilayas.json";
import type { LatLng } from "../../lib/geo";

/** An Algerian wilaya, named after its chef-lieu; the coordinates are the chef-lieu's. */
export interface Wilaya extends LatLng {
  /** Two digits, "01" to "58": the number on plates and in relay codes (DZ-16-…). */
  code: string;
  name: string;
  nameAr: string;
}

export const WILAYAS: readonly Wilaya[] = Object.freeze(wilayaList.map(w => Object.freeze({ ...w })));

const BY_CODE = new Map(WILAYAS.map(w => [w.code, w]));

export function findWilaya(code: string): Wilaya | undefined {
  return BY_CODE.get(code);
}

/** "1", "01" and " 16 " name wilayas 01 and 16; anything else is not a wilaya. */
export function normaliseWilayaCode(input: string): string | null {
  const trimmed = typeof input === "string" ? input.trim() : "";
  if (!/^\d{1,2}$/.test(trimmed)) return null;
  const code = trimmed.padStart(2, "0");
  return BY_CODE.has(code) ? code : null;
}

const WILAYA_NUMBER_PATTERN = "^\\s*(0?[1-9]|[1-4][0-9]|5[0-8])\\s*$";

/** A wilaya number in a query or a body, returned on two digits. */
export const wilayaCodeSchema = () =>
  Joi.string()
    .max(4)
    .custom((text: string, helpers) => normaliseWilayaCode(text) ?? helpers.error("wilaya.unknown"))
    .messages({ "wilaya.unknown": `{{#label}} must be a wilaya number, 01 to ${WILAYAS[WILAYAS.length - 1].code}` })
    // Exactly the numbers normaliseWilayaCode takes (01 to 58, the zero optional), so the document and the server agree.
    .meta({ openapi: { pattern: WILAYA_NUMBER_PATTERN, examples: ["16"] } });
