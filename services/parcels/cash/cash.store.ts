import type { KeyMode } from "../../../lib/api-keys";
import type { Queryable } from "../../../lib/db/database";
import { PARCEL_COLUMNS } from "../parcel-columns";
import { ParcelRecord, ParcelRow, toParcel } from "../parcels.store";
import type { Denominations } from "./denominations";

/** SQL of the cash custody chain (migration parcels/040): collections, deposits and differences. */

export interface ClosingToCollect {
  id: string;
  expectedCentimes: number;
  countedCentimes: number;
  closedAt: Date;
  /** The agent's count by denomination at the closing, when it gave one. */
  denominations: Denominations | null;
  /** A collection recorded by a courier and not yet confirmed by the agent: the cash is still here. */
  pendingCollectionId: string | null;
}

/** Closings of the relay point not in a confirmed collection (collected_at unset, migration 044), oldest first. */
export async function closingsNotCollected(db: Queryable, relayCode: string): Promise<ClosingToCollect[]> {
  return closingsNotCollectedAt(db, [relayCode]);
}

/** The same for several relay points at once (a courier's run), each closing with its relay point. */
export async function closingsNotCollectedAt(
  db: Queryable,
  relayCodes: readonly string[]
): Promise<Array<ClosingToCollect & { relayCode: string }>> {
  const rows = await db.query<{
    id: string;
    relay_code: string;
    expected_centimes: string;
    counted_centimes: string;
    closed_at: Date;
    denominations: Denominations | null;
    collection_id: string | null;
  }>(
    `SELECT k.id, k.relay_code, k.expected_centimes, k.counted_centimes, k.closed_at, k.denominations, cc.collection_id
       FROM parcels.relay_cash_closings k
       LEFT JOIN parcels.cash_collection_closings cc ON cc.closing_id = k.id
      WHERE k.relay_code = ANY($1::text[]) AND k.collected_at IS NULL
      ORDER BY k.closed_at, k.id`,
    [relayCodes]
  );
  return rows.map(r => ({
    id: r.id,
    relayCode: r.relay_code,
    expectedCentimes: Number(r.expected_centimes),
    countedCentimes: Number(r.counted_centimes),
    closedAt: r.closed_at,
    denominations: r.denominations ?? null,
    pendingCollectionId: r.collection_id
  }));
}

export interface CollectionRecord {
  id: string;
  relayCode: string;
  courierId: string;
  courierKeyId: string;
  hubId: string;
  expectedCentimes: number;
  previousCountCentimes: number;
  courierCountedCentimes: number;
  courierDenominations: Denominations;
  agentCountedCentimes: number | null;
  agentDenominations: Denominations | null;
  agentKeyId: string | null;
  occurredAt: Date;
  confirmedAt: Date | null;
  cancelledAt: Date | null;
  closingIds: string[];
  depositId: string | null;
}

interface CollectionRow {
  id: string;
  relay_code: string;
  courier_id: string;
  courier_key_id: string;
  hub_id: string;
  expected_centimes: string;
  previous_count_centimes: string;
  courier_counted_centimes: string;
  courier_denominations: Denominations;
  agent_counted_centimes: string | null;
  agent_denominations: Denominations | null;
  agent_key_id: string | null;
  occurred_at: Date;
  confirmed_at: Date | null;
  cancelled_at: Date | null;
  closing_ids: string[] | null;
  deposit_id: string | null;
}

const toCollection = (r: CollectionRow): CollectionRecord => ({
  id: r.id,
  relayCode: r.relay_code,
  courierId: r.courier_id,
  courierKeyId: r.courier_key_id,
  hubId: r.hub_id,
  expectedCentimes: Number(r.expected_centimes),
  previousCountCentimes: Number(r.previous_count_centimes),
  courierCountedCentimes: Number(r.courier_counted_centimes),
  courierDenominations: r.courier_denominations,
  agentCountedCentimes: r.agent_counted_centimes === null ? null : Number(r.agent_counted_centimes),
  agentDenominations: r.agent_denominations,
  agentKeyId: r.agent_key_id,
  occurredAt: r.occurred_at,
  confirmedAt: r.confirmed_at,
  cancelledAt: r.cancelled_at ?? null,
  closingIds: [...(r.closing_ids ?? [])].sort(),
  depositId: r.deposit_id
});

const COLLECTION_SELECT = `
  SELECT c.*, dc.deposit_id,
         (SELECT array_agg(cc.closing_id::text) FROM parcels.cash_collection_closings cc WHERE cc.collection_id = c.id) AS closing_ids
    FROM parcels.cash_collections c
    LEFT JOIN parcels.cash_deposit_collections dc ON dc.collection_id = c.id`;

export async function findCollection(db: Queryable, id: string): Promise<CollectionRecord | null> {
  const [row] = await db.query<CollectionRow>(`${COLLECTION_SELECT} WHERE c.id = $1`, [id]);
  return row ? toCollection(row) : null;
}

/** Locks the closings named (the caller holds the relay point's lock) and says which are already taken. */
export async function takenClosings(tx: Queryable, closingIds: readonly string[]): Promise<Set<string>> {
  const rows = await tx.query<{ closing_id: string }>(
    "SELECT closing_id FROM parcels.cash_collection_closings WHERE closing_id = ANY($1::uuid[])",
    [closingIds]
  );
  return new Set(rows.map(r => r.closing_id));
}

export async function closingsOfRelay(tx: Queryable, relayCode: string, ids: readonly string[]) {
  const rows = await tx.query<{ id: string; expected_centimes: string; counted_centimes: string }>(
    "SELECT id, expected_centimes, counted_centimes FROM parcels.relay_cash_closings WHERE relay_code = $1 AND id = ANY($2::uuid[])",
    [relayCode, ids]
  );
  return rows.map(r => ({ id: r.id, expectedCentimes: Number(r.expected_centimes), countedCentimes: Number(r.counted_centimes) }));
}

/** Inserts the collection once (its id comes from the Idempotency-Key): false when it was there already. */
export async function insertCollection(
  tx: Queryable,
  c: Omit<CollectionRecord, "agentCountedCentimes" | "agentDenominations" | "agentKeyId" | "confirmedAt" | "cancelledAt" | "depositId">
): Promise<boolean> {
  const inserted = await tx.query(
    `INSERT INTO parcels.cash_collections
       (id, relay_code, courier_id, courier_key_id, hub_id, expected_centimes, previous_count_centimes, courier_counted_centimes,
        courier_denominations, occurred_at)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10) ON CONFLICT (id) DO NOTHING RETURNING id`,
    [
      c.id,
      c.relayCode,
      c.courierId,
      c.courierKeyId,
      c.hubId,
      c.expectedCentimes,
      c.previousCountCentimes,
      c.courierCountedCentimes,
      JSON.stringify(c.courierDenominations),
      c.occurredAt
    ]
  );
  if (inserted.length === 0) return false;
  await tx.query("INSERT INTO parcels.cash_collection_closings (closing_id, collection_id) SELECT unnest($1::uuid[]), $2", [
    c.closingIds,
    c.id
  ]);
  return true;
}

export async function lockCollection(tx: Queryable, id: string): Promise<void> {
  await tx.query("SELECT id FROM parcels.cash_collections WHERE id = $1 FOR UPDATE", [id]);
}

export async function confirmCollection(
  tx: Queryable,
  id: string,
  agent: { keyId: string; countedCentimes: number; denominations: Denominations }
): Promise<void> {
  // The closings it took are collected from now on (migration 044): off the index of uncollected ones.
  await tx.query(
    `WITH confirmed AS (
       UPDATE parcels.cash_collections
          SET agent_counted_centimes = $2, agent_denominations = $3, agent_key_id = $4, confirmed_at = now()
        WHERE id = $1 AND confirmed_at IS NULL AND cancelled_at IS NULL
        RETURNING id, confirmed_at)
     UPDATE parcels.relay_cash_closings k SET collected_at = confirmed.confirmed_at
       FROM parcels.cash_collection_closings cc, confirmed
      WHERE cc.collection_id = confirmed.id AND k.id = cc.closing_id`,
    [id, agent.countedCentimes, JSON.stringify(agent.denominations), agent.keyId]
  );
}

/**
 * The courier's confirmed collections not yet handed in. Its collections are locked first, then read
 * in a second statement: a deposit committed meanwhile is seen, so a collection goes in one deposit.
 */
export async function lockCollectionsAboard(tx: Queryable, courierId: string): Promise<CollectionRecord[]> {
  await tx.query("SELECT id FROM parcels.cash_collections WHERE courier_id = $1 AND confirmed_at IS NOT NULL ORDER BY id FOR UPDATE", [
    courierId
  ]);
  const rows = await tx.query<CollectionRow>(
    `${COLLECTION_SELECT} WHERE c.courier_id = $1 AND c.confirmed_at IS NOT NULL AND dc.deposit_id IS NULL ORDER BY c.id`,
    [courierId]
  );
  return rows.map(toCollection);
}

export interface DepositRecord {
  id: string;
  hubId: string;
  courierId: string;
  courierKeyId: string;
  expectedCentimes: number;
  previousCountCentimes: number;
  courierCountedCentimes: number;
  courierDenominations: Denominations;
  hubCountedCentimes: number | null;
  hubDenominations: Denominations | null;
  hubKeyId: string | null;
  occurredAt: Date;
  confirmedAt: Date | null;
  collectionIds: string[];
}

interface DepositRow {
  id: string;
  hub_id: string;
  courier_id: string;
  courier_key_id: string;
  expected_centimes: string;
  previous_count_centimes: string;
  courier_counted_centimes: string;
  courier_denominations: Denominations;
  hub_counted_centimes: string | null;
  hub_denominations: Denominations | null;
  hub_key_id: string | null;
  occurred_at: Date;
  confirmed_at: Date | null;
  collection_ids: string[] | null;
}

const toDeposit = (r: DepositRow): DepositRecord => ({
  id: r.id,
  hubId: r.hub_id,
  courierId: r.courier_id,
  courierKeyId: r.courier_key_id,
  expectedCentimes: Number(r.expected_centimes),
  previousCountCentimes: Number(r.previous_count_centimes),
  courierCountedCentimes: Number(r.courier_counted_centimes),
  courierDenominations: r.courier_denominations,
  hubCountedCentimes: r.hub_counted_centimes === null ? null : Number(r.hub_counted_centimes),
  hubDenominations: r.hub_denominations,
  hubKeyId: r.hub_key_id,
  occurredAt: r.occurred_at,
  confirmedAt: r.confirmed_at,
  collectionIds: [...(r.collection_ids ?? [])].sort()
});

const DEPOSIT_SELECT = `
  SELECT d.*, (SELECT array_agg(dc.collection_id::text) FROM parcels.cash_deposit_collections dc WHERE dc.deposit_id = d.id) AS collection_ids
    FROM parcels.cash_deposits d`;

export async function findDeposit(db: Queryable, id: string): Promise<DepositRecord | null> {
  const [row] = await db.query<DepositRow>(`${DEPOSIT_SELECT} WHERE d.id = $1`, [id]);
  return row ? toDeposit(row) : null;
}

/**
 * The deposits made at a hub and not yet confirmed, the courier's declared time newest first: the
 * hub's list to count and confirm (through cash_deposits_hub_pending, migration parcels/043, which
 * holds only these rows).
 */
export async function pendingDepositsAt(
  db: Queryable,
  hubId: string,
  page: number,
  size: number
): Promise<{ records: DepositRecord[]; total: number }> {
  const [rows, [count]] = await Promise.all([
    db.query<DepositRow>(
      `${DEPOSIT_SELECT} WHERE d.hub_id = $1 AND d.confirmed_at IS NULL ORDER BY d.occurred_at DESC, d.id DESC LIMIT $2 OFFSET $3`,
      [hubId, size, page * size]
    ),
    db.query<{ n: string }>("SELECT count(*) AS n FROM parcels.cash_deposits WHERE hub_id = $1 AND confirmed_at IS NULL", [hubId])
  ]);
  return { records: rows.map(toDeposit), total: Number(count.n) };
}

export async function insertDeposit(
  tx: Queryable,
  d: Omit<DepositRecord, "hubCountedCentimes" | "hubDenominations" | "hubKeyId" | "confirmedAt">
): Promise<void> {
  await tx.query(
    `INSERT INTO parcels.cash_deposits
       (id, hub_id, courier_id, courier_key_id, expected_centimes, previous_count_centimes, courier_counted_centimes,
        courier_denominations, occurred_at)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9)`,
    [
      d.id,
      d.hubId,
      d.courierId,
      d.courierKeyId,
      d.expectedCentimes,
      d.previousCountCentimes,
      d.courierCountedCentimes,
      JSON.stringify(d.courierDenominations),
      d.occurredAt
    ]
  );
  await tx.query("INSERT INTO parcels.cash_deposit_collections (collection_id, deposit_id) SELECT unnest($1::uuid[]), $2", [
    d.collectionIds,
    d.id
  ]);
}

export async function lockDeposit(tx: Queryable, id: string): Promise<void> {
  await tx.query("SELECT id FROM parcels.cash_deposits WHERE id = $1 FOR UPDATE", [id]);
}

export async function confirmDeposit(
  tx: Queryable,
  id: string,
  hub: { keyId: string; countedCentimes: number; denominations: Denominations }
): Promise<void> {
  await tx.query(
    `UPDATE parcels.cash_deposits SET hub_counted_centimes = $2, hub_denominations = $3, hub_key_id = $4, confirmed_at = now()
      WHERE id = $1 AND confirmed_at IS NULL`,
    [id, hub.countedCentimes, JSON.stringify(hub.denominations), hub.keyId]
  );
}

/** The cash a courier carries: collected (the agent confirmed) and not yet confirmed by the hub. */
export async function aboardCentimes(db: Queryable, courierId: string): Promise<number> {
  const [row] = await db.query<{ aboard: string }>(
    `SELECT coalesce(sum(c.expected_centimes), 0) AS aboard
       FROM parcels.cash_collections c
       LEFT JOIN parcels.cash_deposit_collections dc ON dc.collection_id = c.id
       LEFT JOIN parcels.cash_deposits d ON d.id = dc.deposit_id
      WHERE c.courier_id = $1 AND c.confirmed_at IS NOT NULL AND d.confirmed_at IS NULL`,
    [courierId]
  );
  return Number(row.aboard);
}

export interface CountRecord {
  by: "courier" | "agent" | "hub";
  keyId: string;
  centimes: number;
  denominations: Denominations;
}

/** CLOSING: the agent's count by denomination at a till's closing (no courier, no hub). */
export type DifferenceStage = "CLOSING" | "COLLECTION" | "DEPOSIT";

export interface DifferenceRecord {
  id: string;
  stage: DifferenceStage;
  handOffId: string;
  relayCode: string | null;
  hubId: string | null;
  courierId: string | null;
  expectedCentimes: number;
  previousCountCentimes: number;
  counts: CountRecord[];
  recordedAt: Date;
}

/** Once per hand-off (hand_off_id is unique): a confirmation sent twice records it once. */
export async function recordDifference(tx: Queryable, d: Omit<DifferenceRecord, "recordedAt">): Promise<void> {
  await tx.query(
    `INSERT INTO parcels.cash_differences (id, stage, hand_off_id, relay_code, hub_id, courier_id, expected_centimes, previous_count_centimes, counts)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9) ON CONFLICT (hand_off_id) DO NOTHING`,
    [d.id, d.stage, d.handOffId, d.relayCode, d.hubId, d.courierId, d.expectedCentimes, d.previousCountCentimes, JSON.stringify(d.counts)]
  );
}

export async function listDifferences(db: Queryable, page: number, size: number): Promise<{ records: DifferenceRecord[]; total: number }> {
  const rows = await db.query<{
    id: string;
    stage: DifferenceStage;
    hand_off_id: string;
    relay_code: string | null;
    hub_id: string | null;
    courier_id: string | null;
    expected_centimes: string;
    previous_count_centimes: string;
    counts: CountRecord[];
    recorded_at: Date;
  }>("SELECT * FROM parcels.cash_differences ORDER BY recorded_at DESC, id DESC LIMIT $1 OFFSET $2", [size, page * size]);
  const [count] = await db.query<{ n: string }>("SELECT count(*) AS n FROM parcels.cash_differences");
  return {
    total: Number(count.n),
    records: rows.map(r => ({
      id: r.id,
      stage: r.stage,
      handOffId: r.hand_off_id,
      relayCode: r.relay_code,
      hubId: r.hub_id,
      courierId: r.courier_id,
      expectedCentimes: Number(r.expected_centimes),
      previousCountCentimes: Number(r.previous_count_centimes),
      counts: r.counts,
      recordedAt: r.recorded_at
    }))
  };
}

/**
 * The merchant's `codCashAt` of the parcels paid in cash in a confirmed hand-off: their rows locked
 * in id order first, the order a remittance locks them in, so the two never wait on each other in a cycle.
 */
export async function moveCashOfHandOff(
  tx: Queryable,
  handOff: { collectionId: string } | { depositId: string },
  place: "COURIER" | "CARRIER"
): Promise<ParcelRecord[]> {
  const collections =
    "collectionId" in handOff ? "SELECT $1::uuid" : "SELECT collection_id FROM parcels.cash_deposit_collections WHERE deposit_id = $1";
  const parcels = await tx.query<{ id: string }>(
    `SELECT p.id FROM parcels.parcels p
       JOIN parcels.relay_cash_items i ON i.parcel_id = p.id AND i.tender = 'cash'
       JOIN parcels.cash_collection_closings cc ON cc.closing_id = i.closing_id
      WHERE cc.collection_id IN (${collections})
      ORDER BY p.id FOR UPDATE OF p`,
    ["collectionId" in handOff ? handOff.collectionId : handOff.depositId]
  );
  if (parcels.length === 0) return [];
  const rows = await tx.query<ParcelRow>(
    `UPDATE parcels.parcels SET cod_cash_at = $2 WHERE id = ANY($1::uuid[]) RETURNING ${PARCEL_COLUMNS}`,
    [parcels.map(p => p.id), place]
  );
  return rows.map(toParcel);
}

/** Frees the closings of a collection not confirmed: the next courier may take them. */
export async function cancelCollection(tx: Queryable, id: string): Promise<void> {
  await tx.query(
    "UPDATE parcels.cash_collections SET cancelled_at = now() WHERE id = $1 AND confirmed_at IS NULL AND cancelled_at IS NULL",
    [id]
  );
  await tx.query("DELETE FROM parcels.cash_collection_closings WHERE collection_id = $1", [id]);
}

/** Issue 45 B: an organisation's cash parcels whose cash a hub confirmed and no remittance paid yet, oldest deposit first. */
export async function cashAtCarrier(db: Queryable, organizationId: string) {
  return db.query<{
    parcel_id: string;
    tracking_number: string;
    mode: KeyMode;
    amount_centimes: string;
    deposit_id: string;
    hub_id: string;
    confirmed_at: Date;
  }>(
    `SELECT p.id AS parcel_id, p.tracking_number, p.mode, i.amount_centimes, d.id AS deposit_id, d.hub_id, d.confirmed_at
       FROM parcels.parcels p
       JOIN parcels.relay_cash_items i ON i.parcel_id = p.id AND i.tender = 'cash'
       JOIN parcels.cash_collection_closings cc ON cc.closing_id = i.closing_id
       JOIN parcels.cash_deposit_collections dc ON dc.collection_id = cc.collection_id
       JOIN parcels.cash_deposits d ON d.id = dc.deposit_id AND d.confirmed_at IS NOT NULL
      WHERE p.organization_id = $1 AND p.cod_status = 'COLLECTED'
      ORDER BY d.confirmed_at, d.id, p.tracking_number`,
    [organizationId]
  );
}
