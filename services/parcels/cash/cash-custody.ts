import { randomUUID } from "node:crypto";
import type { Database, Queryable } from "../../../lib/db/database";
import { AppError } from "../../../lib/errors";
import { scanIdOf } from "../../../lib/scan-ids";
import type { ParcelRecord } from "../parcels.store";
import * as relays from "../relay/relay.store";
import { recordCodEvent } from "../status-change";
import * as store from "./cash.store";
import { centimesOf, Denominations, sumOfCounts } from "./denominations";

/**
 * The cash of cash on delivery from a till's closing to the hub (issue 45 B, decision 0063). Each
 * hand-off is two counts: the giver's and the taker's. Until the taker confirms, the cash is still
 * the giver's (a collection not confirmed is at the counter, a deposit not confirmed is aboard). A
 * count is never refused: what the books expect moves on, and a count that differs is recorded in
 * cash_differences with who counted what.
 */

/** Who records a collection or a deposit: a courier's key (lib/staff-keys.ts). */
export interface CourierActor {
  keyId: string;
  courierId: string;
  hubId: string;
}

/** The id of a hand-off made with an Idempotency-Key: the same key of the same device, the same record. */
export function handOffIdOf(keyId: string, kind: string, idempotencyKey: string | null): string {
  return idempotencyKey === null ? randomUUID() : scanIdOf("cash", keyId, kind, idempotencyKey);
}

/**
 * A hand-off is clean when the courier's count and the taker's find what the previous count found;
 * else it is a difference, recorded with who counted what (once per hand-off).
 */
async function recordIfTheyDisagree(
  tx: Queryable,
  handOff: Pick<
    store.DifferenceRecord,
    "stage" | "handOffId" | "relayCode" | "hubId" | "courierId" | "expectedCentimes" | "previousCountCentimes"
  > & {
    courierKeyId: string;
    courierCountedCentimes: number;
    courierDenominations: Denominations;
  },
  taker: store.CountRecord[]
): Promise<void> {
  const counts: store.CountRecord[] = [
    { by: "courier", keyId: handOff.courierKeyId, centimes: handOff.courierCountedCentimes, denominations: handOff.courierDenominations },
    ...taker
  ];
  if (counts.every(c => c.centimes === handOff.previousCountCentimes)) return;
  await store.recordDifference(tx, {
    id: randomUUID(),
    stage: handOff.stage,
    handOffId: handOff.handOffId,
    relayCode: handOff.relayCode,
    hubId: handOff.hubId,
    courierId: handOff.courierId,
    expectedCentimes: handOff.expectedCentimes,
    previousCountCentimes: handOff.previousCountCentimes,
    counts
  });
}

/** Each parcel whose cash moved, still COLLECTED (not yet remitted), gets its webhook, in the hand-off's transaction. */
async function cashMoved(tx: Queryable, parcels: ParcelRecord[], type: "cod.cash_collected_by_courier" | "cod.cash_deposited") {
  for (const parcel of parcels) {
    if (parcel.codStatus === "COLLECTED") await recordCodEvent(tx, parcel, { type, from: "COLLECTED", remittance: null });
  }
}

const relayGone = (code: string) => new AppError("RELAY_POINT_NOT_FOUND", `Relay point ${code} does not exist`);
const collectionGone = () => new AppError("CASH_HAND_OFF_NOT_FOUND", "No such cash collection");
const depositGone = () => new AppError("CASH_HAND_OFF_NOT_FOUND", "No such cash deposit");

export async function uncollected(db: Database, relayCode: string) {
  return store.closingsNotCollected(db, relayCode);
}

/** What a courier's run shows at a relay stop: the cash closed there and not yet collected. */
export interface RelayCash {
  relayCode: string;
  countedCentimes: number;
  /** Added up from the closings' counts; null when any closing was counted as a total only. */
  denominations: Denominations | null;
}

/**
 * The cash closed and not yet collected at each of these relay points, in one query (a run's relay
 * stops): what the agents counted at closing, which is what the courier will find in the envelope.
 * A relay point with nothing closed is left out.
 */
export async function cashAtRelays(db: Database, relayCodes: readonly string[]): Promise<RelayCash[]> {
  const closings = await store.closingsNotCollectedAt(db, relayCodes);
  const codes = [...new Set(closings.map(c => c.relayCode))].sort();
  return codes.map(relayCode => {
    const here = closings.filter(c => c.relayCode === relayCode);
    return {
      relayCode,
      countedCentimes: here.reduce((sum, c) => sum + c.countedCentimes, 0),
      denominations: sumOfCounts(here.map(c => c.denominations))
    };
  });
}

export interface CollectionRequest {
  id: string;
  relayCode: string;
  denominations: Denominations;
  /** null: every closing not taken yet. */
  closingIds: string[] | null;
  occurredAt: Date;
}

/**
 * The courier takes the closings (named, or all not taken) with its count. Under the relay point's
 * lock, so two couriers at once never take one closing (and the primary key of
 * cash_collection_closings would refuse it anyway). A closing already taken, or of another relay,
 * is named in details and nothing is recorded.
 */
export async function recordCollection(db: Database, courier: CourierActor, request: CollectionRequest): Promise<store.CollectionRecord> {
  await db.transaction(async tx => {
    const relay = await relays.lockCounter(tx, request.relayCode);
    if (!relay) throw relayGone(request.relayCode);
    if (await store.findCollection(tx, request.id)) return;
    const open = (await store.closingsNotCollected(tx, relay.code)).filter(c => c.pendingCollectionId === null);
    const ids = request.closingIds ?? open.map(c => c.id);
    if (ids.length === 0) throw new AppError("NOTHING_TO_COLLECT", `Relay point ${relay.code} has no closed cash waiting for a courier`);
    const known = new Map((await store.closingsOfRelay(tx, relay.code, ids)).map(c => [c.id, c]));
    const taken = await store.takenClosings(tx, ids);
    const problems = ids.flatMap((id, index) => {
      const field = `closingIds.${index}`;
      if (!known.has(id)) return [{ field, message: `${id} is not a closing of relay point ${relay.code}` }];
      if (taken.has(id)) return [{ field, message: `${id} was already taken by a courier` }];
      return [];
    });
    if (problems.length > 0) {
      throw new AppError("CASH_NOT_COLLECTABLE", "Some closings cannot be collected: see details; nothing was recorded", {
        details: problems
      });
    }
    await store.insertCollection(tx, {
      id: request.id,
      relayCode: relay.code,
      courierId: courier.courierId,
      courierKeyId: courier.keyId,
      hubId: courier.hubId,
      expectedCentimes: [...new Set(ids)].reduce((sum, id) => sum + known.get(id)!.expectedCentimes, 0),
      previousCountCentimes: [...new Set(ids)].reduce((sum, id) => sum + known.get(id)!.countedCentimes, 0),
      courierCountedCentimes: centimesOf(request.denominations),
      courierDenominations: request.denominations,
      occurredAt: request.occurredAt,
      closingIds: [...new Set(ids)]
    });
  });
  return (await store.findCollection(db, request.id))!;
}

/**
 * The agent counts what the courier takes and confirms: the cash leaves the counter. Confirming
 * again changes nothing (the first count stays). A collection of another relay point is not found.
 */
export async function confirmCollection(
  db: Database,
  agent: { keyId: string; relayCode: string },
  id: string,
  denominations: Denominations
): Promise<store.CollectionRecord> {
  await db.transaction(async tx => {
    await store.lockCollection(tx, id);
    const found = await store.findCollection(tx, id);
    if (!found || found.relayCode !== agent.relayCode) throw collectionGone();
    if (found.confirmedAt !== null) return;
    if (found.cancelledAt !== null) throw new AppError("CONFLICT", "The collection was cancelled: the courier records a new one");
    const counted = centimesOf(denominations);
    await store.confirmCollection(tx, id, { keyId: agent.keyId, countedCentimes: counted, denominations });
    await cashMoved(tx, await store.moveCashOfHandOff(tx, { collectionId: id }, "COURIER"), "cod.cash_collected_by_courier");
    await recordIfTheyDisagree(tx, { ...found, stage: "COLLECTION", handOffId: id }, [
      { by: "agent", keyId: agent.keyId, centimes: counted, denominations }
    ]);
  });
  return (await store.findCollection(db, id))!;
}

/**
 * The agent will not confirm (the courier left without the cash, or counted the wrong closings):
 * the collection is cancelled and its closings wait for the next courier. A confirmed collection
 * cannot be cancelled (409 CONFLICT: the cash has left); cancelling again answers the same.
 */
export async function cancelCollection(db: Database, agent: { relayCode: string }, id: string): Promise<store.CollectionRecord> {
  await db.transaction(async tx => {
    await store.lockCollection(tx, id);
    const found = await store.findCollection(tx, id);
    if (!found || found.relayCode !== agent.relayCode) throw collectionGone();
    if (found.confirmedAt !== null) throw new AppError("CONFLICT", "The collection was confirmed: its cash has left the counter");
    await store.cancelCollection(tx, id);
  });
  return (await store.findCollection(db, id))!;
}

export async function readCollectionForCourier(db: Database, courier: CourierActor, id: string): Promise<store.CollectionRecord> {
  const found = await store.findCollection(db, id);
  if (!found || found.courierId !== courier.courierId) throw collectionGone();
  return found;
}

/**
 * The courier hands in at its hub every collection confirmed and not yet handed in, with its count.
 * The collections are locked: two deposits at once never take one (a primary key besides).
 */
export async function recordDeposit(
  db: Database,
  courier: CourierActor,
  request: { id: string; denominations: Denominations; occurredAt: Date }
): Promise<store.DepositRecord> {
  await db.transaction(async tx => {
    if (await store.findDeposit(tx, request.id)) return;
    const aboard = await store.lockCollectionsAboard(tx, courier.courierId);
    if (await store.findDeposit(tx, request.id)) return;
    if (aboard.length === 0) throw new AppError("NOTHING_TO_DEPOSIT", "No collected cash is waiting to be handed in");
    await store.insertDeposit(tx, {
      id: request.id,
      hubId: courier.hubId,
      courierId: courier.courierId,
      courierKeyId: courier.keyId,
      expectedCentimes: aboard.reduce((sum, c) => sum + c.expectedCentimes, 0),
      previousCountCentimes: aboard.reduce((sum, c) => sum + c.courierCountedCentimes, 0),
      courierCountedCentimes: centimesOf(request.denominations),
      courierDenominations: request.denominations,
      occurredAt: request.occurredAt,
      collectionIds: aboard.map(c => c.id)
    });
  });
  return (await store.findDeposit(db, request.id))!;
}

export async function readDepositForCourier(db: Database, courier: CourierActor, id: string): Promise<store.DepositRecord> {
  const found = await store.findDeposit(db, id);
  if (!found || found.courierId !== courier.courierId) throw depositGone();
  return found;
}

/** The hub counts and confirms: the courier's cash aboard drops by the deposit. Again: no change. */
export async function confirmDeposit(
  db: Database,
  hub: { keyId: string; hubId: string },
  id: string,
  denominations: Denominations
): Promise<store.DepositRecord> {
  await db.transaction(async tx => {
    await store.lockDeposit(tx, id);
    const found = await store.findDeposit(tx, id);
    if (!found || found.hubId !== hub.hubId) throw depositGone();
    if (found.confirmedAt !== null) return;
    const counted = centimesOf(denominations);
    await store.confirmDeposit(tx, id, { keyId: hub.keyId, countedCentimes: counted, denominations });
    await cashMoved(tx, await store.moveCashOfHandOff(tx, { depositId: id }, "CARRIER"), "cod.cash_deposited");
    await recordIfTheyDisagree(tx, { ...found, stage: "DEPOSIT", handOffId: id, relayCode: null }, [
      { by: "hub", keyId: hub.keyId, centimes: counted, denominations }
    ]);
  });
  return (await store.findDeposit(db, id))!;
}
