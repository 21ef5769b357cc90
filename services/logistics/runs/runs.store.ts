import type { Database, Queryable } from "../../../lib/db/database";

/** The SQL of runs, their stops and couriers' relay visits (migration logistics/005). */

export type StopKind = "PICKUP" | "HUB" | "RELAY";

export interface StopRef {
  kind: StopKind;
  /** A pickup's id, a hub's id or a relay point's code. */
  ref: string;
}

export interface RunRecord {
  id: string;
  courierId: string;
  hubId: string;
  date: string;
  stops: StopRef[];
  updatedAt: string;
}

interface RunRow {
  id: string;
  courier_id: string;
  hub_id: string;
  run_date: string | Date;
  updated_at: Date;
}

const dateText = (d: string | Date): string => (typeof d === "string" ? d.slice(0, 10) : d.toISOString().slice(0, 10));

async function withStops(db: Queryable, row: RunRow | undefined): Promise<RunRecord | null> {
  if (!row) return null;
  const stops = await db.query<{ kind: StopKind; ref: string }>(
    "SELECT kind, ref FROM logistics.run_stops WHERE run_id = $1 ORDER BY position",
    [row.id]
  );
  return {
    id: row.id,
    courierId: row.courier_id,
    hubId: row.hub_id,
    date: dateText(row.run_date),
    stops: stops.map(s => ({ kind: s.kind, ref: s.ref })),
    updatedAt: row.updated_at.toISOString()
  };
}

const RUN_COLUMNS = "id, courier_id, hub_id, to_char(run_date, 'YYYY-MM-DD') AS run_date, updated_at";

export async function findRun(db: Queryable, id: string): Promise<RunRecord | null> {
  const [row] = await db.query<RunRow>(`SELECT ${RUN_COLUMNS} FROM logistics.runs WHERE id = $1`, [id]);
  return withStops(db, row);
}

export async function findRunOf(db: Queryable, courierId: string, date: string): Promise<RunRecord | null> {
  const [row] = await db.query<RunRow>(`SELECT ${RUN_COLUMNS} FROM logistics.runs WHERE courier_id = $1 AND run_date = $2`, [
    courierId,
    date
  ]);
  return withStops(db, row);
}

/** Keeps a computed run: the first of two concurrent callers inserts it, the second reads it. */
export async function keepRun(
  db: Database,
  run: { id: string; courierId: string; hubId: string; date: string; stops: StopRef[] }
): Promise<RunRecord> {
  return db.transaction(async tx => {
    const inserted = await tx.query<{ id: string }>(
      `INSERT INTO logistics.runs (id, courier_id, hub_id, run_date) VALUES ($1, $2, $3, $4)
       ON CONFLICT (courier_id, run_date) DO NOTHING RETURNING id`,
      [run.id, run.courierId, run.hubId, run.date]
    );
    if (inserted.length > 0) await writeStops(tx, run.id, run.stops);
    return (await findRunOf(tx, run.courierId, run.date))!;
  });
}

/** Replaces the run's stops, in the order given; the caller holds the run's lock. */
export async function writeStops(tx: Queryable, runId: string, stops: readonly StopRef[]): Promise<void> {
  await tx.query("DELETE FROM logistics.run_stops WHERE run_id = $1", [runId]);
  for (const [position, stop] of stops.entries()) {
    await tx.query("INSERT INTO logistics.run_stops (run_id, position, kind, ref) VALUES ($1, $2, $3, $4)", [
      runId,
      position,
      stop.kind,
      stop.ref
    ]);
  }
  await tx.query("UPDATE logistics.runs SET updated_at = now() WHERE id = $1", [runId]);
}

export async function lockRun(tx: Queryable, id: string): Promise<{ courierId: string; date: string } | null> {
  const [row] = await tx.query<{ courier_id: string; run_date: string }>(
    "SELECT courier_id, to_char(run_date, 'YYYY-MM-DD') AS run_date FROM logistics.runs WHERE id = $1 FOR UPDATE",
    [id]
  );
  return row ? { courierId: row.courier_id, date: row.run_date } : null;
}

export async function assignCourier(tx: Queryable, runId: string, courierId: string, hubId: string): Promise<void> {
  await tx.query("UPDATE logistics.runs SET courier_id = $2, hub_id = $3, updated_at = now() WHERE id = $1", [runId, courierId, hubId]);
}

/**
 * Parcels whose last scan put them in this hub (a scan in, not yet out): what the hub holds to
 * send on. Latest scan per parcel, so a parcel that left is not counted.
 */
export async function parcelIdsHeldByHub(db: Queryable, hubId: string): Promise<string[]> {
  const rows = await db.query<{ parcel_id: string }>(
    `SELECT parcel_id FROM (
       SELECT DISTINCT ON (parcel_id) parcel_id, holder_kind, holder_id FROM logistics.scans
        WHERE parcel_id IN (SELECT parcel_id FROM logistics.scans WHERE hub_id = $1 AND kind = 'hub.in')
        ORDER BY parcel_id, occurred_at DESC, recorded_at DESC, id DESC
     ) last WHERE holder_kind = 'hub' AND holder_id = $2 LIMIT 500`,
    [hubId, hubId]
  );
  return rows.map(r => r.parcel_id);
}

/** Parcels whose last scan put them with this courier (collected at a merchant, loaded at the hub). */
export async function parcelIdsHeldByCourier(db: Queryable, courierId: string): Promise<Array<{ parcelId: string; kind: string }>> {
  const rows = await db.query<{ parcel_id: string; kind: string }>(
    `SELECT parcel_id, kind FROM (
       SELECT DISTINCT ON (parcel_id) parcel_id, kind, holder_kind, holder_id FROM logistics.scans
        WHERE parcel_id IN (SELECT parcel_id FROM logistics.scans WHERE holder_kind = 'courier' AND holder_id = $1)
        ORDER BY parcel_id, occurred_at DESC, recorded_at DESC, id DESC
     ) last WHERE holder_kind = 'courier' AND holder_id = $1 LIMIT 500`,
    [courierId]
  );
  return rows.map(r => ({ parcelId: r.parcel_id, kind: r.kind }));
}

export async function insertVisit(
  db: Queryable,
  v: { id: string; courierId: string; relayCode: string; arrivedAt: Date; passExpiresAt: Date }
): Promise<{ id: string; arrivedAt: string }> {
  await db.query(
    `INSERT INTO logistics.relay_visits (id, courier_id, relay_code, arrived_at, pass_expires_at) VALUES ($1, $2, $3, $4, $5)
     ON CONFLICT (id) DO NOTHING`,
    [v.id, v.courierId, v.relayCode, v.arrivedAt, v.passExpiresAt]
  );
  const [row] = await db.query<{ id: string; arrived_at: Date }>("SELECT id, arrived_at FROM logistics.relay_visits WHERE id = $1", [v.id]);
  return { id: row.id, arrivedAt: row.arrived_at.toISOString() };
}

/** The courier's latest visit to the relay point since `since`, proved by its pass; null if none. */
export async function lastVisit(db: Queryable, courierId: string, relayCode: string, since: Date): Promise<string | null> {
  const [row] = await db.query<{ id: string }>(
    `SELECT id FROM logistics.relay_visits WHERE courier_id = $1 AND relay_code = $2 AND arrived_at >= $3
      ORDER BY arrived_at DESC LIMIT 1`,
    [courierId, relayCode, since]
  );
  return row?.id ?? null;
}
