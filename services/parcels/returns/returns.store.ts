import type { KeyMode } from "../../../lib/api-keys";
import type { Queryable } from "../../../lib/db/database";
import type { ReturnItem, ReturnStatus } from "../../../lib/returns";
import type { Owner } from "../parcels.store";

/** The SQL of customers' returns (migration parcels/011): returns, their codes, the return settings. */

export interface ReturnRecord {
  id: string;
  parcelId: string;
  organizationId: string;
  mode: KeyMode;
  status: ReturnStatus;
  returnCode: string;
  reason: string;
  items: ReturnItem[];
  destinationRelayCode: string;
  feeCentimes: number;
  /** Dropped off, and the wallet has not acknowledged the RETURN_SHIPMENT charge yet. */
  feePending: boolean;
  returnParcelId: string | null;
  droppedOffRelayCode: string | null;
  expiresAt: Date;
  droppedOffAt: Date | null;
  closedAt: Date | null;
  createdAt: Date;
  updatedAt: Date;
}

interface ReturnRow {
  id: string;
  parcel_id: string;
  organization_id: string;
  mode: KeyMode;
  status: ReturnStatus;
  return_code: string;
  reason: string;
  items: ReturnItem[] | string | null;
  destination_relay_code: string;
  fee_centimes: string | number;
  fee_pending: boolean;
  return_parcel_id: string | null;
  dropped_off_relay_code: string | null;
  expires_at: Date;
  dropped_off_at: Date | null;
  closed_at: Date | null;
  created_at: Date;
  updated_at: Date;
}

function toReturn(row: ReturnRow): ReturnRecord {
  // jsonb arrives parsed from pg, as text from some drivers.
  const items = typeof row.items === "string" ? (JSON.parse(row.items) as ReturnItem[]) : row.items;
  return {
    id: row.id,
    parcelId: row.parcel_id,
    organizationId: row.organization_id,
    mode: row.mode,
    status: row.status,
    returnCode: row.return_code,
    reason: row.reason,
    items: items ?? [],
    destinationRelayCode: row.destination_relay_code,
    feeCentimes: Number(row.fee_centimes),
    feePending: row.fee_pending,
    returnParcelId: row.return_parcel_id,
    droppedOffRelayCode: row.dropped_off_relay_code,
    expiresAt: row.expires_at,
    droppedOffAt: row.dropped_off_at,
    closedAt: row.closed_at,
    createdAt: row.created_at,
    updatedAt: row.updated_at
  };
}

const first = (rows: ReturnRow[]): ReturnRecord | null => (rows[0] ? toReturn(rows[0]) : null);

export interface NewReturn {
  id: string;
  parcelId: string;
  owner: Owner;
  returnCode: string;
  reason: string;
  items: ReturnItem[];
  destinationRelayCode: string;
  feeCentimes: number;
  windowDays: number;
}

export async function insertReturn(tx: Queryable, r: NewReturn): Promise<ReturnRecord> {
  const rows = await tx.query<ReturnRow>(
    `INSERT INTO parcels.returns (id, parcel_id, organization_id, mode, status, return_code, reason, items, destination_relay_code,
       fee_centimes, expires_at)
     VALUES ($1, $2, $3, $4, 'AWAITING_DROP_OFF', $5, $6, $7, $8, $9, now() + make_interval(days => $10::int))
     RETURNING *`,
    [
      r.id,
      r.parcelId,
      r.owner.organizationId,
      r.owner.mode,
      r.returnCode,
      r.reason,
      JSON.stringify(r.items),
      r.destinationRelayCode,
      r.feeCentimes,
      r.windowDays
    ]
  );
  return toReturn(rows[0]);
}

/** Whether `code` is taken by an open return (the unique index has the last word). */
export async function codeInUse(tx: Queryable, code: string): Promise<boolean> {
  const rows = await tx.query("SELECT 1 FROM parcels.returns WHERE return_code = $1 AND status = 'AWAITING_DROP_OFF'", [code]);
  return rows.length > 0;
}

/** The parcel's return not yet over (waiting for its drop-off, or dropped off), if any. */
export async function openReturnOf(tx: Queryable, parcelId: string): Promise<ReturnRecord | null> {
  return first(
    await tx.query<ReturnRow>("SELECT * FROM parcels.returns WHERE parcel_id = $1 AND status IN ('AWAITING_DROP_OFF', 'DROPPED_OFF')", [
      parcelId
    ])
  );
}

export async function findReturn(db: Queryable, owner: Owner, id: string): Promise<ReturnRecord | null> {
  return first(
    await db.query<ReturnRow>("SELECT * FROM parcels.returns WHERE id = $1 AND organization_id = $2 AND mode = $3", [
      id,
      owner.organizationId,
      owner.mode
    ])
  );
}

export async function lockReturn(tx: Queryable, id: string): Promise<ReturnRecord | null> {
  return first(await tx.query<ReturnRow>("SELECT * FROM parcels.returns WHERE id = $1 FOR UPDATE", [id]));
}

/** The return a code names, locked: the open one, else the newest that had it (to tell used from expired). */
export async function lockByCode(tx: Queryable, code: string): Promise<ReturnRecord | null> {
  const [row] = await tx.query<{ id: string }>(
    `SELECT id FROM parcels.returns WHERE return_code = $1
      ORDER BY (status = 'AWAITING_DROP_OFF') DESC, created_at DESC LIMIT 1`,
    [code]
  );
  return row ? lockReturn(tx, row.id) : null;
}

/** The return a return parcel carries back; null for any other parcel. */
export async function returnOfReturnParcel(db: Queryable, returnParcelId: string): Promise<ReturnRecord | null> {
  return first(await db.query<ReturnRow>("SELECT * FROM parcels.returns WHERE return_parcel_id = $1", [returnParcelId]));
}

export async function listReturns(
  db: Queryable,
  owner: Owner,
  filter: { status: ReturnStatus | null; page: number; size: number }
): Promise<{ records: ReturnRecord[]; total: number }> {
  const params: unknown[] = [owner.organizationId, owner.mode, filter.status];
  const where = "organization_id = $1 AND mode = $2 AND ($3::text IS NULL OR status = $3)";
  const [{ n }] = await db.query<{ n: number }>(`SELECT count(*)::integer AS n FROM parcels.returns WHERE ${where}`, params);
  const rows = await db.query<ReturnRow>(
    `SELECT * FROM parcels.returns WHERE ${where} ORDER BY created_at DESC, id DESC LIMIT $4 OFFSET $5`,
    [...params, filter.size, filter.page * filter.size]
  );
  return { records: rows.map(toReturn), total: Number(n) };
}

/** AWAITING_DROP_OFF → DROPPED_OFF with its return parcel; the fee is owed until the wallet acknowledges it. */
export async function markDroppedOff(
  tx: Queryable,
  id: string,
  drop: { returnParcelId: string; relayCode: string; feeCentimes: number }
): Promise<ReturnRecord> {
  const rows = await tx.query<ReturnRow>(
    `UPDATE parcels.returns SET status = 'DROPPED_OFF', return_parcel_id = $2, dropped_off_relay_code = $3, fee_centimes = $4,
            fee_pending = true, dropped_off_at = now(), updated_at = now()
      WHERE id = $1 RETURNING *`,
    [id, drop.returnParcelId, drop.relayCode, drop.feeCentimes]
  );
  return toReturn(rows[0]);
}

/** AWAITING_DROP_OFF → EXPIRED or CANCELLED; null when it was no longer waiting (someone else got there first). */
export async function closeReturn(tx: Queryable, id: string, status: "EXPIRED" | "CANCELLED"): Promise<ReturnRecord | null> {
  return first(
    await tx.query<ReturnRow>(
      `UPDATE parcels.returns SET status = $2, closed_at = now(), updated_at = now()
        WHERE id = $1 AND status = 'AWAITING_DROP_OFF' RETURNING *`,
      [id, status]
    )
  );
}

/** Whether a waiting return's time is up, by the database's clock (the one expires_at was set by). */
export async function isPastExpiry(tx: Queryable, r: ReturnRecord): Promise<boolean> {
  const [{ due }] = await tx.query<{ due: boolean }>("SELECT $1::timestamptz <= now() AS due", [r.expiresAt]);
  return due;
}

/** An operator's correction of a waiting return's deadline; null when the return is not waiting. */
export async function setExpiry(db: Queryable, id: string, expiresAt: Date): Promise<ReturnRecord | null> {
  return first(
    await db.query<ReturnRow>(
      "UPDATE parcels.returns SET expires_at = $2, updated_at = now() WHERE id = $1 AND status = 'AWAITING_DROP_OFF' RETURNING *",
      [id, expiresAt]
    )
  );
}

export async function findAnyReturn(db: Queryable, id: string): Promise<ReturnRecord | null> {
  return first(await db.query<ReturnRow>("SELECT * FROM parcels.returns WHERE id = $1", [id]));
}

export async function dueReturnIds(db: Queryable, limit: number): Promise<string[]> {
  const rows = await db.query<{ id: string }>(
    "SELECT id FROM parcels.returns WHERE status = 'AWAITING_DROP_OFF' AND expires_at <= now() ORDER BY expires_at LIMIT $1",
    [limit]
  );
  return rows.map(r => r.id);
}

export async function feesPending(db: Queryable, limit: number): Promise<ReturnRecord[]> {
  return (await db.query<ReturnRow>("SELECT * FROM parcels.returns WHERE fee_pending ORDER BY updated_at LIMIT $1", [limit])).map(toReturn);
}

export async function clearFeePending(db: Queryable, id: string): Promise<void> {
  await db.query("UPDATE parcels.returns SET fee_pending = false WHERE id = $1", [id]);
}

/** A return parcel: RETURN, bringing `returnOf` back, waiting at `originRelayCode` for the courier. */
export async function markReturnParcel(tx: Queryable, id: string, returnOf: string, originRelayCode: string): Promise<void> {
  await tx.query("UPDATE parcels.parcels SET direction = 'RETURN', return_of = $2, origin_relay_code = $3 WHERE id = $1", [
    id,
    returnOf,
    originRelayCode
  ]);
}

export async function trackingNumberTaken(tx: Queryable, trackingNumber: string): Promise<boolean> {
  return (await tx.query("SELECT 1 FROM parcels.parcels WHERE tracking_number = $1", [trackingNumber])).length > 0;
}

// --- settings -----------------------------------------------------------------------------------

export async function returnRelayOf(db: Queryable, owner: Owner): Promise<string | null> {
  const [row] = await db.query<{ return_relay_code: string }>(
    "SELECT return_relay_code FROM parcels.return_settings WHERE organization_id = $1 AND mode = $2",
    [owner.organizationId, owner.mode]
  );
  return row ? row.return_relay_code : null;
}

export async function setReturnRelay(db: Queryable, owner: Owner, code: string): Promise<void> {
  await db.query(
    `INSERT INTO parcels.return_settings (organization_id, mode, return_relay_code) VALUES ($1, $2, $3)
     ON CONFLICT (organization_id, mode) DO UPDATE SET return_relay_code = EXCLUDED.return_relay_code, updated_at = now()`,
    [owner.organizationId, owner.mode, code]
  );
}

/** One return event of the parcel, counted in its sequence (parcels.store eventCount reads this table). */
export async function insertReturnHistory(tx: Queryable, entry: { parcelId: string; returnId: string; type: string }): Promise<Date> {
  const [line] = await tx.query<{ created_at: Date }>(
    "INSERT INTO parcels.return_history (parcel_id, return_id, type) VALUES ($1, $2, $3) RETURNING created_at",
    [entry.parcelId, entry.returnId, entry.type]
  );
  return line.created_at;
}

/** Whether the parcel was delivered (its last DELIVERED line) less than `days` ago, by the database's clock. */
export async function deliveredWithin(tx: Queryable, parcelId: string, days: number): Promise<boolean> {
  const [{ within }] = await tx.query<{ within: boolean | null }>(
    `SELECT max(created_at) > now() - make_interval(days => $2::int) AS within
       FROM parcels.status_history WHERE parcel_id = $1 AND to_status = 'DELIVERED'`,
    [parcelId, days]
  );
  return within === true;
}
