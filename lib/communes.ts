import communeList from "../resources/communes.json";
import { Joi } from "./joi";
import type { Lang } from "./languages";

/**
 * Algeria's 1,541 communes (resources/communes.json; resources/README.md for its sources), each in
 * its wilaya as law 26-06 (2026) draws the map. A commune is named by its ONS code (four digits,
 * "2820" for Bou Saâda): names repeat from one wilaya to another (there are three Larbaa, two
 * Ouled Brahim), codes do not. A relay point's commune decides its wilaya.
 */

export interface Commune {
  /** The ONS geographic code, on four digits; communes of the 2026 wilayas keep their 2021 code (their parent's prefix). */
  code: string;
  name: string;
  nameAr: string;
  /** Two digits, "01" to "69". */
  wilaya: string;
  /** Algérie Poste's code; null for the few communes with no code we could vouch for. */
  postalCode: string | null;
  /** Other spellings, Latin or Arabic, that people and datasets use. */
  aliases?: string[];
}

export const COMMUNES: readonly Commune[] = Object.freeze(communeList.map(c => Object.freeze({ ...c })));

const BY_CODE = new Map(COMMUNES.map(c => [c.code, c]));

export function findCommune(code: string): Commune | undefined {
  return BY_CODE.get(code);
}

/** The communes of a wilaya, by code. */
export function communesOf(wilaya: string): Commune[] {
  return COMMUNES.filter(c => c.wilaya === wilaya);
}

/** The commune's name in the reader's language (Arabic script for Arabic, the French name otherwise); null for an unknown code. */
export function communeName(code: string | null | undefined, lang: Lang): string | null {
  const commune = code ? BY_CODE.get(code) : undefined;
  if (!commune) return null;
  return lang === "ar" ? commune.nameAr : commune.name;
}

export const COMMUNE_CODE_PATTERN = "^[0-9]{4}$";

/** A commune's ONS code in a query or a body: four digits naming one of the communes. */
export const communeCodeSchema = () =>
  Joi.string()
    .custom((text: string, helpers) => (/^[0-9]{4}$/.test(text) && BY_CODE.has(text) ? text : helpers.error("commune.unknown")))
    .messages({ "commune.unknown": "{{#label}} must be the four-digit ONS code of a commune (2820 for Bou Saâda)" })
    .meta({ openapi: { pattern: COMMUNE_CODE_PATTERN, examples: ["2820"] } });
