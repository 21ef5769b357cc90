import type { Queryable } from "../../../lib/db/database";
import type { ParcelStatus } from "../../../lib/parcel-status";
import { ParcelRecord, ParcelRow, toParcel } from "../parcels.store";

/**
 * The SQL of redirects before arrival (migration parcels/012): the destination change itself, the
 * redirects a parcel had, and the recipient's verification codes. Every function that changes a
 * parcel's redirects runs under the parcel's row lock (parcels.store lockParcel).
 */

export type RedirectBy = "merchant" | "recipient";

export interface RedirectRecord {
  fromRelayCode: string;
  toRelayCode: string;
  status: ParcelStatus;
  by: RedirectBy;
  createdAt: Date;
}

interface RedirectRow {
  from_relay_code: string;
  to_relay_code: string;
  status: ParcelStatus;
  by: RedirectBy;
  created_at: Date;
}

export async function redirectsOf(db: Queryable, parcelId: string): Promise<RedirectRecord[]> {
  const rows = await db.query<RedirectRow>(
    "SELECT from_relay_code, to_relay_code, status, by, created_at FROM parcels.redirects WHERE parcel_id = $1 ORDER BY id",
    [parcelId]
  );
  return rows.map(r => ({
    fromRelayCode: r.from_relay_code,
    toRelayCode: r.to_relay_code,
    status: r.status,
    by: r.by,
    createdAt: r.created_at
  }));
}

/** The new destination and its line in the parcel's redirects; the caller holds the parcel's lock. */
export async function redirectParcel(
  tx: Queryable,
  parcel: ParcelRecord,
  to: { relayCode: string; by: RedirectBy }
): Promise<{ row: ParcelRecord; occurredAt: Date }> {
  const [line] = await tx.query<{ created_at: Date }>(
    "INSERT INTO parcels.redirects (parcel_id, from_relay_code, to_relay_code, status, by) VALUES ($1, $2, $3, $4, $5) RETURNING created_at",
    [parcel.id, parcel.destinationRelayCode, to.relayCode, parcel.status, to.by]
  );
  const [row] = await tx.query<ParcelRow>(
    // Another relay point: the passes shown so far are void (issue 43).
    "UPDATE parcels.parcels SET destination_relay_code = $2, pickup_pass_version = pickup_pass_version + 1, updated_at = now() WHERE id = $1 RETURNING *",
    [parcel.id, to.relayCode]
  );
  return { row: toParcel(row), occurredAt: line.created_at };
}

/** A visible (not PENDING) parcel by its normalised tracking number, locked; null when there is none. */
export async function lockByTrackingNumber(tx: Queryable, trackingNumber: string): Promise<ParcelRecord | null> {
  const [row] = await tx.query<ParcelRow>("SELECT * FROM parcels.parcels WHERE tracking_number = $1 AND status <> 'PENDING' FOR UPDATE", [
    trackingNumber
  ]);
  return row ? toParcel(row) : null;
}

// --- verification codes -------------------------------------------------------------------------

export interface RedirectCode {
  id: string;
  codeHash: string;
  failures: number;
}

export async function codesIssuedSince(tx: Queryable, parcelId: string, seconds: number): Promise<number> {
  const [{ n }] = await tx.query<{ n: number }>(
    "SELECT count(*)::integer AS n FROM parcels.redirect_codes WHERE parcel_id = $1 AND created_at > now() - make_interval(secs => $2::int)",
    [parcelId, seconds]
  );
  return Number(n);
}

/** A new code for the parcel; the one before it, if still open, ends now (one code at a time). */
export async function issueCode(
  tx: Queryable,
  code: { id: string; parcelId: string; codeHash: string; validSeconds: number }
): Promise<void> {
  await tx.query("UPDATE parcels.redirect_codes SET expires_at = now() WHERE parcel_id = $1 AND used_at IS NULL AND expires_at > now()", [
    code.parcelId
  ]);
  await tx.query(
    `INSERT INTO parcels.redirect_codes (id, parcel_id, code_hash, expires_at)
     VALUES ($1, $2, $3, now() + make_interval(secs => $4::int))`,
    [code.id, code.parcelId, code.codeHash, code.validSeconds]
  );
}

/** The parcel's code still usable (not used, not expired, fewer than `maxFailures` wrong tries), locked. */
export async function lockOpenCode(tx: Queryable, parcelId: string, maxFailures: number): Promise<RedirectCode | null> {
  const [row] = await tx.query<{ id: string; code_hash: string; failures: number }>(
    `SELECT id, code_hash, failures FROM parcels.redirect_codes
      WHERE parcel_id = $1 AND used_at IS NULL AND expires_at > now() AND failures < $2
      ORDER BY created_at DESC LIMIT 1 FOR UPDATE`,
    [parcelId, maxFailures]
  );
  return row ? { id: row.id, codeHash: row.code_hash, failures: Number(row.failures) } : null;
}

export async function recordCodeFailure(db: Queryable, codeId: string): Promise<void> {
  await db.query("UPDATE parcels.redirect_codes SET failures = failures + 1 WHERE id = $1", [codeId]);
}

export async function markCodeUsed(tx: Queryable, codeId: string): Promise<void> {
  await tx.query("UPDATE parcels.redirect_codes SET used_at = now() WHERE id = $1", [codeId]);
}
