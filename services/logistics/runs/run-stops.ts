import type { Caller } from "../../../lib/contract";
import { call } from "../../../lib/contract";
import type { Queryable } from "../../../lib/db/database";
import type { NetworkParcel } from "../../parcels/parcels.contract";
import "../../parcels/network/delivery.contract";
import { algiersClock } from "../pickups/pickup-window";
import * as pickups from "../pickups/pickups.store";
import type { Hub } from "../network/network.store";
import type { StopView } from "./runs.params";
import * as store from "./runs.store";

/**
 * A run's stops (issue 44 C, decision 0057): built from the day's open pickups in the wilaya of the
 * courier's hub (earliest window first; one left open from an earlier day is still to do), then
 * the hub, then each relay point of the hub's wilaya the hub or the courier holds parcels for or
 * where returns or closed till cash wait for a courier (issue 45: else they stayed at the counter),
 * and the hub again when there are relay points (returns and cash come back). What to do at each stop is
 * counted when the run is read, so a kept run's counts follow the scans.
 */

interface Facts {
  hub: Hub;
  /** Parcels the hub holds, and the courier, with what parcels says of them. */
  atHub: NetworkParcel[];
  withCourier: Array<NetworkParcel & { scanKind: string }>;
}

async function factsOf(db: Queryable, caller: Caller, hub: Hub, courierId: string): Promise<Facts> {
  const [hubIds, courierHeld] = await Promise.all([store.parcelIdsHeldByHub(db, hub.id), store.parcelIdsHeldByCourier(db, courierId)]);
  const ids = [...new Set([...hubIds, ...courierHeld.map(c => c.parcelId)])];
  const parcels = ids.length ? (await call(caller, "parcels.networkParcels", { parcelIds: ids })).parcels : [];
  const byId = new Map(parcels.filter(p => p.mode === "live").map(p => [p.id, p]));
  return {
    hub,
    atHub: hubIds.flatMap(id => (byId.has(id) ? [byId.get(id)!] : [])),
    withCourier: courierHeld.flatMap(c => (byId.has(c.parcelId) ? [{ ...byId.get(c.parcelId)!, scanKind: c.kind }] : []))
  };
}

/** For the hub's own deliveries: IN_TRANSIT parcels for a relay point of the hub's wilaya. */
const forLocalRelay = (hub: Hub) => (p: NetworkParcel) => p.status === "IN_TRANSIT" && p.relayWilaya === hub.wilaya && p.relayCode !== null;

/** The stops of a run nobody adjusted: computed from the pickups and the scans. */
export async function computeStops(db: Queryable, caller: Caller, hub: Hub, courierId: string, date: string): Promise<store.StopRef[]> {
  const open = await db.query<{ id: string; ready_at: Date }>(
    `SELECT id, ready_at FROM logistics.pickups WHERE status IN ('CONFIRMED', 'IN_PROGRESS') AND mode = 'live' AND address->>'wilaya' = $1
      ORDER BY ready_at, id LIMIT 100`,
    [hub.wilaya]
  );
  const stops: store.StopRef[] = open.filter(p => algiersClock(p.ready_at).day <= date).map(p => ({ kind: "PICKUP", ref: p.id }));
  stops.push({ kind: "HUB", ref: hub.id });
  const [facts, { relayCodes: toVisit }] = await Promise.all([
    factsOf(db, caller, hub, courierId),
    call(caller, "parcels.relaysToVisit", { wilaya: hub.wilaya })
  ]);
  const toDeliver = [...facts.atHub, ...facts.withCourier].filter(forLocalRelay(hub)).map(p => p.relayCode!);
  const relays = [...new Set([...toDeliver, ...toVisit])].sort();
  for (const code of relays) stops.push({ kind: "RELAY", ref: code });
  if (relays.length > 0) stops.push({ kind: "HUB", ref: hub.id });
  return stops;
}

const EMPTY: Omit<StopView, "position" | "kind" | "instruction"> = {
  pickupId: null,
  confirmationNumber: null,
  address: null,
  readyAt: null,
  closeAt: null,
  hubId: null,
  hubCode: null,
  relayCode: null,
  parcelCount: 0,
  otherCount: 0,
  deliver: [],
  collectReturns: [],
  handIn: [],
  cashToCollect: 0,
  cashByDenomination: null
};

/** What to do at each stop, in order; a stop whose pickup is gone (cancelled, another wilaya's) still shows, with nothing to do. */
export async function stopViews(
  db: Queryable,
  caller: Caller,
  hub: Hub,
  courierId: string,
  stops: readonly store.StopRef[],
  hubsById: Map<string, Hub>
): Promise<StopView[]> {
  const facts = await factsOf(db, caller, hub, courierId);
  const pickupIds = stops.filter(s => s.kind === "PICKUP").map(s => s.ref);
  const [records, parcelsOfPickups] = await Promise.all([
    Promise.all(pickupIds.map(id => pickups.findPickup(db, id, null))),
    pickups.parcelsOf(db, pickupIds)
  ]);
  const pickupById = new Map(records.filter(p => p !== null).map(p => [p.id, p]));
  const relayCodes = stops.filter(s => s.kind === "RELAY").map(s => s.ref);
  // One call each for all the run's relay points: the returns waiting, and the till's cash closed there (issue 45).
  const [{ returns }, { cash }] = relayCodes.length
    ? await Promise.all([call(caller, "parcels.returnsAtRelays", { relayCodes }), call(caller, "parcels.cashAtRelays", { relayCodes })])
    : [{ returns: [] }, { cash: [] }];
  const cashAt = new Map(cash.map(c => [c.relayCode, c]));
  // Handed in at the hub: what the courier collected (at merchants, returns at relay points), not what it took out of the hub.
  const TAKEN_FROM_HUB = ["courier.load", "hub.out", "return.out"];
  const toHandIn = facts.withCourier.filter(p => !TAKEN_FROM_HUB.includes(p.scanKind));
  const toLoad = facts.atHub.filter(forLocalRelay(hub)).filter(p => relayCodes.includes(p.relayCode!));
  return stops.map((stop, position): StopView => {
    if (stop.kind === "PICKUP") {
      const pickup = pickupById.get(stop.ref);
      const count = (parcelsOfPickups.get(stop.ref) ?? []).filter(p => p.state === "ANNOUNCED").length;
      const where = pickup ? `${pickup.address.line1}, ${pickup.address.city}` : "?";
      return {
        ...EMPTY,
        position,
        kind: "PICKUP",
        pickupId: stop.ref,
        confirmationNumber: pickup?.confirmationNumber ?? null,
        address: pickup?.address ?? null,
        readyAt: pickup?.readyAt.toISOString() ?? null,
        closeAt: pickup?.closeAt.toISOString() ?? null,
        parcelCount: count,
        instruction: `Collecter ${count} colis — ${where} (${pickup?.confirmationNumber ?? stop.ref})`
      };
    }
    if (stop.kind === "HUB") {
      const stopHub = hubsById.get(stop.ref);
      const here = stop.ref === hub.id;
      const handIn = here ? toHandIn.map(p => p.trackingNumber).sort() : [];
      const load = here && stops.slice(0, position).every(s => s.kind !== "RELAY") ? toLoad.length : 0;
      return {
        ...EMPTY,
        position,
        kind: "HUB",
        hubId: stop.ref,
        hubCode: stopHub?.code ?? null,
        parcelCount: handIn.length,
        otherCount: load,
        handIn,
        instruction: `Déposer ${handIn.length} colis, charger ${load} colis — ${stopHub?.code ?? stop.ref}`
      };
    }
    const deliver = [...facts.atHub, ...facts.withCourier].filter(p => p.status === "IN_TRANSIT" && p.relayCode === stop.ref);
    const waiting = returns.filter(r => r.relayCode === stop.ref).map(r => r.trackingNumber);
    const till = cashAt.get(stop.ref);
    const cashToCollect = till?.closedDzd ?? 0;
    const takeCash = cashToCollect > 0 ? `, prendre ${cashToCollect} DA` : "";
    return {
      ...EMPTY,
      position,
      kind: "RELAY",
      relayCode: stop.ref,
      parcelCount: deliver.length,
      otherCount: waiting.length,
      deliver: deliver.map(p => p.trackingNumber).sort(),
      collectReturns: waiting,
      cashToCollect,
      cashByDenomination: till?.denominations ?? null,
      instruction: `Livrer ${deliver.length} colis, reprendre ${waiting.length} retour(s)${takeCash} — ${stop.ref}`
    };
  });
}
