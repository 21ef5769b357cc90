import { randomUUID } from "node:crypto";
import type { Queryable } from "../../../lib/db/database";
import type { ParcelEvent, RelayClosureEventData } from "../../../lib/events";
import type { RelayPointEntry } from "../../../lib/relay-points";
import * as holding from "../holding.store";
import type { ParcelRecord } from "../parcels.store";
import { recordPickupEvent } from "../reminders";
import { appendEvent } from "../status-change";
import { algiersDate } from "../../../lib/cod";
import { holdingDaysFor } from "../holding-period";
import { closureExtensionDays, deadlineWithClosures } from "./closure-extension";
import * as closures from "./closures.store";

const DAY_MS = 86_400_000;

/** What a new closure did to the parcels already addressed to its relay point. */
export interface ClosureEffects {
  /** Parcels on the shelf whose pickupDeadline moved later (parcel.pickup_extended each). */
  shelfParcelsExtended: number;
  /** Parcels on their way to the point (GET …/affected-parcels lists them). */
  parcelsOnTheWay: number;
  /** relay.closure_announced events written: one per organisation and mode with parcels on the way. */
  merchantsNotified: number;
}

/** Who changed the closures, and why, for the history lines and the webhooks' reason. */
export interface ClosureChange {
  actor: "relay-agent" | "backoffice" | "merchant";
  reason: string;
}

const closureDaysText = (closure: closures.ClosureRecord) =>
  `from ${closure.from} to ${closure.to}${closure.reason ? ` (${closure.reason})` : ""}`;

/**
 * In the transaction that stores the closure: every parcel waiting on the point's shelf gets the
 * closed days inside its holding window (parcel.pickup_extended each; the merchant's own extension
 * stays unused), and each organisation with parcels on the way gets one relay.closure_announced
 * event naming them, so that it can redirect them.
 */
export async function applyClosure(
  tx: Queryable,
  relay: Pick<RelayPointEntry, "code" | "name">,
  closure: closures.ClosureRecord,
  now: Date = new Date()
): Promise<ClosureEffects> {
  const actor = closure.announcedBy === "agent" ? "relay-agent" : "backoffice";
  const moved = await refreshShelf(tx, relay.code, { actor, reason: `relay point closed ${closureDaysText(closure)}` }, now);
  const { records: onTheWay } = await closures.parcelsOnTheWay(tx, relay.code, null);
  const groups = groupByOwner(onTheWay);
  for (const parcels of groups.values()) await appendEvent(tx, announcement(relay, closure, parcels, now));
  return { shelfParcelsExtended: moved, parcelsOnTheWay: onTheWay.length, merchantsNotified: groups.size };
}

/** In the transaction that deleted the closure: the parcels on the shelf lose the days it gave them. */
export async function withdrawClosure(tx: Queryable, closure: closures.ClosureRecord, now: Date = new Date()): Promise<number> {
  return refreshShelf(tx, closure.relayCode, { actor: "backoffice", reason: `closure ${closureDaysText(closure)} removed` }, now);
}

/**
 * Recomputes the closure extension of every parcel on the point's shelf from the closures that
 * exist now (lock the parcels first, then read the closures: a closure committed meanwhile is
 * seen). Answers how many deadlines moved later.
 */
async function refreshShelf(tx: Queryable, relayCode: string, change: ClosureChange, now: Date): Promise<number> {
  const onShelf = await closures.lockParcelsOnShelf(tx, relayCode);
  if (onShelf.length === 0) return 0;
  const since = onShelf.map(p => algiersDate(p.arrivedAt ?? now)).reduce((a, b) => (a < b ? a : b));
  const spans = await closures.currentAndFutureClosures(tx, relayCode, since);
  const maxDays = await holdingDaysFor(tx, relayCode);
  let later = 0;
  for (const shelf of onShelf) {
    const before = shelf.parcel.pickupDeadline!;
    const after = await refreshParcel(tx, shelf, { spans, maxDays }, change, now);
    if (after && after.pickupDeadline!.getTime() > before.getTime()) later += 1;
  }
  return later;
}

/**
 * A parcel's closure extension after its own deadline changed (the merchant's extension makes its
 * window longer, which may take in more closed days). The caller holds its row lock.
 */
export async function refreshParcelClosures(tx: Queryable, id: string, change: ClosureChange, now: Date = new Date()) {
  const shelf = await closures.shelfParcel(tx, id);
  if (shelf.parcel.pickupDeadline === null) return null;
  const relayCode = shelf.parcel.destinationRelayCode;
  const spans = await closures.currentAndFutureClosures(tx, relayCode, algiersDate(shelf.arrivedAt ?? now));
  return refreshParcel(tx, shelf, { spans, maxDays: await holdingDaysFor(tx, relayCode) }, change, now);
}

/**
 * The deadline is its base (the deadline without closures) plus the closed days of its window;
 * a change writes the parcel's pickup-history line and parcel.pickup_extended. Answers the parcel
 * when its deadline moved, null when it did not.
 */
async function refreshParcel(
  tx: Queryable,
  shelf: closures.ShelfParcel,
  point: { spans: readonly closures.ClosureRecord[]; maxDays: number },
  change: ClosureChange,
  now: Date
): Promise<ParcelRecord | null> {
  const current = shelf.parcel.pickupDeadline!;
  const base = new Date(current.getTime() - shelf.closureDays * DAY_MS);
  const window = { firstDay: algiersDate(shelf.arrivedAt ?? now), baseLastDay: algiersDate(base), maxDays: point.maxDays };
  const days = closureExtensionDays(point.spans, window);
  const deadline = deadlineWithClosures({ base, days, current, now });
  if (deadline.getTime() === current.getTime()) {
    if (days !== shelf.closureDays) await holding.setPickupDeadline(tx, shelf.parcel.id, { deadline, closureDays: days });
    return null;
  }
  const moved = await holding.setPickupDeadline(tx, shelf.parcel.id, { deadline, closureDays: days });
  await recordPickupEvent(tx, moved, { type: "parcel.pickup_extended", kind: "closure", actor: change.actor, reason: change.reason });
  return moved;
}

function groupByOwner(parcels: readonly ParcelRecord[]): Map<string, ParcelRecord[]> {
  const groups = new Map<string, ParcelRecord[]>();
  for (const parcel of parcels) {
    const key = `${parcel.organizationId}/${parcel.mode}`;
    groups.set(key, [...(groups.get(key) ?? []), parcel]);
  }
  return groups;
}

function announcement(
  relay: Pick<RelayPointEntry, "code" | "name">,
  closure: closures.ClosureRecord,
  parcels: readonly ParcelRecord[],
  now: Date
): ParcelEvent {
  const [first] = parcels;
  const data: RelayClosureEventData = {
    relay: { code: relay.code, name: relay.name },
    closure: { id: closure.id, from: closure.from, to: closure.to, reason: closure.reason },
    parcels: parcels.map(p => ({
      id: p.id,
      trackingNumber: p.trackingNumber,
      status: p.status as RelayClosureEventData["parcels"][number]["status"]
    }))
  };
  return {
    id: randomUUID(),
    type: "relay.closure_announced",
    createdAt: now.toISOString(),
    occurredAt: closure.createdAt.toISOString(),
    sequence: 0,
    organizationId: first.organizationId,
    mode: first.mode,
    sandbox: first.mode === "sandbox",
    reason: closure.reason,
    data
  };
}
