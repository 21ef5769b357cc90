import type { KeyMode } from "../../lib/api-keys";
import type { Queryable } from "../../lib/db/database";
import type { ParcelStatus } from "../../lib/parcel-status";

export type StoredStatus = ParcelStatus | "PENDING";

export interface ParcelRow {
  id: string;
  organization_id: string;
  mode: KeyMode;
  tracking_number: string;
  status: StoredStatus;
  destination_relay_code: string;
  recipient_name_enc: string;
  recipient_phone_enc: string;
  weight_g: number;
  length_cm: number | null;
  width_cm: number | null;
  height_cm: number | null;
  declared_value_centimes: string | number | null;
  cod_amount_centimes: string | number | null;
  price_centimes: string | number;
  idempotency_key: string | null;
  request_fingerprint: string | null;
  refund_pending: boolean;
  created_at: Date;
  updated_at: Date;
}

export interface Owner {
  organizationId: string;
  mode: KeyMode;
}

export type NewParcel = Omit<ParcelRow, "status" | "refund_pending" | "created_at" | "updated_at">;

const UNIQUE_VIOLATION = "23505";

export function isUniqueViolation(err: unknown, constraint?: string): boolean {
  const e = err as { code?: string; constraint?: string; message?: string };
  if (e?.code !== UNIQUE_VIOLATION) return false;
  return !constraint || e.constraint === constraint || (e.message ?? "").includes(constraint);
}

export async function insertPending(db: Queryable, parcel: NewParcel): Promise<ParcelRow> {
  const [row] = await db.query<ParcelRow>(
    `INSERT INTO parcels.parcels (id, organization_id, mode, tracking_number, status, destination_relay_code,
       recipient_name_enc, recipient_phone_enc, weight_g, length_cm, width_cm, height_cm,
       declared_value_centimes, cod_amount_centimes, price_centimes, idempotency_key, request_fingerprint)
     VALUES ($1, $2, $3, $4, 'PENDING', $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15, $16)
     RETURNING *`,
    [
      parcel.id,
      parcel.organization_id,
      parcel.mode,
      parcel.tracking_number,
      parcel.destination_relay_code,
      parcel.recipient_name_enc,
      parcel.recipient_phone_enc,
      parcel.weight_g,
      parcel.length_cm,
      parcel.width_cm,
      parcel.height_cm,
      parcel.declared_value_centimes,
      parcel.cod_amount_centimes,
      parcel.price_centimes,
      parcel.idempotency_key,
      parcel.request_fingerprint
    ]
  );
  return row;
}

export async function deletePending(db: Queryable, id: string): Promise<void> {
  await db.query("DELETE FROM parcels.parcels WHERE id = $1 AND status = 'PENDING'", [id]);
}

/** Locks the row for a status change; PENDING rows are locked too (the saga and sweeper finish them). */
export async function lockParcel(tx: Queryable, id: string): Promise<ParcelRow | null> {
  const [row] = await tx.query<ParcelRow>("SELECT * FROM parcels.parcels WHERE id = $1 FOR UPDATE", [id]);
  return row ?? null;
}

export async function setStatus(tx: Queryable, id: string, status: ParcelStatus, refundPending = false): Promise<ParcelRow> {
  const [row] = await tx.query<ParcelRow>(
    `UPDATE parcels.parcels SET status = $2, updated_at = now(), refund_pending = refund_pending OR $3
      WHERE id = $1 RETURNING *`,
    [id, status, refundPending]
  );
  return row;
}

export async function recordHistory(
  tx: Queryable,
  entry: { parcelId: string; from: StoredStatus | null; to: ParcelStatus; reason: string | null; actor: string }
): Promise<void> {
  await tx.query(
    "INSERT INTO parcels.status_history (parcel_id, from_status, to_status, reason, actor) VALUES ($1, $2, $3, $4, $5)",
    [entry.parcelId, entry.from, entry.to, entry.reason, entry.actor]
  );
}

export async function appendOutbox(
  tx: Queryable,
  event: { eventId: string; parcelId: string; owner: Owner; type: string; payload: object }
): Promise<void> {
  await tx.query(
    `INSERT INTO parcels.outbox (event_id, parcel_id, organization_id, mode, type, payload)
     VALUES ($1, $2, $3, $4, $5, $6)`,
    [event.eventId, event.parcelId, event.owner.organizationId, event.owner.mode, event.type, JSON.stringify(event.payload)]
  );
}

/** Visible parcels only: a PENDING row does not exist for the API. */
async function findVisibleBy(db: Queryable, owner: Owner, column: "id" | "tracking_number", value: string): Promise<ParcelRow | null> {
  const [row] = await db.query<ParcelRow>(
    `SELECT * FROM parcels.parcels
      WHERE ${column} = $1 AND organization_id = $2 AND mode = $3 AND status <> 'PENDING'`,
    [value, owner.organizationId, owner.mode]
  );
  return row ?? null;
}

export const findVisible = (db: Queryable, owner: Owner, id: string) => findVisibleBy(db, owner, "id", id);

export const findVisibleByTracking = (db: Queryable, owner: Owner, trackingNumber: string) =>
  findVisibleBy(db, owner, "tracking_number", trackingNumber);

export async function findByIdempotencyKey(db: Queryable, owner: Owner, key: string): Promise<ParcelRow | null> {
  const [row] = await db.query<ParcelRow>(
    "SELECT * FROM parcels.parcels WHERE organization_id = $1 AND mode = $2 AND idempotency_key = $3",
    [owner.organizationId, owner.mode, key]
  );
  return row ?? null;
}

/** Idempotency keys are kept 24 h: an older one is released so that it may be used again. */
export async function releaseExpiredIdempotencyKey(db: Queryable, owner: Owner, key: string, hours: number): Promise<void> {
  await db.query(
    `UPDATE parcels.parcels SET idempotency_key = NULL
      WHERE organization_id = $1 AND mode = $2 AND idempotency_key = $3
        AND created_at < now() - make_interval(hours => $4::int)`,
    [owner.organizationId, owner.mode, key, hours]
  );
}

export async function listVisible(
  db: Queryable,
  owner: Owner,
  filter: { status: ParcelStatus | null; page: number; size: number }
): Promise<{ rows: ParcelRow[]; total: number }> {
  const params: unknown[] = [owner.organizationId, owner.mode];
  let where = "organization_id = $1 AND mode = $2 AND status <> 'PENDING'";
  if (filter.status) {
    params.push(filter.status);
    where += ` AND status = $${params.length}`;
  }
  const [{ total }] = await db.query<{ total: string | number }>(
    `SELECT count(*) AS total FROM parcels.parcels WHERE ${where}`,
    params
  );
  const rows = await db.query<ParcelRow>(
    `SELECT * FROM parcels.parcels WHERE ${where}
      ORDER BY created_at DESC, id DESC LIMIT $${params.length + 1} OFFSET $${params.length + 2}`,
    [...params, filter.size, filter.page * filter.size]
  );
  return { rows, total: Number(total) };
}

export async function pendingOlderThan(db: Queryable, seconds: number, limit: number): Promise<ParcelRow[]> {
  return db.query<ParcelRow>(
    `SELECT * FROM parcels.parcels WHERE status = 'PENDING' AND created_at < now() - make_interval(secs => $1::int)
      ORDER BY created_at LIMIT $2`,
    [seconds, limit]
  );
}

export async function refundsPending(db: Queryable, limit: number): Promise<ParcelRow[]> {
  return db.query<ParcelRow>("SELECT * FROM parcels.parcels WHERE refund_pending ORDER BY updated_at LIMIT $1", [limit]);
}

export async function clearRefundPending(db: Queryable, id: string): Promise<void> {
  await db.query("UPDATE parcels.parcels SET refund_pending = false WHERE id = $1", [id]);
}
