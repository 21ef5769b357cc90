import { Lang, LOCALE_OF } from "./languages";
import { TIME_ZONE } from "./opening-hours";

/**
 * Dates, times and amounts as people in Algeria read them: Algiers local time on a 24-hour
 * clock, Latin digits in every language (ar-DZ), dinars without centimes unless there are some.
 */

const dateTimeFormats = new Map<Lang, Intl.DateTimeFormat>();

function dateTimeFormat(lang: Lang): Intl.DateTimeFormat {
  let format = dateTimeFormats.get(lang);
  if (!format) {
    format = new Intl.DateTimeFormat(LOCALE_OF[lang], {
      timeZone: TIME_ZONE,
      day: "numeric",
      month: "long",
      year: "numeric",
      hour: "2-digit",
      minute: "2-digit",
      hourCycle: "h23"
    });
    dateTimeFormats.set(lang, format);
  }
  return format;
}

/** "2025-03-12T13:05:00Z" → "12 mars 2025 à 14:05" (fr), "12 مارس 2025 في 14:05" (ar). */
export function formatDateTime(isoInstant: string, lang: Lang): string {
  return dateTimeFormat(lang).format(new Date(isoInstant));
}

/** 1500 → "1 500 DA" (fr), "‏1.500 د.ج.‏" (ar), "DZD 1,500" (en); 1500.5 keeps its centimes. */
export function formatDzd(amount: number, lang: Lang): string {
  const whole = Number.isInteger(amount);
  return new Intl.NumberFormat(LOCALE_OF[lang], {
    style: "currency",
    currency: "DZD",
    minimumFractionDigits: whole ? 0 : 2,
    maximumFractionDigits: 2
  }).format(amount);
}
