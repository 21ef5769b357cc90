import { randomUUID } from "node:crypto";
import type { AgentPrincipal } from "../../../lib/agent-keys";
import type { Database } from "../../../lib/db/database";
import { AppError } from "../../../lib/errors";
import { toCentimes, toDzd } from "../../../lib/money";
import { normaliseTrackingNumber } from "../../../lib/tracking-number";
import { recordDifference } from "../cash/cash.store";
import { centimesOf, Denominations } from "../cash/denominations";
import type { ClosingView, TillView } from "./relay.params";
import * as store from "./relay.store";

/** The till of a relay point: the COD taken at its counter since the last closing, and the closings. */

const relayGone = (code: string) => new AppError("RELAY_POINT_NOT_FOUND", `Relay point ${code} does not exist`);

export async function openTill(db: Database, relayCode: string): Promise<TillView> {
  const relay = await store.findCounter(db, relayCode);
  if (!relay) throw relayGone(relayCode);
  const [items, openedAt] = await Promise.all([store.openTillItems(db, relayCode), store.tillOpenedAt(db, relay)]);
  const totalOf = (tender: store.Tender) =>
    toDzd(items.filter(item => item.tender === tender).reduce((sum, item) => sum + item.amountCentimes, 0));
  return {
    openSince: openedAt.toISOString(),
    count: items.length,
    amountDzd: totalOf("cash"),
    byTender: { cash: totalOf("cash"), card: totalOf("card"), qr: totalOf("qr") },
    items: items.map(item => ({
      trackingNumber: item.trackingNumber,
      amountDzd: toDzd(item.amountCentimes),
      deliveredAt: item.deliveredAt.toISOString(),
      tender: item.tender
    }))
  };
}

export function toClosingView(closing: store.ClosingRecord): ClosingView {
  return {
    id: closing.id,
    expectedDzd: toDzd(closing.expectedCentimes),
    countedDzd: toDzd(closing.countedCentimes),
    differenceDzd: toDzd(closing.countedCentimes - closing.expectedCentimes),
    denominations: closing.denominations,
    count: closing.itemCount,
    closedAt: closing.closedAt.toISOString()
  };
}

/** What the agent counted: a total, or notes and coins (their sum; a total given beside them must agree). */
export interface TillCount {
  countedDzd: number | null;
  denominations: Denominations | null;
}

function countedCentimesOf(count: TillCount): number {
  if (count.denominations === null) {
    if (count.countedDzd === null) {
      throw new AppError("VALIDATION_FAILED", "The request is not valid", {
        details: [{ field: "countedDzd", message: "countedDzd is required without denominations" }]
      });
    }
    return toCentimes(count.countedDzd);
  }
  const sum = centimesOf(count.denominations);
  if (count.countedDzd !== null && toCentimes(count.countedDzd) !== sum) {
    throw new AppError("VALIDATION_FAILED", "The request is not valid", {
      details: [{ field: "countedDzd", message: `countedDzd is not the sum of the denominations (${toDzd(sum)} DZD)` }]
    });
  }
  return sum;
}

/**
 * Closes what is open, whatever was counted: a difference is recorded, never refused or hidden.
 * Under the relay point's lock, so two closings at once follow each other (the second closes
 * what came in meanwhile, often nothing); no hand-over is in two closings (relay.store.ts). A count
 * by denomination that is not the books is also a cash difference (stage CLOSING, who counted
 * what), in the closing's transaction, so that the operator sees it beside the couriers' and hubs'.
 */
export async function closeTill(db: Database, agent: AgentPrincipal, count: TillCount): Promise<ClosingView> {
  const countedCentimes = countedCentimesOf(count);
  const closing = await db.transaction(async tx => {
    const relay = await store.lockCounter(tx, agent.relayCode);
    if (!relay) throw relayGone(agent.relayCode);
    const closed = await store.closeTill(tx, {
      id: randomUUID(),
      relayCode: relay.code,
      countedCentimes,
      denominations: count.denominations,
      openedAt: await store.tillOpenedAt(tx, relay),
      agentKeyId: agent.keyId
    });
    if (closed.denominations !== null && closed.countedCentimes !== closed.expectedCentimes) {
      await recordDifference(tx, {
        id: randomUUID(),
        stage: "CLOSING",
        handOffId: closed.id,
        relayCode: closed.relayCode,
        hubId: null,
        courierId: null,
        expectedCentimes: closed.expectedCentimes,
        previousCountCentimes: closed.expectedCentimes,
        counts: [{ by: "agent", keyId: agent.keyId, centimes: closed.countedCentimes, denominations: closed.denominations }]
      });
    }
    return closed;
  });
  return toClosingView(closing);
}

/**
 * Returns handed to the courier leave the shelf, all of them or none: any number that is not a
 * return waiting on this shelf is named in `details` (by its place in the list) and nothing moves.
 * Sending a number again after it left is no error: it has left.
 */
export async function dispatchReturns(db: Database, agent: AgentPrincipal, typed: readonly string[]): Promise<{ dispatched: number }> {
  const numbers = typed.map(normaliseTrackingNumber);
  return db.transaction(async tx => {
    const found = new Map((await store.lockByTrackingNumbers(tx, [...new Set(numbers)])).map(s => [s.parcel.trackingNumber, s]));
    const problems = numbers.flatMap((number, index) => {
      const shelf = found.get(number);
      const field = `trackingNumbers.${index}`;
      if (!shelf || shelf.parcel.mode !== "live" || shelf.parcel.destinationRelayCode !== agent.relayCode) {
        return [{ field, message: `${number || "(empty)"} is not a parcel of this relay point` }];
      }
      if (shelf.parcel.status !== "RETURN_PENDING" || shelf.arrivedAt === null) {
        return [{ field, message: `${number} is ${shelf.parcel.status}, not a return waiting on this shelf` }];
      }
      return [];
    });
    if (problems.length > 0) {
      throw new AppError("RETURN_NOT_DISPATCHABLE", "Some parcels cannot leave with the courier: see details; none left", {
        details: problems
      });
    }
    await store.markReturnsDispatched(
      tx,
      [...found.values()].map(s => s.parcel.id)
    );
    return { dispatched: found.size };
  });
}
