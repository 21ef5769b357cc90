import { addDays, daysBetween } from "../calendar-date";

/**
 * How many days a relay point's closures add to a parcel's pick-up deadline (decision 0029). The
 * extension is recomputed from the parcel's base deadline (its deadline without closures) and the
 * closures that exist now, never added to what earlier closures gave: the same closure announced
 * twice adds nothing, and removing one takes back exactly what it added.
 */

type Span = { from: string; to: string };

/** Days of [from, to] (both included) that at least one span closes: overlapping spans count each day once. */
export function closedDaysBetween(spans: readonly Span[], from: string, to: string): number {
  const clipped = spans
    .map(s => ({ from: s.from > from ? s.from : from, to: s.to < to ? s.to : to }))
    .filter(s => s.from <= s.to)
    .sort((a, b) => (a.from < b.from ? -1 : a.from > b.from ? 1 : 0));
  let days = 0;
  let counted: string | null = null; // the last day already counted
  for (const span of clipped) {
    const start = counted !== null && span.from <= counted ? addDays(counted, 1) : span.from;
    if (start > span.to) continue;
    days += daysBetween(start, span.to) + 1;
    counted = span.to;
  }
  return days;
}

export interface HoldingWindow {
  /** The Algiers day the parcel reached the shelf: closed days before it took nothing from the recipient. */
  firstDay: string;
  /** The Algiers day of its base deadline (without closures). */
  baseLastDay: string;
  /** At most this many days in all: the parcel's holding period. */
  maxDays: number;
}

/**
 * The closed days inside the holding window, the window growing by what they add (a closure just
 * past the base deadline counts once the deadline reaches it), at most `maxDays`. The count only
 * grows with the window, so the loop stops within maxDays + 1 turns.
 */
export function closureExtensionDays(spans: readonly Span[], window: HoldingWindow): number {
  let days = 0;
  for (;;) {
    const closed = Math.min(window.maxDays, closedDaysBetween(spans, window.firstDay, addDays(window.baseLastDay, days)));
    if (closed === days) return days;
    days = closed;
  }
}

const DAY_MS = 86_400_000;

/**
 * The deadline once the closures give `days`: the base deadline plus those days. When that is
 * earlier than the deadline now (a closure removed), it never comes before tomorrow (now + 1 day):
 * the recipient keeps at least a day to come, and a deadline already sooner than that stays.
 */
export function deadlineWithClosures(at: { base: Date; days: number; current: Date; now: Date }): Date {
  const computed = at.base.getTime() + at.days * DAY_MS;
  if (computed >= at.current.getTime()) return new Date(computed);
  const floor = Math.min(at.current.getTime(), at.now.getTime() + DAY_MS);
  return new Date(Math.max(computed, floor));
}
