import type { Queryable } from "../../../lib/db/database";
import type { ParcelStatus } from "../../../lib/parcel-status";
import { ParcelRecord, ParcelRow, toParcel } from "../parcels.store";
import type { Denominations } from "../cash/denominations";

/**
 * The SQL of relay operations (migration parcels/007): a relay point's settings (capacity, holding
 * days), its shelf, its till and closings, and returns leaving with the courier. A relay point
 * sees live parcels only: sandbox parcels never reach a counter.
 */

export interface RelaySettings {
  capacity: number;
  /** Null: the platform's HOLDING_DAYS. */
  holdingDays: number | null;
}

export interface CounterRelayPoint extends RelaySettings {
  code: string;
  name: string;
  nameAr: string | null;
  wilaya: string | null;
  createdAt: Date;
}

/** A parcel as the counter sees it: the record, and when it reached the shelf and left it as a return. */
export interface ShelfParcel {
  parcel: ParcelRecord;
  arrivedAt: Date | null;
  returnDispatchedAt: Date | null;
  pickupDeadline: Date | null;
  /** The current pickup pass's version (issue 43, migration parcels/027): an older pass is void. */
  passVersion: number;
}

/** `pickup_deadline` is the holding period's (migration parcels/008), read here for the counter's view. */
type ShelfRow = ParcelRow & {
  arrived_at: Date | null;
  return_dispatched_at: Date | null;
  pickup_deadline: Date | null;
  pickup_pass_version: number;
};

function toShelfParcel(row: ShelfRow): ShelfParcel {
  return {
    parcel: toParcel(row),
    arrivedAt: row.arrived_at,
    returnDispatchedAt: row.return_dispatched_at,
    pickupDeadline: row.pickup_deadline,
    passVersion: row.pickup_pass_version
  };
}

/** What the counter deals with: coming in, on the shelf, a return not yet handed to the courier, or a customer's return dropped off. */
export const COUNTER_STATUSES = [
  "READY_FOR_PICKUP",
  "IN_TRANSIT",
  "AT_RELAY",
  "RELAY_NOTIFIED",
  "RETURN_PENDING"
] as const satisfies readonly ParcelStatus[];

/** On the shelf: arrived, and neither handed over nor gone back with the courier. */
const ON_SHELF = `(status IN ('AT_RELAY', 'RELAY_NOTIFIED')
  OR (status = 'RETURN_PENDING' AND arrived_at IS NOT NULL AND return_dispatched_at IS NULL))`;
/** Customers' returns dropped off here (issue 21), waiting for the courier: the outgoing list. */
const OUTGOING = "(origin_relay_code = $1 AND status = 'READY_FOR_PICKUP')";
const AT_COUNTER = `mode = 'live' AND ((destination_relay_code = $1 AND (status = 'IN_TRANSIT' OR ${ON_SHELF})) OR ${OUTGOING})`;

// --- settings -----------------------------------------------------------------------------------

export async function relaySettingsOf(db: Queryable, codes: readonly string[]): Promise<Map<string, RelaySettings>> {
  const rows = await db.query<{ code: string; capacity: number; holding_days: number | null }>(
    "SELECT code, capacity, holding_days FROM parcels.relay_points WHERE code = ANY($1::text[])",
    [codes]
  );
  return new Map(
    rows.map(r => [r.code, { capacity: Number(r.capacity), holdingDays: r.holding_days === null ? null : Number(r.holding_days) }])
  );
}

export async function setRelaySettings(db: Queryable, code: string, settings: RelaySettings): Promise<void> {
  await db.query("UPDATE parcels.relay_points SET capacity = $2, holding_days = $3 WHERE code = $1", [
    code,
    settings.capacity,
    settings.holdingDays
  ]);
}

interface CounterRow {
  code: string;
  name: string;
  name_ar: string | null;
  wilaya: string | null;
  capacity: number;
  holding_days: number | null;
  created_at: Date;
}

const toCounter = (r: CounterRow): CounterRelayPoint => ({
  code: r.code,
  name: r.name,
  nameAr: r.name_ar,
  wilaya: r.wilaya,
  capacity: Number(r.capacity),
  holdingDays: r.holding_days === null ? null : Number(r.holding_days),
  createdAt: r.created_at
});

export async function findCounter(db: Queryable, code: string): Promise<CounterRelayPoint | null> {
  const [row] = await db.query<CounterRow>(
    "SELECT code, name, name_ar, wilaya, capacity, holding_days, created_at FROM parcels.relay_points WHERE code = $1",
    [code]
  );
  return row ? toCounter(row) : null;
}

/**
 * The relay point's row, locked: what serialises the shelf's arrivals (the capacity check and the
 * arrival in one transaction) and the till's closings. Taken before any parcel lock.
 */
export async function lockCounter(tx: Queryable, code: string): Promise<CounterRelayPoint | null> {
  const [row] = await tx.query<CounterRow>(
    "SELECT code, name, name_ar, wilaya, capacity, holding_days, created_at FROM parcels.relay_points WHERE code = $1 FOR UPDATE",
    [code]
  );
  return row ? toCounter(row) : null;
}

// --- the shelf ----------------------------------------------------------------------------------

export async function countOnShelf(db: Queryable, code: string): Promise<number> {
  const [{ n }] = await db.query<{ n: number }>(
    `SELECT count(*)::integer AS n FROM parcels.parcels WHERE mode = 'live' AND destination_relay_code = $1 AND ${ON_SHELF}`,
    [code]
  );
  return Number(n);
}

/** Live parcels on each point's shelf, by code (a point with none is absent): one query for a page of points. */
export async function countsOnShelf(db: Queryable, codes: readonly string[]): Promise<Map<string, number>> {
  if (codes.length === 0) return new Map();
  const rows = await db.query<{ code: string; n: number }>(
    `SELECT destination_relay_code AS code, count(*)::integer AS n FROM parcels.parcels
      WHERE mode = 'live' AND destination_relay_code = ANY($1::text[]) AND ${ON_SHELF} GROUP BY destination_relay_code`,
    [codes]
  );
  return new Map(rows.map(r => [r.code, Number(r.n)]));
}

export async function listAtCounter(
  db: Queryable,
  code: string,
  filter: { status: ParcelStatus | null; page: number; size: number }
): Promise<{ records: ShelfParcel[]; total: number }> {
  const params: unknown[] = [code, filter.status];
  const where = `${AT_COUNTER} AND ($2::text IS NULL OR status = $2)`;
  const [{ n }] = await db.query<{ n: number }>(`SELECT count(*)::integer AS n FROM parcels.parcels WHERE ${where}`, params);
  const rows = await db.query<ShelfRow>(`SELECT * FROM parcels.parcels WHERE ${where} ORDER BY created_at, id LIMIT $3 OFFSET $4`, [
    ...params,
    filter.size,
    filter.page * filter.size
  ]);
  return { records: rows.map(toShelfParcel), total: Number(n) };
}

/** Every parcel at the counter now (optionally of one status), oldest first: the shelf search's candidates. */
export async function allAtCounter(db: Queryable, code: string, status: ParcelStatus | null): Promise<ShelfParcel[]> {
  const rows = await db.query<ShelfRow>(
    `SELECT * FROM parcels.parcels WHERE ${AT_COUNTER} AND ($2::text IS NULL OR status = $2) ORDER BY created_at, id`,
    [code, status]
  );
  return rows.map(toShelfParcel);
}

/**
 * One live parcel of this relay point by its number, whatever its status: addressed here, or a
 * customer's return dropped off here. Null for any other (unknown, sandbox, another relay's).
 */
export async function findAtCounter(db: Queryable, code: string, trackingNumber: string): Promise<ShelfParcel | null> {
  const [row] = await db.query<ShelfRow>(
    `SELECT * FROM parcels.parcels WHERE tracking_number = $2 AND mode = 'live' AND status <> 'PENDING'
        AND (destination_relay_code = $1 OR origin_relay_code = $1)`,
    [code, trackingNumber]
  );
  return row ? toShelfParcel(row) : null;
}

/** The counter's operations a day's list shows, by the status they lead to, and whose parcels they are. */
export const OPERATION_STATUSES = ["DELIVERED", "RETURN_PENDING", "READY_FOR_PICKUP"] as const satisfies readonly ParcelStatus[];
export type OperationStatus = (typeof OPERATION_STATUSES)[number];

/**
 * The parcels this counter moved to `status` since a time, by the time of that change (its
 * history line: the scan's time for a queued operation): hand-overs (DELIVERED), refusals
 * (RETURN_PENDING by an agent or operator, not a holding period's end) and drop-offs
 * (READY_FOR_PICKUP of a customer's return left here).
 */
export async function listOperations(
  db: Queryable,
  code: string,
  filter: { status: OperationStatus; since: Date; page: number; size: number }
): Promise<{ records: ShelfParcel[]; total: number }> {
  const mine = filter.status === "READY_FOR_PICKUP" ? "p.origin_relay_code = $1" : "p.destination_relay_code = $1";
  const from = `FROM parcels.parcels p
    JOIN LATERAL (SELECT max(created_at) AS at FROM parcels.status_history
                   WHERE parcel_id = p.id AND to_status = $2 AND actor = 'operator') h ON h.at IS NOT NULL
   WHERE p.mode = 'live' AND ${mine} AND h.at >= $3`;
  const params: unknown[] = [code, filter.status, filter.since];
  const [{ n }] = await db.query<{ n: number }>(`SELECT count(*)::integer AS n ${from}`, params);
  const rows = await db.query<ShelfRow>(`SELECT p.* ${from} ORDER BY h.at, p.id LIMIT $4 OFFSET $5`, [
    ...params,
    filter.size,
    filter.page * filter.size
  ]);
  return { records: rows.map(toShelfParcel), total: Number(n) };
}

/** A visible parcel by its normalised tracking number, locked for a change; null when there is none. */
export async function lockByTracking(tx: Queryable, trackingNumber: string): Promise<ShelfParcel | null> {
  const [row] = await tx.query<ShelfRow>("SELECT * FROM parcels.parcels WHERE tracking_number = $1 AND status <> 'PENDING' FOR UPDATE", [
    trackingNumber
  ]);
  return row ? toShelfParcel(row) : null;
}

export async function readShelfParcel(db: Queryable, id: string): Promise<ShelfParcel> {
  const [row] = await db.query<ShelfRow>("SELECT * FROM parcels.parcels WHERE id = $1", [id]);
  return toShelfParcel(row);
}

// --- the till -----------------------------------------------------------------------------------

export type Tender = "cash" | "card" | "qr";
export const TENDERS: readonly Tender[] = ["cash", "card", "qr"];

export interface TillItem {
  parcelId: string;
  trackingNumber: string;
  amountCentimes: number;
  deliveredAt: Date;
  tender: Tender;
}

/** A hand-over's cash in the open till, at the time of the hand-over (the scan's, for one sent later). */
export async function addToTill(
  tx: Queryable,
  item: { parcelId: string; relayCode: string; amountCentimes: number; at: Date | null; tender: Tender; tenderReference: string | null }
): Promise<void> {
  await tx.query(
    `INSERT INTO parcels.relay_cash_items (parcel_id, relay_code, amount_centimes, delivered_at, tender, tender_reference)
     VALUES ($1, $2, $3, coalesce($4::timestamptz, now()), $5, $6)`,
    [item.parcelId, item.relayCode, item.amountCentimes, item.at, item.tender, item.tenderReference]
  );
}

export async function openTillItems(db: Queryable, code: string): Promise<TillItem[]> {
  const rows = await db.query<{
    parcel_id: string;
    tracking_number: string;
    amount_centimes: string | number;
    delivered_at: Date;
    tender: Tender;
  }>(
    `SELECT i.parcel_id, p.tracking_number, i.amount_centimes, i.delivered_at, i.tender
       FROM parcels.relay_cash_items i JOIN parcels.parcels p ON p.id = i.parcel_id
      WHERE i.relay_code = $1 AND i.closing_id IS NULL ORDER BY i.delivered_at, i.parcel_id`,
    [code]
  );
  return rows.map(r => ({
    parcelId: r.parcel_id,
    trackingNumber: r.tracking_number,
    amountCentimes: Number(r.amount_centimes),
    deliveredAt: r.delivered_at,
    tender: r.tender
  }));
}

/** When the open till began: the last closing, or the relay point's creation. */
export async function tillOpenedAt(db: Queryable, relay: CounterRelayPoint): Promise<Date> {
  const [row] = await db.query<{ closed_at: Date }>(
    "SELECT closed_at FROM parcels.relay_cash_closings WHERE relay_code = $1 ORDER BY closed_at DESC, id DESC LIMIT 1",
    [relay.code]
  );
  return row?.closed_at ?? relay.createdAt;
}

export interface ClosingRecord {
  id: string;
  relayCode: string;
  itemCount: number;
  expectedCentimes: number;
  countedCentimes: number;
  /** The agent's count by denomination, when it gave one. */
  denominations: Denominations | null;
  openedAt: Date;
  closedAt: Date;
}

interface ClosingRow {
  id: string;
  relay_code: string;
  item_count: number;
  expected_centimes: string | number;
  counted_centimes: string | number;
  denominations: Denominations | null;
  opened_at: Date;
  closed_at: Date;
}

const toClosing = (r: ClosingRow): ClosingRecord => ({
  id: r.id,
  relayCode: r.relay_code,
  itemCount: Number(r.item_count),
  expectedCentimes: Number(r.expected_centimes),
  countedCentimes: Number(r.counted_centimes),
  denominations: r.denominations ?? null,
  openedAt: r.opened_at,
  closedAt: r.closed_at
});

/**
 * Closes the open till, under the relay point's lock (the caller's): the items still open are
 * taken by this closing alone (`closing_id IS NULL`, set once) and what was expected is the sum
 * of exactly those taken, however hand-overs interleave.
 */
export async function closeTill(
  tx: Queryable,
  closing: {
    id: string;
    relayCode: string;
    countedCentimes: number;
    denominations: Denominations | null;
    openedAt: Date;
    agentKeyId: string | null;
  }
): Promise<ClosingRecord> {
  await tx.query(
    `INSERT INTO parcels.relay_cash_closings
       (id, relay_code, item_count, expected_centimes, counted_centimes, denominations, opened_at, agent_key_id)
     VALUES ($1, $2, 0, 0, $3, $4, $5, $6)`,
    [
      closing.id,
      closing.relayCode,
      closing.countedCentimes,
      closing.denominations === null ? null : JSON.stringify(closing.denominations),
      closing.openedAt,
      closing.agentKeyId
    ]
  );
  const taken = await tx.query<{ amount_centimes: string | number; tender: Tender }>(
    "UPDATE parcels.relay_cash_items SET closing_id = $2 WHERE relay_code = $1 AND closing_id IS NULL RETURNING amount_centimes, tender",
    [closing.relayCode, closing.id]
  );
  // The drawer holds the cash: card and QR payments are closed with it, not counted in it.
  const expected = taken.filter(item => item.tender === "cash").reduce((sum, item) => sum + Number(item.amount_centimes), 0);
  const [row] = await tx.query<ClosingRow>(
    "UPDATE parcels.relay_cash_closings SET item_count = $2, expected_centimes = $3 WHERE id = $1 RETURNING *",
    [closing.id, taken.length, expected]
  );
  return toClosing(row);
}

export async function listClosings(
  db: Queryable,
  code: string,
  page: { page: number; size: number }
): Promise<{ records: ClosingRecord[]; total: number }> {
  const [{ n }] = await db.query<{ n: number }>("SELECT count(*)::integer AS n FROM parcels.relay_cash_closings WHERE relay_code = $1", [
    code
  ]);
  const rows = await db.query<ClosingRow>(
    `SELECT * FROM parcels.relay_cash_closings WHERE relay_code = $1 ORDER BY closed_at DESC, id DESC LIMIT $2 OFFSET $3`,
    [code, page.size, page.page * page.size]
  );
  return { records: rows.map(toClosing), total: Number(n) };
}

// --- returns leaving with the courier ------------------------------------------------------------

/** The visible parcels with these numbers, locked in id order (two dispatches never deadlock). */
export async function lockByTrackingNumbers(tx: Queryable, trackingNumbers: readonly string[]): Promise<ShelfParcel[]> {
  const rows = await tx.query<ShelfRow>(
    "SELECT * FROM parcels.parcels WHERE tracking_number = ANY($1::text[]) AND status <> 'PENDING' ORDER BY id FOR UPDATE",
    [trackingNumbers]
  );
  return rows.map(toShelfParcel);
}

export async function markReturnsDispatched(tx: Queryable, parcelIds: readonly string[]): Promise<void> {
  await tx.query(
    "UPDATE parcels.parcels SET return_dispatched_at = now(), updated_at = now() WHERE id = ANY($1::uuid[]) AND return_dispatched_at IS NULL",
    [parcelIds]
  );
}
