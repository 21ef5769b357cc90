import wilayaList from "../resources/wilayas.json";
import type { LatLng } from "./geo";
import { Joi } from "./joi";
import type { Lang } from "./languages";

/**
 * Algeria's 69 wilayas (resources/wilayas.json, and resources/README.md for its sources): the one
 * place their numbers and names are read, by the relay directory and its searches, the tracking
 * pages, the counter app's answer, labels and manifests. Law 26-06 of 4 April 2026 created wilayas
 * 59 to 69, each carved from one older wilaya: a relay point there keeps its code and is still found
 * by a search for the older wilaya while merchants and their customers learn the new map (its
 * `formerWilaya`, decision 0048).
 */

/** An Algerian wilaya, named after its chef-lieu; the coordinates are the chef-lieu's. */
export interface Wilaya extends LatLng {
  /** Two digits, "01" to "69": the number on plates and in relay codes (DZ-16-…). */
  code: string;
  name: string;
  nameAr: string;
  /** Wilayas 59–69 (law 26-06, 2026): the wilaya whose territory they were part of. */
  carvedFrom?: string;
  /** Other spellings met in datasets and shop forms ("Aïn Oussera" for the decree's "Aïn Ouessara"). */
  aliases?: string[];
}

export const WILAYAS: readonly Wilaya[] = Object.freeze(wilayaList.map(w => Object.freeze({ ...w })));

const BY_CODE = new Map(WILAYAS.map(w => [w.code, w]));

/** The highest wilaya number, "69". */
export const LAST_WILAYA = WILAYAS[WILAYAS.length - 1].code;

export function findWilaya(code: string): Wilaya | undefined {
  return BY_CODE.get(code);
}

/** The wilaya's name in the reader's language (Arabic script for Arabic, the French name otherwise); null for an unknown code. */
export function wilayaName(code: string | null | undefined, lang: Lang): string | null {
  const wilaya = code ? BY_CODE.get(code) : undefined;
  if (!wilaya) return null;
  return lang === "ar" ? wilaya.nameAr : wilaya.name;
}

/**
 * The wilaya a place of `code` belonged to before law 26-06: its parent for wilayas 59–69, null
 * for any other. A relay point there carries it as `formerWilaya`, and a search for the parent
 * still finds it during the transition.
 */
export function formerWilayaOf(code: string | null): string | null {
  return code === null ? null : (BY_CODE.get(code)?.carvedFrom ?? null);
}

/** "1", "01" and " 16 " name wilayas 01 and 16; anything else is not a wilaya. */
export function normaliseWilayaCode(input: string): string | null {
  const trimmed = typeof input === "string" ? input.trim() : "";
  if (!/^\d{1,2}$/.test(trimmed)) return null;
  const code = trimmed.padStart(2, "0");
  return BY_CODE.has(code) ? code : null;
}

const WILAYA_NUMBER_PATTERN = "^\\s*(0?[1-9]|[1-5][0-9]|6[0-9])\\s*$";

/** A wilaya number in a query or a body, returned on two digits. */
export const wilayaCodeSchema = () =>
  Joi.string()
    .max(4)
    .custom((text: string, helpers) => normaliseWilayaCode(text) ?? helpers.error("wilaya.unknown"))
    .messages({ "wilaya.unknown": `{{#label}} must be a wilaya number, 01 to ${LAST_WILAYA}` })
    // Exactly the numbers normaliseWilayaCode takes (01 to 69, the zero optional), so the document and the server agree.
    .meta({ openapi: { pattern: WILAYA_NUMBER_PATTERN, examples: ["16", "68"] } });
