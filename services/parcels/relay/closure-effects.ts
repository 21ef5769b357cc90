import { randomUUID } from "node:crypto";
import type { Queryable } from "../../../lib/db/database";
import type { ParcelEvent, RelayClosureEventData } from "../../../lib/events";
import type { RelayPointEntry } from "../../../lib/relay-points";
import * as holding from "../holding.store";
import type { ParcelRecord } from "../parcels.store";
import { recordPickupEvent } from "../reminders";
import { appendEvent } from "../status-change";
import { closureLength } from "./closures";
import * as closures from "./closures.store";

const DAY_MS = 86_400_000;

/** What a new closure did to the parcels already addressed to its relay point. */
export interface ClosureEffects {
  /** Parcels on the shelf whose pickupDeadline moved by the closure's length (parcel.pickup_extended each). */
  shelfParcelsExtended: number;
  /** Parcels on their way to the point (GET …/affected-parcels lists them). */
  parcelsOnTheWay: number;
  /** relay.closure_announced events written: one per organisation and mode with parcels on the way. */
  merchantsNotified: number;
}

/**
 * In the transaction that stores the closure: every parcel waiting on the point's shelf gets its
 * deadline pushed by the closure's length (under its row lock, with its parcel.pickup_extended
 * event; the merchant's own extension stays unused), and each organisation with parcels on the
 * way gets one relay.closure_announced event naming them, so that it can redirect them.
 */
export async function applyClosure(
  tx: Queryable,
  relay: Pick<RelayPointEntry, "code" | "name">,
  closure: closures.ClosureRecord,
  now: Date = new Date()
): Promise<ClosureEffects> {
  const days = closureLength(closure);
  const reason = `relay point closed from ${closure.from} to ${closure.to}${closure.reason ? ` (${closure.reason})` : ""}`;
  const actor = closure.announcedBy === "agent" ? "relay-agent" : "backoffice";
  const onShelf = await closures.lockParcelsOnShelf(tx, relay.code);
  for (const parcel of onShelf) {
    const from = parcel.pickupDeadline ?? now;
    const pushed = await holding.setPickupDeadline(tx, parcel.id, { deadline: new Date(from.getTime() + days * DAY_MS) });
    await recordPickupEvent(tx, pushed, { type: "parcel.pickup_extended", kind: "closure", actor, reason });
  }
  const { records: onTheWay } = await closures.parcelsOnTheWay(tx, relay.code, null);
  const groups = groupByOwner(onTheWay);
  for (const parcels of groups.values()) await appendEvent(tx, announcement(relay, closure, parcels, now));
  return { shelfParcelsExtended: onShelf.length, parcelsOnTheWay: onTheWay.length, merchantsNotified: groups.size };
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
