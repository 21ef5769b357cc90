import type { FieldProblem } from "../../lib/errors";
import { Joi } from "../../lib/joi";
import { BoundingBox, boundingBox, DEFAULT_RADIUS_KM, distanceKm, LatLng, nearSchema, radiusKmSchema, roundKm } from "../../lib/geo";
import type { OpeningHours, Weekday } from "../../lib/opening-hours";
import { positionOf, RelayPointEntry } from "../../lib/relay-points";
import { queryInteger } from "../../lib/schemas";
import { calendarDay, isClosedOn, weekdayOf } from "./calendar-date";
import { foldSearchText } from "./search-text";
import { communeCodeSchema, findCommune } from "../../lib/communes";
import { wilayaCodeSchema } from "../../lib/wilayas";

/**
 * The relay-point search of the partner API (query wilaya, commune, city, q, near=LAT,LNG, radiusKm, openOn, page, size):
 * only active points (with openOn, only those open that day); with `near`, those within `radiusKm` (default 20), nearest first, with
 * `distanceKm`; otherwise by code. A wilaya finds its points and, during the transition of law 26-06, the points of the wilayas
 * carved from it in 2026 (their `formerWilaya`). `searchRelayPoints` is the reference: the SQL of the store
 * must answer the same (test/integration/relay-points-directory.test.ts compares them).
 */

export interface RelayPointSearchQuery {
  wilaya?: string;
  commune?: string;
  city?: string;
  q?: string;
  near?: LatLng;
  radiusKm?: number;
  /** YYYY-MM-DD: only points open that day (no closure, and opening hours for its weekday when known). */
  openOn?: string;
  page: number;
  size: number;
}

/** Free text is folded before it is compared (search-text.ts): spaces and case do not matter. */
const text = (max: number) => Joi.string().min(1).max(max).empty("");

export const RelayPointSearchSchema = Joi.object<RelayPointSearchQuery, true>({
  wilaya: wilayaCodeSchema()
    .empty("")
    .description(
      "Wilaya number, 1 to 69 (one or two digits). The points of the wilayas created in 2026 are also found by the wilaya they were " +
        "carved from (28 finds Bou Saâda's, now 68), with that wilaya in formerWilaya."
    ),
  commune: communeCodeSchema().empty("").description("The commune's ONS code, four digits (2820 for Bou Saâda)."),
  city: text(100).description("City, in Latin or Arabic script; accents, case, spaces and punctuation do not matter.").example("Oran"),
  q: text(100).description("Text found in the code, name, city or address of the point (in Latin or Arabic script).").example("didouche"),
  near: nearSchema()
    .empty("")
    .description("LAT,LNG in decimal degrees: only points within radiusKm, nearest first, each with its distanceKm."),
  radiusKm: radiusKmSchema()
    .empty("")
    .description(`Only with near: the search radius in km, more than 0 and at most 500 (${DEFAULT_RADIUS_KM} when omitted).`)
    .example(5),
  openOn: calendarDay()
    .empty("")
    .description(
      "YYYY-MM-DD (Algiers time): only points open that day, neither closed (see closures) nor shut that weekday by their opening hours."
    )
    .example("2026-12-03"),
  page: queryInteger().min(0).max(10_000).default(0).description("Zero-based page number, at most 10000."),
  size: queryInteger().min(1).max(100).default(20).description("Page size, 1 to 100.")
});

/**
 * What Joi cannot say of one parameter: a radius means nothing without a position, and is
 * refused on its own field rather than ignored (a merchant who sent it expected it to count).
 */
export function relaySearchProblems(query: Pick<RelayPointSearchQuery, "near" | "radiusKm">): FieldProblem[] {
  return query.radiusKm !== undefined && query.near === undefined ? [{ field: "radiusKm", message: "radiusKm needs near=LAT,LNG" }] : [];
}

export interface RelayPointSearchPlan {
  /** Matches a point's wilaya or its former wilaya. */
  wilaya: string | null;
  commune: string | null;
  /** Folded `city` (search-text.ts), compared with `city_key` and `city_ar_key`; null: no filter. */
  cityKey: string | null;
  /** Folded `q`, a substring of `search_key`; null: no filter. */
  textKey: string | null;
  near: { center: LatLng; radiusKm: number; box: BoundingBox } | null;
  /** The day a point must be open, and its weekday; null: no filter. */
  openOn: { day: string; weekday: Weekday } | null;
  page: number;
  size: number;
  offset: number;
}

/** A folded filter that is empty (only spaces or punctuation) filters nothing. */
function keyOrNull(value: string | undefined): string | null {
  const key = value === undefined ? "" : foldSearchText(value);
  return key === "" ? null : key;
}

export function planRelayPointSearch(query: RelayPointSearchQuery): RelayPointSearchPlan {
  const near = query.near
    ? {
        center: query.near,
        radiusKm: query.radiusKm ?? DEFAULT_RADIUS_KM,
        box: boundingBox(query.near, query.radiusKm ?? DEFAULT_RADIUS_KM)
      }
    : null;
  return {
    wilaya: query.wilaya ?? null,
    commune: query.commune ?? null,
    cityKey: keyOrNull(query.city),
    textKey: keyOrNull(query.q),
    near,
    openOn: query.openOn === undefined ? null : { day: query.openOn, weekday: weekdayOf(query.openOn) },
    page: query.page,
    size: query.size,
    offset: query.page * query.size
  };
}

/** The folded text a `q` search looks into, field by field (no match across two fields). */
export function searchKeyOf(entry: Pick<RelayPointEntry, "code" | "name" | "nameAr" | "city" | "cityAr" | "address">): string {
  return [entry.code, entry.name, entry.nameAr, entry.city, entry.cityAr, entry.address].map(v => foldSearchText(v ?? "")).join(" ");
}

/** A point's closures (current and future), by code: what `openOn` looks at. */
export type ClosedDays = ReadonlyMap<string, readonly { from: string; to: string }[]>;
const NO_CLOSURES: ClosedDays = new Map();

export function matchesFilters(entry: RelayPointEntry, plan: RelayPointSearchPlan, closed: ClosedDays = NO_CLOSURES): boolean {
  if (!entry.active) return false;
  if (plan.openOn !== null) {
    if (isClosedOn(closed.get(entry.code) ?? [], plan.openOn.day)) return false;
    if (entry.openingHours !== null && entry.openingHours[plan.openOn.weekday].length === 0) return false;
  }
  if (plan.wilaya !== null && entry.wilaya !== plan.wilaya && entry.formerWilaya !== plan.wilaya) return false;
  if (plan.commune !== null && entry.commune !== plan.commune) return false;
  if (plan.cityKey !== null && foldSearchText(entry.city) !== plan.cityKey && foldSearchText(entry.cityAr ?? "") !== plan.cityKey)
    return false;
  if (plan.textKey !== null && !searchKeyOf(entry).includes(plan.textKey)) return false;
  return true;
}

/** One item of the answer. */
export interface RelayPointResult {
  code: string;
  name: string;
  /** Its name in Arabic script (Arabic pages, the picker in Arabic); null when the directory has none. */
  nameAr: string | null;
  city: string;
  wilaya: string | null;
  formerWilaya: string | null;
  commune: string | null;
  /** The commune's names, from resources/communes.json. */
  communeName: string | null;
  communeNameAr: string | null;
  address: string | null;
  latitude: number | null;
  longitude: number | null;
  openingHours: OpeningHours | null;
  /** Only when the search had `near`. */
  distanceKm?: number;
}

export function toRelayPointResult(entry: RelayPointEntry, distance?: number): RelayPointResult {
  const commune = entry.commune === null ? undefined : findCommune(entry.commune);
  const result: RelayPointResult = {
    code: entry.code,
    name: entry.name,
    nameAr: entry.nameAr,
    city: entry.city,
    wilaya: entry.wilaya,
    formerWilaya: entry.formerWilaya,
    commune: entry.commune,
    communeName: commune?.name ?? null,
    communeNameAr: commune?.nameAr ?? null,
    address: entry.address,
    latitude: entry.latitude,
    longitude: entry.longitude,
    openingHours: entry.openingHours
  };
  if (distance !== undefined) result.distanceKm = roundKm(distance);
  return result;
}

/**
 * Exact distances for the points a bounding-box query returned: those within the radius,
 * nearest first (ties by code, so pages are stable). Points without a position are left out.
 */
export function rankByDistance<T extends Pick<RelayPointEntry, "code" | "latitude" | "longitude">>(
  entries: readonly T[],
  center: LatLng,
  radiusKm: number
): { entry: T; distanceKm: number }[] {
  const ranked: { entry: T; distanceKm: number }[] = [];
  for (const entry of entries) {
    const position = positionOf(entry);
    if (!position) continue;
    const d = distanceKm(center, position);
    if (d <= radiusKm) ranked.push({ entry, distanceKm: d });
  }
  return ranked.sort((a, b) => a.distanceKm - b.distanceKm || compareCodes(a.entry.code, b.entry.code));
}

/** Byte order, as PostgreSQL's `ORDER BY code COLLATE "C"`; codes are ASCII. */
export function compareCodes(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

export interface RelayPointPage {
  items: RelayPointResult[];
  page: number;
  size: number;
  totalElements: number;
  totalPages: number;
}

export function pageOf(
  items: RelayPointResult[],
  totalElements: number,
  plan: Pick<RelayPointSearchPlan, "page" | "size">
): RelayPointPage {
  return { items, page: plan.page, size: plan.size, totalElements, totalPages: Math.ceil(totalElements / plan.size) };
}

/** The whole search over entries in memory: the reference semantics (and enough for a small directory). */
export function searchRelayPoints(
  entries: readonly RelayPointEntry[],
  query: RelayPointSearchQuery,
  closed: ClosedDays = NO_CLOSURES
): RelayPointPage {
  const plan = planRelayPointSearch(query);
  const matching = entries.filter(e => matchesFilters(e, plan, closed));
  const results = plan.near
    ? rankByDistance(matching, plan.near.center, plan.near.radiusKm).map(r => toRelayPointResult(r.entry, r.distanceKm))
    : [...matching].sort((a, b) => compareCodes(a.code, b.code)).map(e => toRelayPointResult(e));
  return pageOf(results.slice(plan.offset, plan.offset + plan.size), results.length, plan);
}
