import type { Queryable } from "../../lib/db/database";

/** parcels.pin_resends (migration 021): the "send me the code again" requests granted, per tracking number. */

export async function findParcelIdByTracking(db: Queryable, trackingNumber: string): Promise<string | null> {
  const rows = await db.query<{ id: string }>("SELECT id FROM parcels.parcels WHERE tracking_number = $1", [trackingNumber]);
  return rows[0]?.id ?? null;
}

/** The requests of the last 24 hours, and the seconds until the oldest of them leaves the count. */
export async function resendsToday(tx: Queryable, trackingNumber: string): Promise<{ n: number; retryAfterSeconds: number }> {
  const rows = await tx.query<{ n: number; retry: number }>(
    `SELECT count(*)::integer AS n,
            COALESCE(ceil(extract(epoch FROM min(created_at) + interval '1 day' - now())), 0)::integer AS retry
       FROM parcels.pin_resends WHERE tracking_number = $1 AND created_at > now() - interval '1 day'`,
    [trackingNumber]
  );
  return { n: rows[0].n, retryAfterSeconds: Math.max(1, rows[0].retry) };
}

export async function recordPinResend(
  db: Queryable,
  row: { parcelId: string | null; trackingNumber: string; requestedBy: "recipient" | "agent" }
): Promise<void> {
  await db.query("INSERT INTO parcels.pin_resends (parcel_id, tracking_number, requested_by) VALUES ($1, $2, $3)", [
    row.parcelId,
    row.trackingNumber,
    row.requestedBy
  ]);
}
