import type { CodPayout } from "../../lib/cod";
import type { Queryable } from "../../lib/db/database";
import { Owner, ParcelRecord, ParcelRow, toParcel } from "./parcels.store";

/** The SQL of cash on delivery (migration parcels/006): settings, remittances, the summary. */

export interface RemittanceRecord {
  id: string;
  organizationId: string;
  mode: Owner["mode"];
  reference: string;
  paidOn: string;
  payout: CodPayout;
  parcelCount: number;
  totalCentimes: number;
  walletCreditPending: boolean;
  createdAt: Date;
}

interface RemittanceRow {
  id: string;
  organization_id: string;
  mode: Owner["mode"];
  reference: string;
  paid_on: string | Date;
  payout: CodPayout;
  parcel_count: number;
  total_centimes: string | number;
  wallet_credit_pending: boolean;
  created_at: Date;
}

/** A `date` column arrives as text from some drivers and as a local-midnight Date from pg. */
function dateText(value: string | Date): string {
  if (typeof value === "string") return value.slice(0, 10);
  const pad = (n: number) => String(n).padStart(2, "0");
  return `${value.getFullYear()}-${pad(value.getMonth() + 1)}-${pad(value.getDate())}`;
}

function toRemittance(row: RemittanceRow): RemittanceRecord {
  return {
    id: row.id,
    organizationId: row.organization_id,
    mode: row.mode,
    reference: row.reference,
    paidOn: dateText(row.paid_on),
    payout: row.payout,
    parcelCount: Number(row.parcel_count),
    totalCentimes: Number(row.total_centimes),
    walletCreditPending: row.wallet_credit_pending,
    createdAt: row.created_at
  };
}

export async function payoutOf(db: Queryable, organizationId: string): Promise<CodPayout> {
  const [row] = await db.query<{ payout: CodPayout }>("SELECT payout FROM parcels.cod_settings WHERE organization_id = $1", [
    organizationId
  ]);
  return row?.payout ?? "TRANSFER";
}

export async function setPayout(db: Queryable, organizationId: string, payout: CodPayout): Promise<void> {
  await db.query(
    `INSERT INTO parcels.cod_settings (organization_id, payout) VALUES ($1, $2)
     ON CONFLICT (organization_id) DO UPDATE SET payout = EXCLUDED.payout, updated_at = now()`,
    [organizationId, payout]
  );
}

/**
 * The parcels a remittance takes, locked (`FOR UPDATE`, in id order so that two remittances never
 * deadlock): the given ids whatever their state (the caller says what is wrong with each), or
 * every COLLECTED parcel of the owner. A remittance made meanwhile by another transaction holds
 * these locks until it commits; PostgreSQL then reads each row again, so a parcel it remitted no
 * longer matches `cod_status = 'COLLECTED'` and is left out here.
 */
export async function lockRemittable(tx: Queryable, owner: Owner, parcelIds: string[] | null): Promise<ParcelRecord[]> {
  const rows =
    parcelIds === null
      ? await tx.query<ParcelRow>(
          `SELECT * FROM parcels.parcels WHERE organization_id = $1 AND mode = $2 AND cod_status = 'COLLECTED'
            ORDER BY id FOR UPDATE`,
          [owner.organizationId, owner.mode]
        )
      : await tx.query<ParcelRow>("SELECT * FROM parcels.parcels WHERE id = ANY($1::uuid[]) ORDER BY id FOR UPDATE", [parcelIds]);
  return rows.map(toParcel);
}

export async function insertRemittance(
  tx: Queryable,
  r: Omit<RemittanceRecord, "createdAt">,
  parcels: { id: string; amountCentimes: number }[]
): Promise<RemittanceRecord> {
  const [row] = await tx.query<RemittanceRow>(
    `INSERT INTO parcels.cod_remittances
       (id, organization_id, mode, reference, paid_on, payout, parcel_count, total_centimes, wallet_credit_pending)
     VALUES ($1, $2, $3, $4, $5::date, $6, $7, $8, $9) RETURNING *`,
    [r.id, r.organizationId, r.mode, r.reference, r.paidOn, r.payout, r.parcelCount, r.totalCentimes, r.walletCreditPending]
  );
  // parcel_id is the primary key: a parcel already in a remittance fails the whole transaction.
  await tx.query(
    `INSERT INTO parcels.cod_remittance_parcels (parcel_id, remittance_id, amount_centimes)
     SELECT unnest($1::uuid[]), $2, unnest($3::bigint[])`,
    [parcels.map(p => p.id), r.id, parcels.map(p => p.amountCentimes)]
  );
  return toRemittance(row);
}

export async function markRemitted(tx: Queryable, parcelIds: string[]): Promise<ParcelRecord[]> {
  const rows = await tx.query<ParcelRow>(
    `UPDATE parcels.parcels SET cod_status = 'REMITTED', updated_at = now()
      WHERE id = ANY($1::uuid[]) AND cod_status = 'COLLECTED' RETURNING *`,
    [parcelIds]
  );
  return rows.map(toParcel);
}

export async function findRemittance(db: Queryable, owner: Owner, id: string): Promise<RemittanceRecord | null> {
  const [row] = await db.query<RemittanceRow>(
    "SELECT * FROM parcels.cod_remittances WHERE id = $1 AND organization_id = $2 AND mode = $3",
    [id, owner.organizationId, owner.mode]
  );
  return row ? toRemittance(row) : null;
}

/** For operators: a remittance of an organisation, whichever its mode. */
export async function findOrganizationRemittance(db: Queryable, organizationId: string, id: string): Promise<RemittanceRecord | null> {
  const [row] = await db.query<RemittanceRow>("SELECT * FROM parcels.cod_remittances WHERE id = $1 AND organization_id = $2", [
    id,
    organizationId
  ]);
  return row ? toRemittance(row) : null;
}

export async function listRemittances(
  db: Queryable,
  owner: Owner,
  page: { page: number; size: number }
): Promise<{ records: RemittanceRecord[]; total: number }> {
  const [{ total }] = await db.query<{ total: number }>(
    "SELECT count(*)::integer AS total FROM parcels.cod_remittances WHERE organization_id = $1 AND mode = $2",
    [owner.organizationId, owner.mode]
  );
  const rows = await db.query<RemittanceRow>(
    `SELECT * FROM parcels.cod_remittances WHERE organization_id = $1 AND mode = $2
      ORDER BY created_at DESC, id DESC LIMIT $3 OFFSET $4`,
    [owner.organizationId, owner.mode, page.size, page.page * page.size]
  );
  return { records: rows.map(toRemittance), total: Number(total) };
}

export interface RemittedParcel {
  parcelId: string;
  trackingNumber: string;
  amountCentimes: number;
}

export async function remittanceParcels(db: Queryable, remittanceId: string): Promise<RemittedParcel[]> {
  const rows = await db.query<{ parcel_id: string; tracking_number: string; amount_centimes: string | number }>(
    `SELECT rp.parcel_id, p.tracking_number, rp.amount_centimes
       FROM parcels.cod_remittance_parcels rp JOIN parcels.parcels p ON p.id = rp.parcel_id
      WHERE rp.remittance_id = $1 ORDER BY p.tracking_number`,
    [remittanceId]
  );
  return rows.map(r => ({ parcelId: r.parcel_id, trackingNumber: r.tracking_number, amountCentimes: Number(r.amount_centimes) }));
}

export interface CodTotals {
  count: number;
  amountCentimes: number;
}

/** COD of the owner's parcels by COD status, PENDING and COLLECTED only (the others are settled). */
export async function openCodTotals(db: Queryable, owner: Owner): Promise<{ pending: CodTotals; collected: CodTotals }> {
  const rows = await db.query<{ cod_status: string; n: number; total: string | number }>(
    `SELECT cod_status, count(*)::integer AS n, coalesce(sum(cod_amount_centimes), 0) AS total FROM parcels.parcels
      WHERE organization_id = $1 AND mode = $2 AND cod_status IN ('PENDING', 'COLLECTED') AND status <> 'PENDING'
      GROUP BY cod_status`,
    [owner.organizationId, owner.mode]
  );
  const of = (status: string): CodTotals => {
    const row = rows.find(r => r.cod_status === status);
    return { count: row ? Number(row.n) : 0, amountCentimes: row ? Number(row.total) : 0 };
  };
  return { pending: of("PENDING"), collected: of("COLLECTED") };
}

/** Remittances paid on a day in [from, until) (Algiers calendar days). */
export async function remittedBetween(
  db: Queryable,
  owner: Owner,
  from: string,
  until: string
): Promise<{ remittances: number; parcels: number; amountCentimes: number }> {
  const [row] = await db.query<{ remittances: number; parcels: number; total: string | number }>(
    `SELECT count(*)::integer AS remittances, coalesce(sum(parcel_count), 0)::integer AS parcels,
            coalesce(sum(total_centimes), 0) AS total
       FROM parcels.cod_remittances
      WHERE organization_id = $1 AND mode = $2 AND paid_on >= $3::date AND paid_on < $4::date`,
    [owner.organizationId, owner.mode, from, until]
  );
  return { remittances: Number(row.remittances), parcels: Number(row.parcels), amountCentimes: Number(row.total) };
}

export async function creditsPending(db: Queryable, limit: number): Promise<RemittanceRecord[]> {
  const rows = await db.query<RemittanceRow>(
    "SELECT * FROM parcels.cod_remittances WHERE wallet_credit_pending ORDER BY created_at LIMIT $1",
    [limit]
  );
  return rows.map(toRemittance);
}

export async function clearCreditPending(db: Queryable, id: string): Promise<void> {
  await db.query("UPDATE parcels.cod_remittances SET wallet_credit_pending = false WHERE id = $1", [id]);
}
