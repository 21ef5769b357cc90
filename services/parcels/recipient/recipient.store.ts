import type { Queryable } from "../../../lib/db/database";
import type { Lang } from "../../../lib/languages";
import { eventCount, type ParcelRecord } from "../parcels.store";

/** The SQL of the recipient's phone and language (issue 30, migrations parcels/020 and 021). */

/** Outbound rows whose phone was never checked: the rows from before migration parcels/020. */
export async function uncheckedPhones(db: Queryable, limit: number): Promise<{ id: string; phoneEnc: string }[]> {
  const rows = await db.query<{ id: string; recipient_phone_enc: string }>(
    `SELECT id, recipient_phone_enc FROM parcels.parcels
      WHERE recipient_phone_mobile IS NULL AND direction = 'OUTBOUND' ORDER BY id LIMIT $1`,
    [limit]
  );
  return rows.map(r => ({ id: r.id, phoneEnc: r.recipient_phone_enc }));
}

/** The number rewritten (E.164) or kept as it was (phoneEnc unchanged), and whether it takes SMS. */
export async function setCheckedPhone(db: Queryable, id: string, phoneEnc: string, mobile: boolean): Promise<void> {
  await db.query(
    `UPDATE parcels.parcels SET recipient_phone_enc = $2, recipient_phone_mobile = $3
      WHERE id = $1 AND recipient_phone_mobile IS NULL`,
    [id, phoneEnc, mobile]
  );
}

export interface NonMobileRow {
  id: string;
  trackingNumber: string;
  organizationId: string;
  mode: string;
  status: string;
  phoneEnc: string;
  createdAt: Date;
}

export async function nonMobilePhones(db: Queryable, page: number, size: number): Promise<{ rows: NonMobileRow[]; total: number }> {
  const rows = await db.query<{
    id: string;
    tracking_number: string;
    organization_id: string;
    mode: string;
    status: string;
    recipient_phone_enc: string;
    created_at: Date;
    total: string | number;
  }>(
    `SELECT id, tracking_number, organization_id, mode, status, recipient_phone_enc, created_at, count(*) OVER () AS total
       FROM parcels.parcels WHERE recipient_phone_mobile = false AND direction = 'OUTBOUND'
      ORDER BY created_at DESC, id LIMIT $1 OFFSET $2`,
    [size, page * size]
  );
  return {
    total: rows.length > 0 ? Number(rows[0].total) : 0,
    rows: rows.map(r => ({
      id: r.id,
      trackingNumber: r.tracking_number,
      organizationId: r.organization_id,
      mode: r.mode,
      status: r.status,
      phoneEnc: r.recipient_phone_enc,
      createdAt: r.created_at
    }))
  };
}

/** The recipient's language, for the SMS' short link; null for no such outbound parcel. */
export async function recipientLanguageOf(db: Queryable, trackingNumber: string): Promise<Lang | null> {
  const [row] = await db.query<{ recipient_language: Lang }>(
    "SELECT recipient_language FROM parcels.parcels WHERE tracking_number = $1 AND direction = 'OUTBOUND' AND status <> 'PENDING'",
    [trackingNumber]
  );
  return row?.recipient_language ?? null;
}

/** The recipient switched the tracking page's language: their later SMS follow it. */
export async function setRecipientLanguage(db: Queryable, trackingNumber: string, lang: Lang): Promise<boolean> {
  const rows = await db.query(
    `UPDATE parcels.parcels SET recipient_language = $2
      WHERE tracking_number = $1 AND direction = 'OUTBOUND' AND recipient_language <> $2 RETURNING id`,
    [trackingNumber, lang]
  );
  return rows.length > 0;
}

/**
 * Marks the parcel's recipient unreachable, once: true when this call did, so that its caller
 * writes the event; the caller holds the parcel's row lock. A line in pickup_history keeps the
 * parcel's event sequence one counter (migration parcels/020).
 */
export async function markUnreachable(tx: Queryable, parcel: ParcelRecord): Promise<{ sequence: number; occurredAt: Date } | null> {
  const marked = await tx.query(
    "UPDATE parcels.parcels SET recipient_unreachable_at = now() WHERE id = $1 AND recipient_unreachable_at IS NULL RETURNING id",
    [parcel.id]
  );
  if (marked.length === 0) return null;
  const [line] = await tx.query<{ created_at: Date }>(
    "INSERT INTO parcels.pickup_history (parcel_id, kind, pickup_deadline, actor) VALUES ($1, 'recipient_unreachable', $2, 'notifications') RETURNING created_at",
    [parcel.id, parcel.pickupDeadline]
  );
  return { sequence: await eventCount(tx, parcel.id), occurredAt: line.created_at };
}
