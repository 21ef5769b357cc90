import Negotiator from "negotiator";

/**
 * The languages we speak to recipients and merchants: French first (the default), Arabic
 * (right to left) and English.
 */
export const LANGUAGES = ["fr", "ar", "en"] as const;
export type Lang = (typeof LANGUAGES)[number];
export const DEFAULT_LANG: Lang = "fr";

/**
 * Intl locales. The Algerian variants give what people here read: Latin digits in Arabic
 * (ar-DZ uses them, unlike ar-EG), "DA" after French amounts, and 24-hour times.
 */
export const LOCALE_OF: Readonly<Record<Lang, string>> = Object.freeze({ fr: "fr-DZ", ar: "ar-DZ", en: "en-GB" });

export const DIRECTION_OF: Readonly<Record<Lang, "ltr" | "rtl">> = Object.freeze({ fr: "ltr", ar: "rtl", en: "ltr" });

export function isLang(x: unknown): x is Lang {
  return typeof x === "string" && (LANGUAGES as readonly string[]).includes(x);
}

export interface LanguageRequest {
  /** The `lang` query parameter, when the person picked a language with the switcher. */
  queryLang?: string | readonly string[] | null;
  acceptLanguage?: string | readonly string[] | null;
}

/**
 * `?lang=` wins when it names one of our languages, then `Accept-Language` with its q-values
 * (any regional variant counts: `ar-DZ` is Arabic), then French.
 */
export function negotiateLanguage({ queryLang, acceptLanguage }: LanguageRequest): Lang {
  const picked = (typeof queryLang === "string" ? queryLang : queryLang?.[0])?.trim().toLowerCase();
  if (isLang(picked)) return picked;
  const header = typeof acceptLanguage === "string" ? acceptLanguage : acceptLanguage?.join(",");
  if (!header) return DEFAULT_LANG;
  const best = new Negotiator({ headers: { "accept-language": header } }).language([...LANGUAGES]);
  return isLang(best) ? best : DEFAULT_LANG;
}
