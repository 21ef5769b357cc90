import type { Queryable } from "../../../lib/db/database";
import type { KeyMode } from "../../../lib/api-keys";
import { RETURN_WAITING } from "./relay-returns";

/** The SQL of network scans (parcels.network_scans, migration parcels/030) and the reads logistics needs. */

export async function seenScan(tx: Queryable, scanId: string): Promise<{ outcome: string; statusAfter: string } | null> {
  const [row] = await tx.query<{ outcome: string; status_after: string }>(
    "SELECT outcome, status_after FROM parcels.network_scans WHERE scan_id = $1",
    [scanId]
  );
  return row ? { outcome: row.outcome, statusAfter: row.status_after } : null;
}

export async function recordScan(
  tx: Queryable,
  scan: { scanId: string; parcelId: string; toStatus: string; outcome: string; statusAfter: string }
): Promise<void> {
  await tx.query("INSERT INTO parcels.network_scans (scan_id, parcel_id, to_status, outcome, status_after) VALUES ($1, $2, $3, $4, $5)", [
    scan.scanId,
    scan.parcelId,
    scan.toStatus,
    scan.outcome,
    scan.statusAfter
  ]);
}

export async function idsOfTrackingNumbers(db: Queryable, trackingNumbers: string[]): Promise<string[]> {
  const rows = await db.query<{ id: string }>(
    "SELECT id FROM parcels.parcels WHERE tracking_number = ANY($1::text[]) AND status <> 'PENDING'",
    [trackingNumbers]
  );
  return rows.map(r => r.id);
}

export async function createdParcelIds(db: Queryable, owner: { organizationId: string; mode: KeyMode }, limit: number): Promise<string[]> {
  const rows = await db.query<{ id: string }>(
    `SELECT id FROM parcels.parcels WHERE organization_id = $1 AND mode = $2 AND status = 'CREATED'
      ORDER BY created_at, id LIMIT $3`,
    [owner.organizationId, owner.mode, limit]
  );
  return rows.map(r => r.id);
}

/** parcel.out_for_delivery's row (migration parcels/036): once per parcel and relay point; null when it was already written. */
export async function insertOutForDelivery(
  tx: Queryable,
  parcelId: string,
  relayCode: string,
  actor: string
): Promise<{ created_at: Date } | null> {
  const [line] = await tx.query<{ created_at: Date }>(
    `INSERT INTO parcels.out_for_delivery (parcel_id, relay_code, actor) VALUES ($1, $2, $3)
     ON CONFLICT (parcel_id, relay_code) DO NOTHING RETURNING created_at`,
    [parcelId, relayCode, actor]
  );
  return line ?? null;
}

/**
 * The relay points of a wilaya a courier must visit even with nothing to deliver (issue 45): a live
 * return waiting there (relay-returns.ts's RETURN_WAITING: arrived, not held by a courier or a hub since), or
 * till cash closed and not yet collected (collected_at, migration 044: set when a collection of it
 * is confirmed; a count above zero). One read, each relay point probed through an index
 * (parcels_relay_counter, then the uncollected closings' relay_cash_closings_uncollected, a few per
 * point whatever its history), never a scan of parcels: a LATERAL with LIMIT 1 keeps the planner
 * from hashing a whole table for the OR of two EXISTS, and asks for the cash only when no return waits.
 */
export async function relaysToVisitIn(db: Queryable, wilaya: string): Promise<string[]> {
  const rows = await db.query<{ code: string }>(
    `SELECT r.code FROM parcels.relay_points r
       LEFT JOIN LATERAL (
         SELECT true AS waiting FROM parcels.parcels p
          WHERE p.destination_relay_code = r.code AND ${RETURN_WAITING}
          LIMIT 1) waiting_return ON true
       LEFT JOIN LATERAL (
         SELECT true AS waiting FROM parcels.relay_cash_closings k
          WHERE k.relay_code = r.code AND k.collected_at IS NULL AND k.counted_centimes > 0
          LIMIT 1) waiting_cash ON waiting_return.waiting IS NULL
      WHERE r.wilaya = $1 AND (waiting_return.waiting OR waiting_cash.waiting)
      ORDER BY r.code`,
    [wilaya]
  );
  return rows.map(r => r.code);
}
