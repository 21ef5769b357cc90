import type { Queryable } from "../../../lib/db/database";
import type { Owner } from "../pickups/pickups.store";
import type { PickupAddress } from "../pickups/pickups.params";
import type { ManifestLine } from "./manifests.params";

/** The SQL of manifests, their lines and scans, and the merchant's count (migration logistics/002). */

export interface ManifestRecord {
  id: string;
  organizationId: string;
  mode: Owner["mode"];
  number: string;
  pickupDate: string;
  address: PickupAddress;
  pickupId: string | null;
  requestFingerprint: string | null;
  createdAt: Date;
}

interface ManifestRow {
  id: string;
  organization_id: string;
  mode: Owner["mode"];
  number: string;
  pickup_date: string | Date;
  address: PickupAddress | string;
  pickup_id: string | null;
  request_fingerprint: string | null;
  created_at: Date;
}

/** A date column as YYYY-MM-DD: PGlite and node-postgres hand it over differently. */
function dayOf(value: string | Date): string {
  if (typeof value === "string") return value.slice(0, 10);
  const local = new Date(value.getTime() - value.getTimezoneOffset() * 60_000);
  return local.toISOString().slice(0, 10);
}

const toManifest = (r: ManifestRow): ManifestRecord => ({
  id: r.id,
  organizationId: r.organization_id,
  mode: r.mode,
  number: r.number,
  pickupDate: dayOf(r.pickup_date),
  address: typeof r.address === "string" ? JSON.parse(r.address) : r.address,
  pickupId: r.pickup_id,
  requestFingerprint: r.request_fingerprint,
  createdAt: r.created_at
});

export interface NewManifest {
  id: string;
  owner: Owner;
  number: string;
  pickupDate: string;
  address: PickupAddress;
  pickupId: string | null;
  idempotencyKey: string | null;
  requestFingerprint: string | null;
  lines: Omit<ManifestLine, "line">[];
}

/** The manifest and its lines in one transaction; a parcel on another manifest fails on manifest_parcels_pkey (23505). */
export async function insertManifest(tx: Queryable, m: NewManifest): Promise<ManifestRecord> {
  const [row] = await tx.query<ManifestRow>(
    `INSERT INTO logistics.manifests (id, organization_id, mode, number, pickup_date, address, pickup_id, idempotency_key, request_fingerprint)
     VALUES ($1, $2, $3, $4, $5::date, $6::jsonb, $7, $8, $9) RETURNING *`,
    [
      m.id,
      m.owner.organizationId,
      m.owner.mode,
      m.number,
      m.pickupDate,
      JSON.stringify(m.address),
      m.pickupId,
      m.idempotencyKey,
      m.requestFingerprint
    ]
  );
  await tx.query(
    `INSERT INTO logistics.manifest_parcels
        (manifest_id, parcel_id, line, tracking_number, recipient_hint, relay_code, cod_amount_dzd, declared_value_dzd)
     SELECT $1, t.parcel_id, t.line, t.tracking_number, t.recipient_hint, t.relay_code, t.cod, t.declared
       FROM unnest($2::uuid[], $3::int[], $4::text[], $5::text[], $6::text[], $7::numeric[], $8::numeric[])
         AS t(parcel_id, line, tracking_number, recipient_hint, relay_code, cod, declared)`,
    [
      m.id,
      m.lines.map(l => l.parcelId),
      m.lines.map((_, i) => i + 1),
      m.lines.map(l => l.trackingNumber),
      m.lines.map(l => l.recipientHint),
      m.lines.map(l => l.relayCode),
      m.lines.map(l => l.codAmountDzd),
      m.lines.map(l => l.declaredValueDzd)
    ]
  );
  return toManifest(row);
}

export async function findManifest(db: Queryable, id: string, owner: Owner | null): Promise<ManifestRecord | null> {
  const [row] = await db.query<ManifestRow>(
    `SELECT * FROM logistics.manifests WHERE id = $1 AND ($2::uuid IS NULL OR (organization_id = $2::uuid AND mode = $3::text))`,
    [id, owner?.organizationId ?? null, owner?.mode ?? null]
  );
  return row ? toManifest(row) : null;
}

export async function findManifestByNumber(db: Queryable, number: string): Promise<ManifestRecord | null> {
  const [row] = await db.query<ManifestRow>("SELECT * FROM logistics.manifests WHERE number = $1", [number]);
  return row ? toManifest(row) : null;
}

export async function findByKey(db: Queryable, owner: Owner, key: string): Promise<ManifestRecord | null> {
  const [row] = await db.query<ManifestRow>(
    "SELECT * FROM logistics.manifests WHERE organization_id = $1 AND mode = $2 AND idempotency_key = $3",
    [owner.organizationId, owner.mode, key]
  );
  return row ? toManifest(row) : null;
}

export async function listManifests(
  db: Queryable,
  owner: Owner,
  filter: { pickupDate: string | null; pickupId: string | null; page: number; size: number }
): Promise<{ records: ManifestRecord[]; total: number }> {
  const where = `organization_id = $1 AND mode = $2 AND ($3::date IS NULL OR pickup_date = $3::date) AND ($4::uuid IS NULL OR pickup_id = $4::uuid)`;
  const params = [owner.organizationId, owner.mode, filter.pickupDate, filter.pickupId];
  const [rows, [count]] = await Promise.all([
    db.query<ManifestRow>(`SELECT * FROM logistics.manifests WHERE ${where} ORDER BY created_at DESC, id DESC LIMIT $5 OFFSET $6`, [
      ...params,
      filter.size,
      filter.page * filter.size
    ]),
    db.query<{ n: string | number }>(`SELECT count(*) AS n FROM logistics.manifests WHERE ${where}`, params)
  ]);
  return { records: rows.map(toManifest), total: Number(count.n) };
}

interface LineRow {
  manifest_id: string;
  parcel_id: string;
  line: number;
  tracking_number: string;
  recipient_hint: string;
  relay_code: string;
  cod_amount_dzd: string | number | null;
  declared_value_dzd: string | number | null;
}

const amount = (value: string | number | null): number | null => (value === null ? null : Number(value));

/** Each manifest's lines, in printed order. */
export async function linesOf(db: Queryable, manifestIds: string[]): Promise<Map<string, ManifestLine[]>> {
  const rows = await db.query<LineRow>(
    "SELECT * FROM logistics.manifest_parcels WHERE manifest_id = ANY($1::uuid[]) ORDER BY manifest_id, line",
    [manifestIds]
  );
  const out = new Map<string, ManifestLine[]>(manifestIds.map(id => [id, []]));
  for (const r of rows) {
    out.get(r.manifest_id)?.push({
      line: r.line,
      parcelId: r.parcel_id,
      trackingNumber: r.tracking_number,
      recipientHint: r.recipient_hint,
      relayCode: r.relay_code,
      codAmountDzd: amount(r.cod_amount_dzd),
      declaredValueDzd: amount(r.declared_value_dzd)
    });
  }
  return out;
}

/** Of these parcels, those already on a manifest, with its number. */
export async function alreadyListed(db: Queryable, parcelIds: string[]): Promise<Array<{ parcelId: string; number: string }>> {
  const rows = await db.query<{ parcel_id: string; number: string }>(
    `SELECT mp.parcel_id, m.number FROM logistics.manifest_parcels mp JOIN logistics.manifests m ON m.id = mp.manifest_id
      WHERE mp.parcel_id = ANY($1::uuid[]) ORDER BY m.number, mp.line`,
    [parcelIds]
  );
  return rows.map(r => ({ parcelId: r.parcel_id, number: r.number }));
}

/** The open pickups (parcels still ANNOUNCED) these parcels are listed on. */
export async function openPickupsOf(db: Queryable, parcelIds: string[]): Promise<Array<{ pickupId: string; parcelId: string }>> {
  const rows = await db.query<{ pickup_id: string; parcel_id: string }>(
    "SELECT pickup_id, parcel_id FROM logistics.pickup_parcels WHERE parcel_id = ANY($1::uuid[]) AND state = 'ANNOUNCED'",
    [parcelIds]
  );
  return rows.map(r => ({ pickupId: r.pickup_id, parcelId: r.parcel_id }));
}

/** The courier's scan of a manifest; a repeat (same id) inserts nothing (false). */
export async function insertManifestScan(
  tx: Queryable,
  s: { id: string; manifestId: string; pickupId: string; courierId: string; occurredAt: Date }
): Promise<boolean> {
  const rows = await tx.query<{ id: string }>(
    `INSERT INTO logistics.manifest_scans (id, manifest_id, pickup_id, courier_id, occurred_at) VALUES ($1, $2, $3, $4, $5)
     ON CONFLICT (id) DO NOTHING RETURNING id`,
    [s.id, s.manifestId, s.pickupId, s.courierId, s.occurredAt]
  );
  return rows.length > 0;
}

/**
 * Lists the parcels on the pickup (ANNOUNCED) where they are not yet: a parcel listed (ANNOUNCED)
 * on another pickup is left out by the partial unique index, quietly (ON CONFLICT DO NOTHING).
 * Answers the parcels it added.
 */
export async function announceOnPickup(tx: Queryable, pickupId: string, parcelIds: string[]): Promise<string[]> {
  const rows = await tx.query<{ parcel_id: string }>(
    `INSERT INTO logistics.pickup_parcels (pickup_id, parcel_id)
     SELECT $1, p FROM unnest($2::uuid[]) AS p
      WHERE NOT EXISTS (SELECT 1 FROM logistics.pickup_parcels pp WHERE pp.pickup_id = $1 AND pp.parcel_id = p)
     ON CONFLICT DO NOTHING RETURNING parcel_id`,
    [pickupId, parcelIds]
  );
  return rows.map(r => r.parcel_id);
}

/** A pickup's count record, locked for the check (made on first use). */
export async function lockCount(tx: Queryable, pickupId: string): Promise<{ wrongTries: number; confirmedAt: Date | null }> {
  await tx.query("INSERT INTO logistics.pickup_counts (pickup_id) VALUES ($1) ON CONFLICT (pickup_id) DO NOTHING", [pickupId]);
  const [row] = await tx.query<{ wrong_tries: number; confirmed_at: Date | null }>(
    "SELECT wrong_tries, confirmed_at FROM logistics.pickup_counts WHERE pickup_id = $1 FOR UPDATE",
    [pickupId]
  );
  return { wrongTries: Number(row.wrong_tries), confirmedAt: row.confirmed_at };
}

export async function countWrongTry(db: Queryable, pickupId: string): Promise<number> {
  const [row] = await db.query<{ wrong_tries: number }>(
    "UPDATE logistics.pickup_counts SET wrong_tries = wrong_tries + 1 WHERE pickup_id = $1 RETURNING wrong_tries",
    [pickupId]
  );
  return Number(row.wrong_tries);
}

export async function confirmCount(tx: Queryable, pickupId: string, count: number): Promise<void> {
  await tx.query("UPDATE logistics.pickup_counts SET confirmed_count = $2, confirmed_at = now() WHERE pickup_id = $1", [pickupId, count]);
}
