import type { Queryable } from "../../lib/db/database";

export interface RelayPoint {
  code: string;
  name: string;
  city: string;
  wilaya: string | null;
  address: string | null;
  active: boolean;
}

const COLUMNS = "code, name, city, wilaya, address, active";

/** Adds the shipped directory's points that are missing; never overwrites an operator's edit. */
export async function seedRelayPoints(db: Queryable, points: RelayPoint[]): Promise<void> {
  for (const p of points) {
    await db.query(
      `INSERT INTO parcels.relay_points (${COLUMNS}) VALUES ($1, $2, $3, $4, $5, $6) ON CONFLICT (code) DO NOTHING`,
      [p.code, p.name, p.city, p.wilaya, p.address, p.active]
    );
  }
}

export async function upsertRelayPoint(db: Queryable, p: RelayPoint): Promise<RelayPoint> {
  const [row] = await db.query<RelayPoint>(
    `INSERT INTO parcels.relay_points (${COLUMNS}) VALUES ($1, $2, $3, $4, $5, $6)
     ON CONFLICT (code) DO UPDATE SET name = EXCLUDED.name, city = EXCLUDED.city, wilaya = EXCLUDED.wilaya,
       address = EXCLUDED.address, active = EXCLUDED.active, updated_at = now()
     RETURNING ${COLUMNS}`,
    [p.code, p.name, p.city, p.wilaya, p.address, p.active]
  );
  return row;
}

export async function findRelayPoint(db: Queryable, code: string): Promise<RelayPoint | null> {
  const [row] = await db.query<RelayPoint>(`SELECT ${COLUMNS} FROM parcels.relay_points WHERE code = $1`, [code]);
  return row ?? null;
}

export async function listRelayPoints(db: Queryable): Promise<RelayPoint[]> {
  return db.query<RelayPoint>(`SELECT ${COLUMNS} FROM parcels.relay_points ORDER BY code`);
}
