/**
 * The apps' languages: French first, Arabic right to left, English. Each app keeps its own
 * catalogues (the counter app's in web/counter/i18n/) and makes its translator with `createI18n`;
 * what they share is how a language is chosen and kept, how the page follows it, and how values,
 * amounts and times are written in each.
 */
export type Language = "fr" | "ar" | "en";
export const LANGUAGES: readonly Language[] = ["fr", "ar", "en"];
export const LANGUAGE_NAMES: Record<Language, string> = { fr: "Français", ar: "العربية", en: "English" };

export interface I18nOptions<K extends string> {
  /** Where the user's choice is kept (localStorage), one key per app. */
  storageKey: string;
  /** The message that is the page's title. */
  titleKey: K;
}

export function createI18n<K extends string>(messages: Record<Language, Record<K, string>>, options: I18nOptions<K>) {
  /** The user's choice, else the phone's language when we have it, else French. */
  function initialLanguage(): Language {
    const saved = localStorage.getItem(options.storageKey);
    if (saved && (LANGUAGES as readonly string[]).includes(saved)) return saved as Language;
    const phone = navigator.language.slice(0, 2);
    return (LANGUAGES as readonly string[]).includes(phone) ? (phone as Language) : "fr";
  }

  let current: Language = initialLanguage();

  function language(): Language {
    return current;
  }

  function setLanguage(next: Language): void {
    current = next;
    localStorage.setItem(options.storageKey, next);
    applyDocumentLanguage();
  }

  function applyDocumentLanguage(): void {
    document.documentElement.lang = current;
    document.documentElement.dir = current === "ar" ? "rtl" : "ltr";
    document.title = messages[current][options.titleKey];
  }

  /**
   * A message with its values. In Arabic each value is isolated so that it keeps its own order and
   * the punctuation stays on the right side of it: numbers, amounts ("1 500", whose space would
   * otherwise swap its groups) and codes left to right (U+2066 … U+2069), any other text by its
   * own first letter (U+2068 … U+2069).
   */
  function t(key: K, vars: Record<string, string | number> = {}): string {
    const isolate =
      current === "ar"
        ? (value: string) => (/^[\w\s.,:/+-]*$/.test(value) ? `\u2066${value}\u2069` : `\u2068${value}\u2069`)
        : (value: string) => value;
    return messages[current][key].replace(/\{(\w+)\}/g, (_, name: string) => isolate(String(vars[name] ?? "")));
  }

  /**
   * Amounts with Western digits in every language (Arabic included), grouped by thousands. Whole
   * dinars: what rounds to none is 0, never "-0" (a till whose count matches showed "Écart -0 DA").
   */
  function amount(value: number): string {
    return (
      new Intl.NumberFormat("fr-FR", { maximumFractionDigits: 0, numberingSystem: "latn" } as Intl.NumberFormatOptions)
        .format(Math.abs(value) < 0.5 ? 0 : value)
        // A plain space elsewhere; in Arabic U+202F, whose bidi class (CS) keeps "1 500" one number
        // run: with a space, right-to-left text shows its groups swapped ("500 1").
        .replace(/\u202f|\u00a0/g, current === "ar" ? "\u202f" : " ")
    );
  }

  return { language, setLanguage, applyDocumentLanguage, t, amount };
}

/** A time of day, Western digits, in the phone's time zone. */
export function clock(date: Date): string {
  return `${String(date.getHours()).padStart(2, "0")}:${String(date.getMinutes()).padStart(2, "0")}`;
}
