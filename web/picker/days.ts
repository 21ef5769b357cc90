/** Calendar days in Algiers time, as the public search counts closures and opening hours. */

export interface TimeRange {
  open: string;
  close: string;
}
export type OpeningHours = Record<"sun" | "mon" | "tue" | "wed" | "thu" | "fri" | "sat", TimeRange[]>;
export const WEEKDAY_KEYS = ["sun", "mon", "tue", "wed", "thu", "fri", "sat"] as const;

/** YYYY-MM-DD of `now` in Algiers. */
export function algiersDay(now: Date): string {
  return new Intl.DateTimeFormat("en-CA", { timeZone: "Africa/Algiers", year: "numeric", month: "2-digit", day: "2-digit" }).format(now);
}

export function addDays(day: string, days: number): string {
  const date = new Date(`${day}T12:00:00Z`);
  date.setUTCDate(date.getUTCDate() + days);
  return date.toISOString().slice(0, 10);
}

export function weekdayIndex(day: string): number {
  return new Date(`${day}T12:00:00Z`).getUTCDay();
}

export const isDay = (value: string | null): value is string => !!value && /^\d{4}-\d{2}-\d{2}$/.test(value) && !isNaN(Date.parse(value));

export function isClosedOn(closures: readonly { from: string; to: string }[], day: string): boolean {
  return closures.some(c => c.from <= day && day <= c.to);
}

/** "3 déc." in the picker's language, Latin digits (as Algerian shops print them). */
export function shortDate(day: string, lang: string): string {
  return new Intl.DateTimeFormat(`${lang}-DZ-u-nu-latn`, { day: "numeric", month: "short", timeZone: "UTC" }).format(
    new Date(`${day}T12:00:00Z`)
  );
}

export function hoursText(ranges: readonly TimeRange[]): string {
  return ranges.map(r => `${r.open}–${r.close}`).join(", ");
}
