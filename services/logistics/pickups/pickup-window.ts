import { AppError } from "../../../lib/errors";
import { TIME_ZONE } from "../../../lib/opening-hours";

/** The pickup rules an operator sets (lib/config.ts `pickups`). */
export interface PickupRules {
  minWindowHours: number;
  /** HH:MM, Africa/Algiers: a pickup for today is taken until then. */
  sameDayCutoff: string;
  onFriday: boolean;
  cancelBeforeHours: number;
}

const HOUR_MS = 3_600_000;

const localParts = new Intl.DateTimeFormat("en-GB", {
  timeZone: TIME_ZONE,
  year: "numeric",
  month: "2-digit",
  day: "2-digit",
  hour: "2-digit",
  minute: "2-digit",
  weekday: "short",
  hourCycle: "h23"
});

/** An instant as Algiers reads it: its day (YYYY-MM-DD), its time (HH:MM) and its weekday. */
export function algiersClock(at: Date): { day: string; time: string; weekday: string } {
  const parts = Object.fromEntries(localParts.formatToParts(at).map(p => [p.type, p.value]));
  return { day: `${parts.year}-${parts.month}-${parts.day}`, time: `${parts.hour}:${parts.minute}`, weekday: parts.weekday };
}

function refuse(field: string, message: string): AppError {
  return new AppError("PICKUP_WINDOW_INVALID", `The pickup window is not possible: ${message}`, { details: [{ field, message }] });
}

/**
 * Checks a requested window (DHL-style rules, research/first-mile.md: at least 2 hours, same-day
 * requests until 15:00) and gives the latest time it may be cancelled. The window is confirmed as
 * asked: the network has no capacity planning yet, so it never moves a window.
 */
export function checkWindow(rules: PickupRules, readyAt: Date, closeAt: Date, now: Date): { cancelBy: Date } {
  if (closeAt.getTime() - readyAt.getTime() < rules.minWindowHours * HOUR_MS) {
    throw refuse("closeAt", `must be at least ${rules.minWindowHours} hours after readyAt`);
  }
  if (closeAt.getTime() <= now.getTime()) throw refuse("closeAt", "must be in the future");
  const ready = algiersClock(readyAt);
  const today = algiersClock(now);
  if (ready.day < today.day) throw refuse("readyAt", "must be today or later");
  if (algiersClock(closeAt).day !== ready.day) throw refuse("closeAt", "must be on the same day as readyAt (Algiers time)");
  if (ready.day === today.day && today.time >= rules.sameDayCutoff) {
    throw refuse("readyAt", `a pickup for today is taken until ${rules.sameDayCutoff} (Algiers time): ask for another day`);
  }
  if (ready.weekday === "Fri" && !rules.onFriday) throw refuse("readyAt", "Friday is not a pickup day");
  const cancelBy = new Date(Math.max(now.getTime(), readyAt.getTime() - rules.cancelBeforeHours * HOUR_MS));
  return { cancelBy };
}
