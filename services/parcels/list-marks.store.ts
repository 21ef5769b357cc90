import type { Queryable } from "../../lib/db/database";
import { named } from "../../lib/db/statement";
import { POSITION_AT_SQL } from "./list-cursor";
import { PARCEL_COLUMNS } from "./parcel-columns";

/**
 * Issue 48: the SPEC's deep page numbers (`page=2000&size=20`) without walking the 40,000 parcels
 * they skip (decision 0067). A page number counts from the newest parcel, and every new parcel
 * shifts every page; counted from the OLDEST parcel of the list, a parcel's place never changes
 * once it has settled: parcels enter the list at its newest end, and none leaves it (only PENDING
 * rows are ever deleted, and the list never shows them). So a mark, "this parcel has N parcels
 * older than it in the organisation's list" (parcels.list_marks, migration parcels/042), stays true
 * for ever, and a deep page starts from the nearest mark and walks at most `reach` index entries
 * from it instead of the whole offset. The list's total comes from the counters (migration
 * parcels/005), so the page's place from the oldest end is `total - 1 - offset`.
 *
 * A mark is recorded by the first deep read that finds none near its page (the usual deferred
 * join, with the total read in the same snapshot), and only for a parcel that has settled: older
 * than the oldest PENDING row (a create under way would enter the list below it later) and than
 * `settledMinutes` (a transaction's `now()` is its start: a long one commits an older instant).
 * Marks are at least `reach` apart, so an organisation has at most one per `reach` parcels.
 * Only the unfiltered list has marks: parcels leave a status's list as they move on.
 */
export interface MarkTuning {
  /** A page starting this deep or deeper is read from a mark; a shallower one walks its offset. */
  fromOffset: number;
  /** The most index entries a read walks from its mark. */
  reach: number;
  settledMinutes: number;
}

/**
 * 15 minutes: every parcel is written PENDING first (create-groups.store.ts, returns included), which
 * the PENDING rule covers once committed; the margin is for an insert not yet committed, whose
 * `now()` is its transaction's start: a statement of milliseconds. An hour would leave an
 * organisation that creates 40,000 parcels an hour with no mark.
 */
export const LIST_MARKS: MarkTuning = { fromOffset: 1000, reach: 500, settledMinutes: 15 };

/** The page's rows (PARCEL_COLUMNS and position_at), newest first, with the list's total. */
export interface MarkedPage<R> {
  rows: R[];
  total: number;
}

const VISIBLE = "organization_id = $1 AND mode = $2 AND status <> 'PENDING'";
const ORDER = "ORDER BY created_at DESC, id DESC";
/** The list's total, from the counters (migration parcels/005). */
const TOTAL = `SELECT coalesce(sum(n), 0)::bigint AS total FROM parcels.parcel_counts WHERE ${VISIBLE}`;

interface NearRow {
  total: string | number;
  from_oldest: string | number | null;
  position_at: string | null;
  id: string | null;
}

// The list's total and the nearest mark on each side of the page's last row (rows `first` down to
// `last` = first - size, counted from the oldest): the lowest at or above it, the highest below it.
const NEAREST = named(
  "parcels_list_marks_nearest",
  `SELECT t.total, m.from_oldest, m.position_at, m.id
     FROM (${TOTAL}) AS t
     LEFT JOIN LATERAL (
       (SELECT from_oldest, ${POSITION_AT_SQL} AS position_at, id FROM parcels.list_marks
         WHERE organization_id = $1 AND mode = $2 AND from_oldest >= greatest(t.total - 1 - $3::bigint - $4::bigint, 0)
         ORDER BY from_oldest LIMIT 1)
       UNION ALL
       (SELECT from_oldest, ${POSITION_AT_SQL} AS position_at, id FROM parcels.list_marks
         WHERE organization_id = $1 AND mode = $2 AND from_oldest < greatest(t.total - 1 - $3::bigint - $4::bigint, 0)
         ORDER BY from_oldest DESC LIMIT 1)
     ) AS m ON true`
);

// The page from a mark: the rows above it (newer, read upwards) and the rows from it down; each
// part skips what lies between the mark and the page, at most `reach` entries.
const FROM_MARK = named(
  "parcels_list_from_mark",
  `SELECT ${PARCEL_COLUMNS}, ${POSITION_AT_SQL} AS position_at
       FROM ((SELECT id FROM parcels.parcels WHERE ${VISIBLE} AND (created_at, id) > ($3::timestamptz, $4::uuid)
               ORDER BY created_at, id LIMIT $5 OFFSET $6)
             UNION ALL
             (SELECT id FROM parcels.parcels WHERE ${VISIBLE} AND (created_at, id) <= ($3::timestamptz, $4::uuid)
               ORDER BY created_at DESC, id DESC LIMIT $7 OFFSET $8)) AS page
       JOIN parcels.parcels USING (id) ${ORDER}`
);

// The usual deferred join, with what a mark needs from the same snapshot: the list's total, and
// whether the page's first parcel has settled.
const WALK = named(
  "parcels_list_marking",
  `SELECT ${PARCEL_COLUMNS}, ${POSITION_AT_SQL} AS position_at, s.total,
            created_at < least(now() - make_interval(mins => $5::int),
                               (SELECT min(created_at) FROM parcels.parcels WHERE status = 'PENDING')) AS settled
       FROM (SELECT id FROM parcels.parcels WHERE ${VISIBLE} ${ORDER} LIMIT $3 OFFSET $4) AS page
       JOIN parcels.parcels USING (id)
      CROSS JOIN (${TOTAL}) AS s
      ${ORDER}`
);

const RECORD = named(
  "parcels_list_mark_record",
  `INSERT INTO parcels.list_marks (organization_id, mode, from_oldest, created_at, id)
   VALUES ($1, $2, $3, $4::timestamptz, $5) ON CONFLICT DO NOTHING`
);

/** What a mark at `from` skips to reach rows `first` down to `last`, and how, for the fromMark statement. */
function stepsFrom(from: number, first: number, last: number) {
  const upFrom = Math.max(last, from + 1);
  const downTo = Math.min(first, from);
  return {
    distance: from >= first ? from - first : from <= last ? last - from : 0,
    up: first >= upFrom ? { limit: first - upFrom + 1, offset: upFrom - (from + 1) } : { limit: 0, offset: 0 },
    down: downTo >= last ? { limit: downTo - last + 1, offset: from - downTo } : { limit: 0, offset: 0 }
  };
}

/**
 * The unfiltered list's page at `offset` (size+1 rows at most, the extra one says another page
 * follows), read from a mark.
 */
export async function markedPage<R extends { id: string; position_at: string }>(
  db: Queryable,
  owner: { organizationId: string; mode: string },
  page: { offset: number; size: number },
  tuning: MarkTuning = LIST_MARKS
): Promise<MarkedPage<R>> {
  const base = [owner.organizationId, owner.mode];
  const near = await db.query<NearRow>(NEAREST, [...base, page.offset, page.size]);
  const total = Number(near[0].total);
  // The page's first parcel and its last row (the one that says more follow), from the oldest end.
  const first = total - 1 - page.offset;
  if (first < 0) return { rows: [], total };
  const last = Math.max(0, first - page.size);
  const wanted = first - last + 1;
  let best: { at: string; id: string; steps: ReturnType<typeof stepsFrom> } | null = null;
  for (const m of near) {
    if (m.from_oldest === null || m.position_at === null || m.id === null) continue;
    const steps = stepsFrom(Number(m.from_oldest), first, last);
    if (steps.distance <= tuning.reach && (!best || steps.distance < best.steps.distance)) best = { at: m.position_at, id: m.id, steps };
  }
  if (best) {
    const { up, down } = best.steps;
    const rows = await db.query<R>(FROM_MARK, [...base, best.at, best.id, up.limit, up.offset, down.limit, down.offset]);
    // A mark cannot move (see above); a short page would mean it did: read it the usual way then.
    if (rows.length === wanted) return { rows, total };
  }
  const rows = await db.query<R & { total: string | number; settled: boolean }>(WALK, [
    ...base,
    page.size + 1,
    page.offset,
    tuning.settledMinutes
  ]);
  const head = rows[0];
  if (head?.settled) {
    const from = Number(head.total) - 1 - page.offset;
    if (from >= 0) await db.query(RECORD, [...base, from, head.position_at, head.id]);
  }
  return { rows, total: head ? Number(head.total) : total };
}
