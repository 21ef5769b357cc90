import type { ArraySchema } from "joi";
import { Joi } from "./joi";
import { Lang, LOCALE_OF } from "./languages";

/**
 * Opening hours of a relay point, in Algiers local time: every weekday is present, with its
 * ranges in order (`[]` = closed all day), e.g. `"fri": []` or
 * `"sat": [{ "open": "08:30", "close": "12:30" }, { "open": "14:00", "close": "18:30" }]`.
 * `close` may be `24:00` for a shop open until midnight; ranges never span midnight.
 */
export const WEEKDAYS = ["mon", "tue", "wed", "thu", "fri", "sat", "sun"] as const;
export type Weekday = (typeof WEEKDAYS)[number];

export interface TimeRange {
  open: string;
  close: string;
}

export type OpeningHours = Record<Weekday, TimeRange[]>;

/** Shops in Algeria count the week from Saturday (Friday is the day of rest). */
export const DISPLAY_WEEK: readonly Weekday[] = Object.freeze(["sat", "sun", "mon", "tue", "wed", "thu", "fri"]);

export const MAX_RANGES_PER_DAY = 4;
export const TIME_ZONE = "Africa/Algiers";

const OPEN_TIME = /^(?:[01]\d|2[0-3]):[0-5]\d$/;
const CLOSE_TIME = /^(?:(?:[01]\d|2[0-3]):[0-5]\d|24:00)$/;

/** "08:30" → 510. */
export function minutesOf(time: string): number {
  return Number(time.slice(0, 2)) * 60 + Number(time.slice(3, 5));
}

function wellFormed(range: TimeRange): boolean {
  return OPEN_TIME.test(range.open) && CLOSE_TIME.test(range.close);
}

const rangeSchema = Joi.object<TimeRange, true>({
  open: Joi.string().pattern(OPEN_TIME).required().messages({ "string.pattern.base": "{{#label}} must be a time HH:MM, 00:00 to 23:59" }),
  close: Joi.string().pattern(CLOSE_TIME).required().messages({ "string.pattern.base": "{{#label}} must be a time HH:MM, 00:01 to 24:00" })
})
  .custom((range: TimeRange, helpers) =>
    !wellFormed(range) || minutesOf(range.open) < minutesOf(range.close) ? range : helpers.error("openingHours.closesBeforeOpening")
  )
  .messages({ "openingHours.closesBeforeOpening": "{{#label}} must close after it opens (ranges do not span midnight)" })
  .meta({ openapi: { description: "open is before close" } });

const daySchema = Joi.array()
  .items(rangeSchema)
  .max(MAX_RANGES_PER_DAY)
  .custom((ranges: TimeRange[], helpers) => {
    for (let i = 1; i < ranges.length; i++) {
      if (!wellFormed(ranges[i - 1]) || !wellFormed(ranges[i])) continue;
      if (minutesOf(ranges[i].open) < minutesOf(ranges[i - 1].close)) return helpers.error("openingHours.overlap");
    }
    return ranges;
  })
  .messages({ "openingHours.overlap": "{{#label}} must list its ranges in order, without overlap" })
  .meta({ openapi: { description: `[] when closed; at most ${MAX_RANGES_PER_DAY} ranges, in order, without overlap` } });

/** What the back-office sends for a relay point's `openingHours`: all seven days, each checked. */
export const openingHoursSchema = () =>
  Joi.object<OpeningHours, true>(Object.fromEntries(WEEKDAYS.map(day => [day, daySchema.required()])) as Record<Weekday, ArraySchema>);

export function isValidOpeningHours(value: unknown): value is OpeningHours {
  return openingHoursSchema().validate(value, { convert: false }).error === undefined;
}

const ALGIERS_CLOCK = new Intl.DateTimeFormat("en-US", {
  timeZone: TIME_ZONE,
  weekday: "short",
  hour: "2-digit",
  minute: "2-digit",
  hourCycle: "h23"
});

/** The weekday and minute of the day that a clock in Algiers shows at `instant`. */
export function algiersClock(instant: Date): { day: Weekday; minute: number } {
  const parts = Object.fromEntries(ALGIERS_CLOCK.formatToParts(instant).map(p => [p.type, p.value]));
  const day = String(parts.weekday).toLowerCase() as Weekday;
  return { day, minute: Number(parts.hour) * 60 + Number(parts.minute) };
}

export type OpeningStatus =
  { open: true; closesAt: string } | { open: false; opensAt: { day: Weekday; time: string; today: boolean } | null };

/** Open now, and until when; or closed, and when it opens next (null: never in the week). */
export function openingStatusAt(hours: OpeningHours, instant: Date): OpeningStatus {
  const { day, minute } = algiersClock(instant);
  const current = hours[day].find(r => minutesOf(r.open) <= minute && minute < minutesOf(r.close));
  if (current) return { open: true, closesAt: current.close };
  const later = hours[day].find(r => minutesOf(r.open) > minute);
  if (later) return { open: false, opensAt: { day, time: later.open, today: true } };
  const start = WEEKDAYS.indexOf(day);
  for (let step = 1; step <= 7; step++) {
    const next = WEEKDAYS[(start + step) % 7];
    if (hours[next].length > 0) return { open: false, opensAt: { day: next, time: hours[next][0].open, today: false } };
  }
  return { open: false, opensAt: null };
}

/** 2024-01-01 was a Monday: any Monday serves to ask Intl for weekday names. */
const A_MONDAY_UTC = Date.UTC(2024, 0, 1, 12);

export function weekdayName(day: Weekday, lang: Lang): string {
  const date = new Date(A_MONDAY_UTC + WEEKDAYS.indexOf(day) * 86_400_000);
  const name = new Intl.DateTimeFormat(LOCALE_OF[lang], { weekday: "long", timeZone: "UTC" }).format(date);
  return name.charAt(0).toLocaleUpperCase(LOCALE_OF[lang]) + name.slice(1);
}

const WORDING: Record<Lang, { closed: string; span: (first: string, last: string) => string; range: (r: TimeRange) => string }> = {
  fr: {
    closed: "Fermé",
    span: (a, b) => `Du ${a.toLocaleLowerCase("fr")} au ${b.toLocaleLowerCase("fr")}`,
    range: r => `${r.open}–${r.close}`
  },
  // Words rather than a dash: a dash between numbers reads in either direction in Arabic text.
  ar: { closed: "مغلق", span: (a, b) => `من ${a} إلى ${b}`, range: r => `من ${r.open} إلى ${r.close}` },
  en: { closed: "Closed", span: (a, b) => `${a} to ${b}`, range: r => `${r.open}–${r.close}` }
};

export interface OpeningHoursRow {
  /** "Du samedi au jeudi", "Vendredi". */
  days: string;
  /** One string per range, or the single word for closed. */
  ranges: string[];
  closed: boolean;
  includesToday: boolean;
  weekdays: Weekday[];
}

/**
 * The week as people read it on a door: from Saturday, consecutive days with the same hours
 * on one row. `today` (Algiers weekday) marks its row.
 */
export function formatOpeningHours(hours: OpeningHours, lang: Lang, today?: Weekday): OpeningHoursRow[] {
  const words = WORDING[lang];
  const groups: Weekday[][] = [];
  for (const day of DISPLAY_WEEK) {
    const last = groups[groups.length - 1];
    if (last && sameRanges(hours[last[0]], hours[day])) last.push(day);
    else groups.push([day]);
  }
  return groups.map(days => {
    const ranges = hours[days[0]];
    const first = weekdayName(days[0], lang);
    return {
      days: days.length === 1 ? first : words.span(first, weekdayName(days[days.length - 1], lang)),
      ranges: ranges.length === 0 ? [words.closed] : ranges.map(words.range),
      closed: ranges.length === 0,
      includesToday: today !== undefined && days.includes(today),
      weekdays: days
    };
  });
}

function sameRanges(a: TimeRange[], b: TimeRange[]): boolean {
  return a.length === b.length && a.every((r, i) => r.open === b[i].open && r.close === b[i].close);
}
