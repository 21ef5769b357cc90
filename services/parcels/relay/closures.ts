import type { Queryable } from "../../../lib/db/database";
import { AppError, FieldProblem } from "../../../lib/errors";
import { roundKm } from "../../../lib/geo";
import { algiersDate } from "../../../lib/cod";
import { positionOf, RelayPointEntry } from "../../../lib/relay-points";
import { OpeningHours, openingStatusAt } from "../../../lib/opening-hours";
import { addDays, daysBetween, isClosedOn } from "../calendar-date";
import { compareCodes, rankByDistance } from "../relay-search";
import * as closures from "./closures.store";
import { relayLookupsOf } from "./relay-lookups";

/**
 * Relay closures (issue 22): whole days in Algiers time during which a relay point takes no
 * parcel. The rules are here; the SQL in closures.store.ts, the actions in closures.mixin.ts and
 * what a new closure does to parcels already addressed to the point in closure-effects.ts.
 */

/** A closure as the partner search shows it: whole days, Algiers time, first and last included. */
export interface ClosureRef {
  from: string;
  to: string;
  reason: string | null;
}

/** A closure lasts at most this many days, its first and last included. */
export const MAX_CLOSURE_DAYS = 60;
/** A closure begins at most this many days after today: plans further ahead are announced later. */
export const MAX_CLOSURE_LEAD_DAYS = 60;
/** How many open relay points a RELAY_CLOSED refusal suggests. */
export const SUGGESTIONS = 3;

/** The calendar day in Algiers at `now`: closures are counted there. */
export const algiersToday = (now: Date): string => algiersDate(now);

/** Days closed, its first and last included. */
export const closureLength = (closure: { from: string; to: string }): number => daysBetween(closure.from, closure.to) + 1;

/** What is wrong with the days of a new closure, field by field (none: it may be stored). */
export function closureProblems(days: { from: string; to: string }, today: string): FieldProblem[] {
  if (days.to < days.from) return [{ field: "to", message: `to must be on or after from (${days.from})` }];
  if (closureLength(days) > MAX_CLOSURE_DAYS) {
    return [
      {
        field: "to",
        message: `a closure lasts at most ${MAX_CLOSURE_DAYS} days (from ${days.from}: to ${addDays(days.from, MAX_CLOSURE_DAYS - 1)} at the latest)`
      }
    ];
  }
  if (days.to < today) return [{ field: "to", message: `the closure is over: to must be today (${today}) or later` }];
  const latest = addDays(today, MAX_CLOSURE_LEAD_DAYS);
  if (days.from > latest) {
    return [{ field: "from", message: `a closure begins at most ${MAX_CLOSURE_LEAD_DAYS} days ahead: from must be ${latest} or earlier` }];
  }
  return [];
}

/** The days a new parcel must find its relay point open: today and the next `noticeDays`. */
export function noticeWindow(now: Date, noticeDays: number): { from: string; to: string } {
  const today = algiersToday(now);
  return { from: today, to: addDays(today, noticeDays) };
}

export interface ClosureCheckDeps {
  db: Queryable;
  /** CLOSURE_NOTICE_DAYS. */
  noticeDays: number;
}

/**
 * Up to SUGGESTIONS active points, other than `closed`, open all through `window`: nearest first
 * when `closed` has a position (points without one are left out), otherwise those of its wilaya by code.
 */
export async function nearestOpenRelays(
  db: Queryable,
  closed: RelayPointEntry,
  window: { from: string; to: string }
): Promise<{ entry: RelayPointEntry; distanceKm: number | null }[]> {
  const lookups = relayLookupsOf(db);
  const shut = await lookups.relayCodesClosedBetween(window.from, window.to);
  const candidates = (await lookups.relayPoints()).filter(p => p.active && p.code !== closed.code && !shut.has(p.code));
  const center = positionOf(closed);
  if (center) {
    return rankByDistance(candidates, center, Number.POSITIVE_INFINITY)
      .slice(0, SUGGESTIONS)
      .map(r => ({ entry: r.entry, distanceKm: roundKm(r.distanceKm) }));
  }
  return candidates
    .filter(p => closed.wilaya !== null && p.wilaya === closed.wilaya)
    .sort((a, b) => compareCodes(a.code, b.code))
    .slice(0, SUGGESTIONS)
    .map(entry => ({ entry, distanceKm: null }));
}

function suggestionOf(s: { entry: RelayPointEntry; distanceKm: number | null }): FieldProblem {
  const away = s.distanceKm === null ? "" : `, ${s.distanceKm} km away`;
  return {
    field: "destinationRelayCode",
    message: `open instead: ${s.entry.code} (${s.entry.name}, ${s.entry.city}${away})`,
    relayCode: s.entry.code,
    ...(s.distanceKm === null ? {} : { distanceKm: s.distanceKm })
  };
}

/**
 * The one check every new parcel's destination goes through (create, quote, batch items, and a
 * redirect's new relay point): a point closed today or within the next `noticeDays` days is
 * refused with 409 RELAY_CLOSED, whose details name up to three nearest open points by code.
 * Nothing is written: call it before any debit. An unknown point is left to the caller's own
 * check (RELAY_NOT_FOUND). Reads the in-memory directory when the service attached one to `db`
 * (relay-lookups.ts): no query on the create path.
 */
export async function assertRelayOpenForNewParcels(deps: ClosureCheckDeps, code: string, now: Date = new Date()): Promise<void> {
  const window = noticeWindow(now, deps.noticeDays);
  const lookups = relayLookupsOf(deps.db);
  const [closure] = await lookups.closuresMeeting(code, window.from, window.to);
  if (!closure) return;
  const relay = await lookups.relayPoint(code);
  if (!relay) return;
  const suggestions = await nearestOpenRelays(deps.db, relay, window);
  const when = closure.from <= window.from ? "is closed" : "closes";
  throw new AppError(
    "RELAY_CLOSED",
    `Relay point ${code} ${when} from ${closure.from} to ${closure.to}${closure.reason ? ` (${closure.reason})` : ""}: ` +
      "send the parcel to an open relay point" +
      (suggestions.length > 0 ? ` such as ${suggestions.map(s => s.entry.code).join(", ")} (see details)` : ""),
    { details: suggestions.map(suggestionOf) }
  );
}

/** What the partner search adds to each point: its current and future closures, and whether it is open at this moment. */
export interface ClosureStatus {
  closures: ClosureRef[];
  openNow: boolean;
}

/**
 * Open now: no closure today and, when its opening hours are known, within one of today's ranges
 * (a point without opening hours counts as open outside closures).
 */
export function closureStatusOf(point: { openingHours: OpeningHours | null }, current: readonly ClosureRef[], now: Date): ClosureStatus {
  const closedToday = isClosedOn(current, algiersToday(now));
  const inHours = point.openingHours === null || openingStatusAt(point.openingHours, now).open;
  return { closures: current.map(c => ({ from: c.from, to: c.to, reason: c.reason })), openNow: !closedToday && inHours };
}

/** The search's points, each with its ClosureStatus (one query for the page). */
export async function withClosureStatus<T extends { code: string; openingHours: OpeningHours | null }>(
  db: Queryable,
  points: T[],
  now: Date = new Date()
): Promise<(T & ClosureStatus)[]> {
  const byCode = await closures.closuresOf(
    db,
    points.map(p => p.code),
    algiersToday(now)
  );
  return points.map(point => ({ ...point, ...closureStatusOf(point, byCode.get(point.code) ?? [], now) }));
}
