import type { Queryable } from "../../../lib/db/database";
import { ParcelRecord, ParcelRow, toParcel } from "../parcels.store";

/**
 * The SQL of relay closures (migration parcels/014): whole days, in Algiers time, during which a
 * relay point takes no parcel. Days travel as "YYYY-MM-DD" text both ways (a SQL date read as a
 * JavaScript Date would move with the process's time zone).
 */

export type ClosureAuthor = "backoffice" | "agent";

export interface ClosureRecord {
  id: string;
  relayCode: string;
  from: string;
  to: string;
  reason: string | null;
  announcedBy: ClosureAuthor;
  createdAt: Date;
}

export interface ClosureRow {
  id: string;
  relay_code: string;
  from_date: string;
  to_date: string;
  reason: string | null;
  announced_by: ClosureAuthor;
  created_at: Date;
}

export const CLOSURE_COLUMNS = "id, relay_code, from_date::text AS from_date, to_date::text AS to_date, reason, announced_by, created_at";

export const closureRecordOf = (row: ClosureRow): ClosureRecord => ({
  id: row.id,
  relayCode: row.relay_code,
  from: row.from_date,
  to: row.to_date,
  reason: row.reason,
  announcedBy: row.announced_by,
  createdAt: row.created_at
});

export async function insertClosure(tx: Queryable, closure: Omit<ClosureRecord, "createdAt">): Promise<ClosureRecord> {
  const [row] = await tx.query<ClosureRow>(
    `INSERT INTO parcels.relay_closures (id, relay_code, from_date, to_date, reason, announced_by)
     VALUES ($1, $2, $3::date, $4::date, $5, $6) RETURNING ${CLOSURE_COLUMNS}`,
    [closure.id, closure.relayCode, closure.from, closure.to, closure.reason, closure.announcedBy]
  );
  return closureRecordOf(row);
}

/** A point's closures that end on `today` or later, by first day. */
export async function currentAndFutureClosures(db: Queryable, relayCode: string, today: string): Promise<ClosureRecord[]> {
  const rows = await db.query<ClosureRow>(
    `SELECT ${CLOSURE_COLUMNS} FROM parcels.relay_closures WHERE relay_code = $1 AND to_date >= $2::date ORDER BY from_date, created_at`,
    [relayCode, today]
  );
  return rows.map(closureRecordOf);
}

/** The same for several points at once (a search page), by code. */
export async function closuresOf(db: Queryable, relayCodes: readonly string[], today: string): Promise<Map<string, ClosureRecord[]>> {
  const byCode = new Map<string, ClosureRecord[]>(relayCodes.map(code => [code, []]));
  if (relayCodes.length === 0) return byCode;
  const rows = await db.query<ClosureRow>(
    `SELECT ${CLOSURE_COLUMNS} FROM parcels.relay_closures WHERE relay_code = ANY($1::text[]) AND to_date >= $2::date
      ORDER BY from_date, created_at`,
    [relayCodes, today]
  );
  for (const closure of rows.map(closureRecordOf)) byCode.get(closure.relayCode)?.push(closure);
  return byCode;
}

/** Closures of the point that meet the days [from, to] (both included), first first. */
export async function closuresMeeting(db: Queryable, relayCode: string, from: string, to: string): Promise<ClosureRecord[]> {
  const rows = await db.query<ClosureRow>(
    `SELECT ${CLOSURE_COLUMNS} FROM parcels.relay_closures
      WHERE relay_code = $1 AND from_date <= $3::date AND to_date >= $2::date ORDER BY from_date, created_at`,
    [relayCode, from, to]
  );
  return rows.map(closureRecordOf);
}

/** Codes of the points with a closure meeting the days [from, to]. */
export async function relayCodesClosedBetween(db: Queryable, from: string, to: string): Promise<Set<string>> {
  const rows = await db.query<{ relay_code: string }>(
    "SELECT DISTINCT relay_code FROM parcels.relay_closures WHERE from_date <= $2::date AND to_date >= $1::date",
    [from, to]
  );
  return new Set(rows.map(r => r.relay_code));
}

/** Deletes the closure; answers it as it was, or null when the point has no such closure. */
export async function deleteClosure(db: Queryable, relayCode: string, id: string): Promise<ClosureRecord | null> {
  const rows = await db.query<ClosureRow>(
    `DELETE FROM parcels.relay_closures WHERE relay_code = $1 AND id = $2 RETURNING ${CLOSURE_COLUMNS}`,
    [relayCode, id]
  );
  return rows[0] ? closureRecordOf(rows[0]) : null;
}

/** A parcel on a shelf, with what the closure extension is computed from. */
export interface ShelfParcel {
  parcel: ParcelRecord;
  /** When it reached the shelf (null: before migration 007 knew; counted from now). */
  arrivedAt: Date | null;
  /** Days of its pickupDeadline that closures gave (migration 016). */
  closureDays: number;
}

type ShelfParcelRow = ParcelRow & { arrived_at: Date | null; pickup_closure_days: number };

const toShelfParcel = (row: ShelfParcelRow): ShelfParcel => ({
  parcel: toParcel(row),
  arrivedAt: row.arrived_at,
  closureDays: row.pickup_closure_days
});

/** Parcels waiting on the point's shelf with a deadline (both modes), locked for their deadline's change. */
export async function lockParcelsOnShelf(tx: Queryable, relayCode: string): Promise<ShelfParcel[]> {
  const rows = await tx.query<ShelfParcelRow>(
    `SELECT * FROM parcels.parcels WHERE destination_relay_code = $1 AND status IN ('AT_RELAY', 'RELAY_NOTIFIED')
        AND pickup_deadline IS NOT NULL
      ORDER BY id FOR UPDATE`,
    [relayCode]
  );
  return rows.map(toShelfParcel);
}

/** One parcel as lockParcelsOnShelf answers it; the caller already holds its row lock. */
export async function shelfParcel(tx: Queryable, id: string): Promise<ShelfParcel> {
  const [row] = await tx.query<ShelfParcelRow>("SELECT * FROM parcels.parcels WHERE id = $1", [id]);
  return toShelfParcel(row);
}

/** Statuses of a parcel on its way to its relay point: created, not yet on the shelf. */
export const ON_THE_WAY = ["CREATED", "READY_FOR_PICKUP", "PICKED_UP", "IN_TRANSIT"] as const;

/** Parcels addressed to the point and not there yet (both modes), oldest first; a page, and how many in all. */
export async function parcelsOnTheWay(
  db: Queryable,
  relayCode: string,
  page: { limit: number; offset: number } | null
): Promise<{ records: ParcelRecord[]; total: number }> {
  const rows = await db.query<ParcelRow & { total: number }>(
    `SELECT *, count(*) OVER ()::int AS total FROM parcels.parcels
      WHERE destination_relay_code = $1 AND status = ANY($2::text[])
      ORDER BY created_at, id LIMIT $3 OFFSET $4`,
    [relayCode, ON_THE_WAY, page?.limit ?? null, page?.offset ?? 0]
  );
  const total =
    rows[0]?.total ??
    (
      await db.query<{ n: number }>(
        "SELECT count(*)::int AS n FROM parcels.parcels WHERE destination_relay_code = $1 AND status = ANY($2::text[])",
        [relayCode, ON_THE_WAY]
      )
    )[0].n;
  return { records: rows.map(toParcel), total };
}
