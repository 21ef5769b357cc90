import type { Queryable } from "../../lib/db/database";
import { ParcelRecord, ParcelRow, toParcel } from "./parcels.store";

/** The SQL of the holding period (migration parcels/008): deadlines due, reminders, return fees owed. */

/** Parcels still on the shelf whose deadline has passed, oldest deadline first. */
export async function overdueParcelIds(db: Queryable, limit: number): Promise<string[]> {
  const rows = await db.query<{ id: string }>(
    `SELECT id FROM parcels.parcels
      WHERE status IN ('AT_RELAY', 'RELAY_NOTIFIED') AND pickup_deadline IS NOT NULL AND pickup_deadline <= now()
      ORDER BY pickup_deadline LIMIT $1`,
    [limit]
  );
  return rows.map(r => r.id);
}

/**
 * Claims the reminders due (deadline within `hours`, not passed, its reminder not sent): marks
 * each as sent for its deadline and answers the parcels, locked, for the caller to write their
 * events in this same transaction. Rows another pass holds are skipped; a reminder it commits
 * no longer matches, so each deadline is reminded once, whoever runs the pass.
 */
export async function claimDueReminders(tx: Queryable, hours: number, limit: number): Promise<ParcelRecord[]> {
  const rows = await tx.query<ParcelRow>(
    `UPDATE parcels.parcels SET pickup_reminded_for = pickup_deadline
      WHERE id IN (
        SELECT id FROM parcels.parcels
         WHERE status IN ('AT_RELAY', 'RELAY_NOTIFIED') AND pickup_deadline IS NOT NULL
           AND pickup_deadline > now() AND pickup_deadline <= now() + make_interval(hours => $1::int)
           AND pickup_reminded_for IS DISTINCT FROM pickup_deadline
         ORDER BY pickup_deadline LIMIT $2
         FOR UPDATE SKIP LOCKED)
        AND status IN ('AT_RELAY', 'RELAY_NOTIFIED') AND pickup_reminded_for IS DISTINCT FROM pickup_deadline
      RETURNING *`,
    [hours, limit]
  );
  return rows.map(toParcel);
}

export async function setPickupDeadline(
  tx: Queryable,
  id: string,
  change: { deadline: Date; extendedDays?: number; closureDays?: number }
): Promise<ParcelRecord> {
  const rows = await tx.query<ParcelRow>(
    `UPDATE parcels.parcels SET pickup_deadline = $2, pickup_extended_days = coalesce($3::int, pickup_extended_days),
            pickup_closure_days = coalesce($4::int, pickup_closure_days), updated_at = now()
      WHERE id = $1 RETURNING *`,
    [id, change.deadline, change.extendedDays ?? null, change.closureDays ?? null]
  );
  return toParcel(rows[0]);
}

export async function returnFeesPending(db: Queryable, limit: number): Promise<ParcelRecord[]> {
  const rows = await db.query<ParcelRow>("SELECT * FROM parcels.parcels WHERE return_fee_pending ORDER BY updated_at LIMIT $1", [limit]);
  return rows.map(toParcel);
}

export async function clearReturnFeePending(db: Queryable, id: string): Promise<void> {
  await db.query("UPDATE parcels.parcels SET return_fee_pending = false WHERE id = $1", [id]);
}
