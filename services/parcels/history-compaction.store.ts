import type { Queryable } from "../../lib/db/database";

/**
 * Issue 48, bounded history (decision 0062): a parcel's status changes are one row each in
 * parcels.status_history, which would otherwise grow with every parcel ever shipped. Once the
 * story has ended and its personal data is erased (the notes are already null), HISTORY_COMPACT_DAYS
 * after the final status, the rows move into `parcels.history_compact`, one small array on the
 * parcel: the table then holds only the last HISTORY_COMPACT_DAYS of parcels, and the events API,
 * the claims' evidence and every reader of `parcelHistory` answer the same. A final status has no
 * next move, so nothing is written to the history of a compacted parcel afterwards.
 *
 * One statement a batch: the due parcels locked (skipped when another instance has them), their
 * rows deleted and folded in the same statement, so a crash leaves either both or neither.
 */
export async function compactHistory(db: Queryable, days: number, batch: number): Promise<number> {
  const compacted = await db.query<{ id: string }>(
    `WITH due AS (
       SELECT id FROM parcels.parcels
        WHERE pii_erased_at IS NOT NULL AND history_compact IS NULL
          AND updated_at < now() - make_interval(days => $1::int)
        ORDER BY updated_at LIMIT $2 FOR UPDATE SKIP LOCKED),
     moved AS (
       DELETE FROM parcels.status_history h USING due WHERE h.parcel_id = due.id
       RETURNING h.id, h.parcel_id, h.from_status, h.to_status, h.actor, h.created_at)
     UPDATE parcels.parcels p
        SET history_compact = coalesce(
              (SELECT jsonb_agg(jsonb_build_array(m.from_status, m.to_status, m.actor, m.created_at) ORDER BY m.id)
                 FROM moved m WHERE m.parcel_id = p.id),
              '[]'::jsonb)
       FROM due WHERE p.id = due.id
     RETURNING p.id`,
    [days, batch]
  );
  return compacted.length;
}
