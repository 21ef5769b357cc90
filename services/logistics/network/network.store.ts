import type { Queryable } from "../../../lib/db/database";

/** The SQL of hubs, couriers and custody scans (migration logistics/001). */

export interface Hub {
  id: string;
  code: string;
  wilaya: string;
  name: string;
  address: string;
  createdAt: string;
}

export interface CourierRecord {
  id: string;
  firstName: string;
  lastName: string;
  phoneEnc: string;
  homeHubId: string;
  active: boolean;
  createdAt: string;
}

interface HubRow {
  id: string;
  code: string;
  wilaya_code: number;
  name: string;
  address: string;
  created_at: Date;
}

const toHub = (r: HubRow): Hub => ({
  id: r.id,
  code: r.code,
  wilaya: String(r.wilaya_code).padStart(2, "0"),
  name: r.name,
  address: r.address,
  createdAt: r.created_at.toISOString()
});

export async function insertHub(
  db: Queryable,
  hub: { id: string; code: string; wilaya: string; name: string; address: string }
): Promise<Hub> {
  const [row] = await db.query<HubRow>(
    "INSERT INTO logistics.hubs (id, code, wilaya_code, name, address) VALUES ($1, $2, $3, $4, $5) RETURNING *",
    [hub.id, hub.code, Number(hub.wilaya), hub.name, hub.address]
  );
  return toHub(row);
}

export async function listHubs(db: Queryable): Promise<Hub[]> {
  return (await db.query<HubRow>("SELECT * FROM logistics.hubs ORDER BY code LIMIT 1000")).map(toHub);
}

export async function findHub(db: Queryable, id: string): Promise<Hub | null> {
  const [row] = await db.query<HubRow>("SELECT * FROM logistics.hubs WHERE id = $1", [id]);
  return row ? toHub(row) : null;
}

interface CourierRow {
  id: string;
  first_name: string;
  last_name: string;
  phone_enc: string;
  home_hub_id: string;
  active: boolean;
  created_at: Date;
}

const toCourier = (r: CourierRow): CourierRecord => ({
  id: r.id,
  firstName: r.first_name,
  lastName: r.last_name,
  phoneEnc: r.phone_enc,
  homeHubId: r.home_hub_id,
  active: r.active,
  createdAt: r.created_at.toISOString()
});

export async function insertCourier(
  db: Queryable,
  c: { id: string; firstName: string; lastName: string; phoneEnc: string; homeHubId: string }
): Promise<CourierRecord> {
  const [row] = await db.query<CourierRow>(
    "INSERT INTO logistics.couriers (id, first_name, last_name, phone_enc, home_hub_id) VALUES ($1, $2, $3, $4, $5) RETURNING *",
    [c.id, c.firstName, c.lastName, c.phoneEnc, c.homeHubId]
  );
  return toCourier(row);
}

export async function listCouriers(db: Queryable): Promise<CourierRecord[]> {
  return (await db.query<CourierRow>("SELECT * FROM logistics.couriers ORDER BY created_at, id LIMIT 1000")).map(toCourier);
}

export async function findCourier(db: Queryable, id: string): Promise<CourierRecord | null> {
  const [row] = await db.query<CourierRow>("SELECT * FROM logistics.couriers WHERE id = $1", [id]);
  return row ? toCourier(row) : null;
}

export type HolderKind = "merchant" | "courier" | "hub" | "relay" | "recipient";

export interface ScanRecord {
  id: string;
  parcelId: string;
  kind: string;
  holderKind: HolderKind;
  holderId: string | null;
  giverKind: HolderKind | null;
  giverId: string | null;
  hubId: string | null;
  pickupId: string | null;
  confirmedBy: string | null;
  occurredAt: string;
  recordedAt: string;
}

interface ScanRow {
  id: string;
  parcel_id: string;
  kind: string;
  holder_kind: HolderKind;
  holder_id: string | null;
  giver_kind: HolderKind | null;
  giver_id: string | null;
  hub_id: string | null;
  pickup_id: string | null;
  confirmed_by: string | null;
  occurred_at: Date;
  recorded_at: Date;
}

const toScan = (r: ScanRow): ScanRecord => ({
  id: r.id,
  parcelId: r.parcel_id,
  kind: r.kind,
  holderKind: r.holder_kind,
  holderId: r.holder_id,
  giverKind: r.giver_kind,
  giverId: r.giver_id,
  hubId: r.hub_id,
  pickupId: r.pickup_id,
  confirmedBy: r.confirmed_by,
  occurredAt: r.occurred_at.toISOString(),
  recordedAt: r.recorded_at.toISOString()
});

/** A scan; its id is derived from the device's Idempotency-Key, so a repeat inserts nothing (false). */
export async function insertScan(db: Queryable, s: Omit<ScanRecord, "recordedAt" | "occurredAt"> & { occurredAt: Date }): Promise<boolean> {
  const rows = await db.query<{ id: string }>(
    `INSERT INTO logistics.scans (id, parcel_id, kind, holder_kind, holder_id, giver_kind, giver_id, hub_id, pickup_id, confirmed_by, occurred_at)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11) ON CONFLICT (id) DO NOTHING RETURNING id`,
    [s.id, s.parcelId, s.kind, s.holderKind, s.holderId, s.giverKind, s.giverId, s.hubId, s.pickupId, s.confirmedBy, s.occurredAt]
  );
  return rows.length > 0;
}

export async function scansOf(db: Queryable, parcelId: string): Promise<ScanRecord[]> {
  return (
    await db.query<ScanRow>("SELECT * FROM logistics.scans WHERE parcel_id = $1 ORDER BY occurred_at, recorded_at, id", [parcelId])
  ).map(toScan);
}

export async function lastScan(db: Queryable, parcelId: string): Promise<ScanRecord | null> {
  const [row] = await db.query<ScanRow>(
    "SELECT * FROM logistics.scans WHERE parcel_id = $1 ORDER BY occurred_at DESC, recorded_at DESC, id DESC LIMIT 1",
    [parcelId]
  );
  return row ? toScan(row) : null;
}

/** Open pickups of a wilaya (a courier's run): CONFIRMED or IN_PROGRESS, earliest window first. */
export async function openPickupIdsOfWilaya(db: Queryable, wilaya: string): Promise<string[]> {
  const rows = await db.query<{ id: string }>(
    `SELECT id FROM logistics.pickups WHERE status IN ('CONFIRMED', 'IN_PROGRESS') AND mode = 'live' AND address->>'wilaya' = $1
      ORDER BY ready_at, id LIMIT 100`,
    [wilaya]
  );
  return rows.map(r => r.id);
}
