import type { Queryable } from "../../../lib/db/database";
import type { OpeningHours } from "../../../lib/opening-hours";
import type { Page } from "../../../lib/parcel-view";
import type { RelayPointResult, RelayPointSearchQuery } from "../relay-search";
import { searchRelayPoints } from "../relay-points.store";
import { ClosureRef, ClosureStatus, noticeWindow, withClosureStatus } from "./closures";
import { countsOnShelf } from "./relay.store";
import { withRelaySettings } from "./relay-settings";

/**
 * The public relay-point search (issue 28): the partner search itself (relay-search.ts and its
 * store), answered to any browser without a key, with the fields a checkout shows its customer and
 * nothing else: no capacity, no holding days, no count of parcels. What a customer must know of
 * those is one answer: does the point take a new parcel today, and if not, why.
 */

/** Why a point takes no new parcel today: its shelf is full, or it is closed today or within the notice days. */
export type NotTakingReason = "FULL" | "CLOSED";

export interface PublicRelayPoint extends ClosureStatus {
  code: string;
  name: string;
  /** Its name in Arabic script, for a checkout in Arabic; null when the directory has none. */
  nameAr: string | null;
  address: string | null;
  city: string;
  wilaya: string | null;
  /** Wilayas 59–69: the wilaya the point's place belonged to before 2026, which still finds it. */
  formerWilaya: string | null;
  commune: string | null;
  communeName: string | null;
  communeNameAr: string | null;
  latitude: number | null;
  longitude: number | null;
  openingHours: OpeningHours | null;
  /** A parcel created now may be addressed to it (what POST /parcels would accept of its destination). */
  takesNewParcels: boolean;
  notTakingReason: NotTakingReason | null;
  distanceKm?: number;
}

export interface PublicSearchDeps {
  db: Queryable;
  /** HOLDING_DAYS, for the settings the capacity comes with. */
  holdingDays: number;
  /** CLOSURE_NOTICE_DAYS: a point closed today or within these days refuses new parcels (409 RELAY_CLOSED). */
  noticeDays: number;
}

/** The closures meet the days a new parcel must find its point open (closures.ts, assertRelayOpenForNewParcels). */
function closedForNewParcels(closures: readonly ClosureRef[], window: { from: string; to: string }): boolean {
  return closures.some(c => c.from <= window.to && c.to >= window.from);
}

/** One point as the public sees it: named fields only, so that a field added to the partner search never leaks here. */
export function toPublicRelayPoint(
  point: RelayPointResult & ClosureStatus & { capacity: number },
  onShelf: number,
  window: { from: string; to: string }
): PublicRelayPoint {
  const reason: NotTakingReason | null = closedForNewParcels(point.closures, window) ? "CLOSED" : onShelf >= point.capacity ? "FULL" : null;
  const view: PublicRelayPoint = {
    code: point.code,
    name: point.name,
    nameAr: point.nameAr,
    address: point.address,
    city: point.city,
    wilaya: point.wilaya,
    formerWilaya: point.formerWilaya,
    commune: point.commune,
    communeName: point.communeName,
    communeNameAr: point.communeNameAr,
    latitude: point.latitude,
    longitude: point.longitude,
    openingHours: point.openingHours,
    openNow: point.openNow,
    closures: point.closures,
    takesNewParcels: reason === null,
    notTakingReason: reason
  };
  if (point.distanceKm !== undefined) view.distanceKm = point.distanceKm;
  return view;
}

export async function publicRelaySearch(
  deps: PublicSearchDeps,
  query: RelayPointSearchQuery,
  now = new Date()
): Promise<Page<PublicRelayPoint>> {
  const found = await searchRelayPoints(deps.db, query);
  const codes = found.items.map(p => p.code);
  const [settled, shelves] = await Promise.all([withRelaySettings(deps.db, found.items, deps.holdingDays), countsOnShelf(deps.db, codes)]);
  const points = await withClosureStatus(deps.db, settled, now);
  const window = noticeWindow(now, deps.noticeDays);
  return { ...found, items: points.map(p => toPublicRelayPoint(p, shelves.get(p.code) ?? 0, window)) };
}
