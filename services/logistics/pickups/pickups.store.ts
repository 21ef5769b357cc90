import type { KeyMode } from "../../../lib/api-keys";
import type { Queryable } from "../../../lib/db/database";
import type { PickupAddress, PickupStatus } from "./pickups.params";

/** The SQL of pickups (logistics.pickups, logistics.pickup_parcels; migration logistics/001). */

export interface Owner {
  organizationId: string;
  mode: KeyMode;
}

export interface PickupRecord {
  id: string;
  organizationId: string;
  mode: KeyMode;
  confirmationNumber: string;
  status: PickupStatus;
  address: PickupAddress;
  readyAt: Date;
  closeAt: Date;
  cancelBy: Date;
  instructions: string | null;
  requestFingerprint: string | null;
  missing: string[];
  unexpected: string[];
  createdAt: Date;
  updatedAt: Date;
}

interface PickupRow {
  id: string;
  organization_id: string;
  mode: KeyMode;
  confirmation_number: string;
  status: PickupStatus;
  address: PickupAddress | string;
  ready_at: Date;
  close_at: Date;
  cancel_by: Date;
  instructions: string | null;
  request_fingerprint: string | null;
  missing: string[] | string | null;
  unexpected: string[] | string | null;
  created_at: Date;
  updated_at: Date;
}

const json = <T>(value: T | string | null, fallback: T): T =>
  value === null ? fallback : typeof value === "string" ? JSON.parse(value) : value;

function toPickup(row: PickupRow): PickupRecord {
  return {
    id: row.id,
    organizationId: row.organization_id,
    mode: row.mode,
    confirmationNumber: row.confirmation_number,
    status: row.status,
    address: json(row.address, { line1: "", city: "", wilaya: "" }),
    readyAt: row.ready_at,
    closeAt: row.close_at,
    cancelBy: row.cancel_by,
    instructions: row.instructions,
    requestFingerprint: row.request_fingerprint,
    missing: json(row.missing, []),
    unexpected: json(row.unexpected, []),
    createdAt: row.created_at,
    updatedAt: row.updated_at
  };
}

export interface NewPickup {
  id: string;
  owner: Owner;
  confirmationNumber: string;
  address: PickupAddress;
  readyAt: Date;
  closeAt: Date;
  cancelBy: Date;
  contactNameEnc: string | null;
  contactPhoneEnc: string | null;
  instructions: string | null;
  idempotencyKey: string | null;
  requestFingerprint: string | null;
  parcelIds: string[];
}

/** The pickup and its parcels; a parcel already in a pickup that is not over fails the unique index (23505). */
export async function insertPickup(tx: Queryable, p: NewPickup): Promise<PickupRecord> {
  const [row] = await tx.query<PickupRow>(
    `INSERT INTO logistics.pickups (id, organization_id, mode, confirmation_number, status, address, ready_at, close_at, cancel_by,
        contact_name_enc, contact_phone_enc, instructions, idempotency_key, request_fingerprint)
     VALUES ($1, $2, $3, $4, 'CONFIRMED', $5::jsonb, $6, $7, $8, $9, $10, $11, $12, $13) RETURNING *`,
    [
      p.id,
      p.owner.organizationId,
      p.owner.mode,
      p.confirmationNumber,
      JSON.stringify(p.address),
      p.readyAt,
      p.closeAt,
      p.cancelBy,
      p.contactNameEnc,
      p.contactPhoneEnc,
      p.instructions,
      p.idempotencyKey,
      p.requestFingerprint
    ]
  );
  await tx.query(`INSERT INTO logistics.pickup_parcels (pickup_id, parcel_id) SELECT $1, unnest($2::uuid[])`, [p.id, p.parcelIds]);
  return toPickup(row);
}

export async function findPickup(db: Queryable, id: string, owner: Owner | null): Promise<PickupRecord | null> {
  const [row] = await db.query<PickupRow>(
    `SELECT * FROM logistics.pickups WHERE id = $1 AND ($2::uuid IS NULL OR (organization_id = $2::uuid AND mode = $3::text))`,
    [id, owner?.organizationId ?? null, owner?.mode ?? null]
  );
  return row ? toPickup(row) : null;
}

export async function lockPickup(tx: Queryable, id: string): Promise<PickupRecord | null> {
  const [row] = await tx.query<PickupRow>("SELECT * FROM logistics.pickups WHERE id = $1 FOR UPDATE", [id]);
  return row ? toPickup(row) : null;
}

export async function findByKey(db: Queryable, owner: Owner, key: string): Promise<PickupRecord | null> {
  const [row] = await db.query<PickupRow>(
    "SELECT * FROM logistics.pickups WHERE organization_id = $1 AND mode = $2 AND idempotency_key = $3",
    [owner.organizationId, owner.mode, key]
  );
  return row ? toPickup(row) : null;
}

export async function listPickups(
  db: Queryable,
  owner: Owner | null,
  filter: { status: PickupStatus | null; page: number; size: number }
): Promise<{ records: PickupRecord[]; total: number }> {
  const where = `($1::uuid IS NULL OR (organization_id = $1::uuid AND mode = $2::text)) AND ($3::text IS NULL OR status = $3::text)`;
  const params = [owner?.organizationId ?? null, owner?.mode ?? null, filter.status];
  const [rows, [count]] = await Promise.all([
    db.query<PickupRow>(`SELECT * FROM logistics.pickups WHERE ${where} ORDER BY created_at DESC, id DESC LIMIT $4 OFFSET $5`, [
      ...params,
      filter.size,
      filter.page * filter.size
    ]),
    db.query<{ n: string | number }>(`SELECT count(*) AS n FROM logistics.pickups WHERE ${where}`, params)
  ]);
  return { records: rows.map(toPickup), total: Number(count.n) };
}

/** Each pickup's parcels and their state, in the order they were listed. */
export async function parcelsOf(db: Queryable, pickupIds: string[]): Promise<Map<string, Array<{ id: string; state: string }>>> {
  const rows = await db.query<{ pickup_id: string; parcel_id: string; state: string }>(
    "SELECT pickup_id, parcel_id, state FROM logistics.pickup_parcels WHERE pickup_id = ANY($1::uuid[]) ORDER BY parcel_id",
    [pickupIds]
  );
  const out = new Map<string, Array<{ id: string; state: string }>>(pickupIds.map(id => [id, []]));
  for (const row of rows) out.get(row.pickup_id)?.push({ id: row.parcel_id, state: row.state });
  return out;
}

export async function setPickupStatus(
  tx: Queryable,
  id: string,
  status: PickupStatus,
  outcome?: { missing: string[]; unexpected: string[] }
): Promise<PickupRecord> {
  const [row] = await tx.query<PickupRow>(
    `UPDATE logistics.pickups SET status = $2, updated_at = now(),
        missing = COALESCE($3::jsonb, missing), unexpected = COALESCE($4::jsonb, unexpected)
      WHERE id = $1 RETURNING *`,
    [id, status, outcome ? JSON.stringify(outcome.missing) : null, outcome ? JSON.stringify(outcome.unexpected) : null]
  );
  return toPickup(row);
}

export async function setParcelsState(tx: Queryable, pickupId: string, from: string, to: string, parcelIds?: string[]): Promise<void> {
  await tx.query(
    `UPDATE logistics.pickup_parcels SET state = $3 WHERE pickup_id = $1 AND state = $2 AND ($4::uuid[] IS NULL OR parcel_id = ANY($4::uuid[]))`,
    [pickupId, from, to, parcelIds ?? null]
  );
}

/** Parcels the courier scanned at this pickup that were not listed. */
export async function unexpectedOf(db: Queryable, pickupId: string): Promise<string[]> {
  const rows = await db.query<{ parcel_id: string }>(
    "SELECT DISTINCT parcel_id FROM logistics.scans WHERE pickup_id = $1 AND kind = 'pickup.unexpected' ORDER BY parcel_id",
    [pickupId]
  );
  return rows.map(r => r.parcel_id);
}
