import type { Queryable } from "../../lib/db/database";
import type { OpeningHours } from "../../lib/opening-hours";
import type { RelayPointEntry } from "../../lib/relay-points";
import { pageOf, planRelayPointSearch, rankByDistance, RelayPointPage, RelayPointSearchQuery, toRelayPointResult } from "./relay-search";

/**
 * All SQL of the relay-point directory (`parcels.relay_points`, migrations parcels/001 and 004),
 * returning camelCase records. The search filters and pre-selects in SQL, on the folded keys and
 * the position index of migration 004, and leaves the exact distance to services/parcels/relay-search.ts,
 * whose in-memory `searchRelayPoints` is the reference this must answer as
 * (test/integration/relay-points-directory.test.ts compares them on both engines).
 */

export const RELAY_POINT_COLUMNS =
  "code, name, name_ar, city, city_ar, wilaya, commune, former_wilaya, address, latitude, longitude, opening_hours, active";

export interface RelayPointRow {
  code: string;
  name: string;
  name_ar: string | null;
  city: string;
  city_ar: string | null;
  wilaya: string | null;
  commune: string | null;
  former_wilaya: string | null;
  address: string | null;
  latitude: number | null;
  longitude: number | null;
  // jsonb arrives parsed from pg and PGlite, as text from some drivers.
  opening_hours: OpeningHours | string | null;
  active: boolean;
}

export function toRelayPointEntry(row: RelayPointRow): RelayPointEntry {
  return {
    code: row.code,
    name: row.name,
    nameAr: row.name_ar,
    city: row.city,
    cityAr: row.city_ar,
    wilaya: row.wilaya,
    commune: row.commune,
    formerWilaya: row.former_wilaya,
    address: row.address,
    latitude: row.latitude === null ? null : Number(row.latitude),
    longitude: row.longitude === null ? null : Number(row.longitude),
    openingHours: typeof row.opening_hours === "string" ? (JSON.parse(row.opening_hours) as OpeningHours) : row.opening_hours,
    active: row.active
  };
}

/** jsonb wants JSON text; a missing value is SQL NULL, never the JSON `null` the table refuses. */
const hoursParam = (hours: OpeningHours | null) => (hours === null ? null : JSON.stringify(hours));

function values(p: RelayPointEntry): unknown[] {
  return [
    p.code,
    p.name,
    p.nameAr,
    p.city,
    p.cityAr,
    p.wilaya,
    p.commune,
    p.formerWilaya,
    p.address,
    p.latitude,
    p.longitude,
    hoursParam(p.openingHours),
    p.active
  ];
}

/** The shipped points as rows of `jsonb_to_recordset`, so that the seed is one statement, not one per point. */
const SHIPPED = `jsonb_to_recordset($1::jsonb) AS p(code text, name text, name_ar text, city text, city_ar text, wilaya text,
  commune text, former_wilaya text, address text, latitude double precision, longitude double precision, opening_hours jsonb, active boolean)`;

function shippedRows(points: readonly RelayPointEntry[]): string {
  return JSON.stringify(
    points.map(p => ({
      code: p.code,
      name: p.name,
      name_ar: p.nameAr,
      city: p.city,
      city_ar: p.cityAr,
      wilaya: p.wilaya,
      commune: p.commune,
      former_wilaya: p.formerWilaya,
      address: p.address,
      latitude: p.latitude,
      longitude: p.longitude,
      opening_hours: p.openingHours,
      active: p.active
    }))
  );
}

/**
 * Adds the shipped directory's points that are missing, and fills in what older rows lack
 * (Arabic names, position, opening hours, the commune where the row is still in the shipped
 * wilaya), never overwriting what an operator set. Two statements at every start, whatever the
 * directory's size; a complete row is not even locked.
 */
export async function seedRelayPoints(db: Queryable, points: readonly RelayPointEntry[]): Promise<void> {
  const rows = shippedRows(points);
  await db.query(
    `INSERT INTO parcels.relay_points (${RELAY_POINT_COLUMNS})
     SELECT ${RELAY_POINT_COLUMNS} FROM ${SHIPPED} ON CONFLICT (code) DO NOTHING`,
    [rows]
  );
  await db.query(
    `UPDATE parcels.relay_points AS r SET
       name_ar = coalesce(r.name_ar, p.name_ar),
       city_ar = coalesce(r.city_ar, p.city_ar),
       latitude = CASE WHEN r.latitude IS NULL THEN p.latitude ELSE r.latitude END,
       longitude = CASE WHEN r.latitude IS NULL THEN p.longitude ELSE r.longitude END,
       opening_hours = coalesce(r.opening_hours, p.opening_hours),
       commune = CASE WHEN r.commune IS NULL AND r.wilaya = p.wilaya THEN p.commune ELSE r.commune END
     FROM ${SHIPPED}
     WHERE r.code = p.code
       AND (r.name_ar IS NULL AND p.name_ar IS NOT NULL OR r.city_ar IS NULL AND p.city_ar IS NOT NULL
         OR r.latitude IS NULL AND p.latitude IS NOT NULL OR r.opening_hours IS NULL AND p.opening_hours IS NOT NULL
         OR r.commune IS NULL AND p.commune IS NOT NULL AND r.wilaya = p.wilaya)`,
    [rows]
  );
}

/** The back-office's add-or-replace: every field as sent (an omitted optional field becomes null). */
export async function upsertRelayPoint(db: Queryable, p: RelayPointEntry): Promise<RelayPointEntry> {
  const [row] = await db.query<RelayPointRow>(
    `INSERT INTO parcels.relay_points (${RELAY_POINT_COLUMNS}) VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13)
     ON CONFLICT (code) DO UPDATE SET name = EXCLUDED.name, name_ar = EXCLUDED.name_ar, city = EXCLUDED.city,
       city_ar = EXCLUDED.city_ar, wilaya = EXCLUDED.wilaya, commune = EXCLUDED.commune, former_wilaya = EXCLUDED.former_wilaya,
       address = EXCLUDED.address, latitude = EXCLUDED.latitude,
       longitude = EXCLUDED.longitude, opening_hours = EXCLUDED.opening_hours, active = EXCLUDED.active, updated_at = now()
     RETURNING ${RELAY_POINT_COLUMNS}`,
    values(p)
  );
  return toRelayPointEntry(row);
}

export async function findRelayPoint(db: Queryable, code: string): Promise<RelayPointEntry | null> {
  const [row] = await db.query<RelayPointRow>(`SELECT ${RELAY_POINT_COLUMNS} FROM parcels.relay_points WHERE code = $1`, [code]);
  return row ? toRelayPointEntry(row) : null;
}

export async function listRelayPoints(db: Queryable): Promise<RelayPointEntry[]> {
  return (await db.query<RelayPointRow>(`SELECT ${RELAY_POINT_COLUMNS} FROM parcels.relay_points ORDER BY code COLLATE "C"`)).map(
    toRelayPointEntry
  );
}

/**
 * $1 a wilaya, found in `wilaya` or `former_wilaya` (migration 027); $4/$5: openOn's day and weekday, a
 * closure (migration 014) or shut weekday leaves the point out; $6 a commune.
 */
const SEARCH_FILTERS = `active
  AND ($1::text IS NULL OR wilaya = $1 OR former_wilaya = $1)
  AND ($2::text IS NULL OR city_key = $2 OR city_ar_key = $2)
  AND ($3::text IS NULL OR strpos(search_key, $3) > 0)
  AND ($4::date IS NULL OR (
    NOT EXISTS (SELECT 1 FROM parcels.relay_closures c
                 WHERE c.relay_code = relay_points.code AND c.from_date <= $4::date AND c.to_date >= $4::date)
    AND (opening_hours IS NULL OR jsonb_array_length(opening_hours -> $5::text) > 0)))
  AND ($6::text IS NULL OR commune = $6)`;

/** The partner search: active points, filtered; by code, or within a radius nearest first. */
export async function searchRelayPoints(db: Queryable, query: RelayPointSearchQuery): Promise<RelayPointPage> {
  const plan = planRelayPointSearch(query);
  const filters = [plan.wilaya, plan.cityKey, plan.textKey, plan.openOn?.day ?? null, plan.openOn?.weekday ?? null, plan.commune];
  if (plan.near) {
    const { box } = plan.near;
    const rows = await db.query<RelayPointRow>(
      `SELECT ${RELAY_POINT_COLUMNS} FROM parcels.relay_points WHERE ${SEARCH_FILTERS}
         AND latitude BETWEEN $7 AND $8 AND longitude BETWEEN $9 AND $10`,
      [...filters, box.minLatitude, box.maxLatitude, box.minLongitude, box.maxLongitude]
    );
    const ranked = rankByDistance(rows.map(toRelayPointEntry), plan.near.center, plan.near.radiusKm);
    return pageOf(
      ranked.slice(plan.offset, plan.offset + plan.size).map(r => toRelayPointResult(r.entry, r.distanceKm)),
      ranked.length,
      plan
    );
  }
  const rows = await db.query<RelayPointRow & { total: number }>(
    `SELECT ${RELAY_POINT_COLUMNS}, count(*) OVER ()::int AS total FROM parcels.relay_points WHERE ${SEARCH_FILTERS}
     ORDER BY code COLLATE "C" LIMIT $7 OFFSET $8`,
    [...filters, plan.size, plan.offset]
  );
  // A page past the end has no row to carry the total: count apart.
  const total =
    rows[0]?.total ??
    (await db.query<{ n: number }>(`SELECT count(*)::int AS n FROM parcels.relay_points WHERE ${SEARCH_FILTERS}`, filters))[0].n;
  return pageOf(
    rows.map(r => toRelayPointResult(toRelayPointEntry(r))),
    total,
    plan
  );
}
