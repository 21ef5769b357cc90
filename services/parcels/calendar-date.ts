import { Joi } from "../../lib/joi";

/** Calendar days as the API takes them ("2026-03-14"), and the day arithmetic closures need. */

const DATE_PATTERN = /^\d{4}-\d{2}-\d{2}$/;
const DAY_MS = 86_400_000;

/** A calendar day that exists ("2026-02-30" does not). */
export function isCalendarDate(value: string): boolean {
  const at = new Date(`${value}T00:00:00Z`);
  return !Number.isNaN(at.getTime()) && at.toISOString().slice(0, 10) === value;
}

const day = () =>
  Joi.string()
    .pattern(DATE_PATTERN)
    .custom((value: string, helpers) => (isCalendarDate(value) ? value : helpers.error("date.base")))
    .messages({
      "string.pattern.base": "{{#label}} must be a date such as 2026-03-14",
      "date.base": "{{#label}} must be a day that exists"
    });

/** A YYYY-MM-DD day that exists, in a body; the caller adds required/default and its description. */
export const calendarDate = () => day().meta({ openapi: { description: "A day of the calendar." } });

/** The same as a query parameter, whose description is the parameter's own. */
export const calendarDay = () => day().meta({ openapi: { format: "date" } });

/** "2026-03-14" plus `days` (negative: before). */
export function addDays(day: string, days: number): string {
  return new Date(Date.parse(`${day}T00:00:00Z`) + days * DAY_MS).toISOString().slice(0, 10);
}

/** Days from `from` to `to` (0 for the same day). */
export function daysBetween(from: string, to: string): number {
  return Math.round((Date.parse(`${to}T00:00:00Z`) - Date.parse(`${from}T00:00:00Z`)) / DAY_MS);
}

/** Whether `day` falls in one of the spans, their first and last days included. */
export function isClosedOn(spans: readonly { from: string; to: string }[], day: string): boolean {
  return spans.some(c => c.from <= day && day <= c.to);
}

const UTC_WEEKDAYS = ["sun", "mon", "tue", "wed", "thu", "fri", "sat"] as const;

/** The weekday of a calendar day, as opening hours name it. */
export function weekdayOf(day: string): (typeof UTC_WEEKDAYS)[number] {
  return UTC_WEEKDAYS[new Date(`${day}T12:00:00Z`).getUTCDay()];
}
