import type { Queryable } from "../../../lib/db/database";
import type { RelayPointEntry } from "../../../lib/relay-points";
import { RELAY_POINT_COLUMNS, RelayPointRow, toRelayPointEntry } from "../relay-points.store";
import { ClosureRecord, closureRecordOf, ClosureRow, CLOSURE_COLUMNS } from "./closures.store";

/**
 * The SQL of the in-memory relay directory (relay-directory.ts): its change counter (migration
 * parcels/024) and the whole directory at once. Nothing here runs on a create, a quote or a batch.
 */

export async function directoryVersion(db: Queryable): Promise<number> {
  const [row] = await db.query<{ version: string }>("SELECT version::text AS version FROM parcels.relay_directory_version");
  return Number(row.version);
}

export interface DirectorySnapshot {
  /** The counter read before the rows: the rows are at least this new. */
  version: number;
  points: RelayPointEntry[];
  /** Closures ending yesterday (Algiers) or later: one that ended before cannot refuse a parcel again. */
  closures: ClosureRecord[];
}

/** Counter first, rows after: a change landing between them is in the rows and moves the counter past `version`, so it is read again. */
export async function loadDirectory(db: Queryable, since: string): Promise<DirectorySnapshot> {
  const version = await directoryVersion(db);
  const [points, closures] = await Promise.all([
    db.query<RelayPointRow>(`SELECT ${RELAY_POINT_COLUMNS} FROM parcels.relay_points`),
    db.query<ClosureRow>(`SELECT ${CLOSURE_COLUMNS} FROM parcels.relay_closures WHERE to_date >= $1::date ORDER BY from_date, created_at`, [
      since
    ])
  ]);
  return { version, points: points.map(toRelayPointEntry), closures: closures.map(closureRecordOf) };
}
