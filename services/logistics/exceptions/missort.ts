import type { Caller } from "../../../lib/contract";
import { call } from "../../../lib/contract";
import type { Database } from "../../../lib/db/database";
import type { NetworkParcel } from "../../parcels/parcels.contract";
import type { Hub } from "../network/network.store";
import { scanIdOf } from "../../../lib/scan-ids";
import { insertException, MissortReason, originWilayaOf } from "./exceptions.store";
import { isOffRoute, sortLine } from "./route";

/**
 * Decision 0058: a mis-sort is recorded once per parcel, place and reason (its id says so), so a
 * scan sent again, or the same parcel scanned again at the same hub, makes one exception and one
 * parcel.missorted. The parcel is rerouted by what the answer tells the person holding it: send it
 * on to its destination's wilaya (a hub) or give it back to the courier (a relay point).
 */
export async function reportMissort(
  db: Database,
  caller: Caller,
  input: { parcel: NetworkParcel; reason: MissortReason; foundAt: string; foundInWilaya: string | null; at: Date }
): Promise<boolean> {
  const { parcel } = input;
  const id = scanIdOf("missort", parcel.id, input.reason, input.foundAt);
  const missort = {
    reason: input.reason,
    foundInWilaya: input.foundInWilaya,
    rerouteToWilaya: parcel.relayWilaya,
    rerouteToRelayCode: parcel.relayCode
  };
  const recorded = await insertException(db, {
    id,
    parcelId: parcel.id,
    trackingNumber: parcel.trackingNumber,
    organizationId: parcel.organizationId,
    ...missort,
    foundAt: input.foundAt,
    occurredAt: input.at
  });
  // Asked even when the exception existed: a crash between the two leaves the event to this retry (idempotent by id).
  await call(caller, "parcels.recordNetworkSteps", {
    steps: [
      {
        stepId: scanIdOf("step", id),
        parcelId: parcel.id,
        kind: "missorted",
        // The page says "another relay point" for a wrong relay (no wilaya), "the wilaya of X" for a hub.
        wilaya: input.reason === "WRONG_RELAY" ? null : input.foundInWilaya,
        occurredAt: input.at.toISOString(),
        missort
      }
    ]
  });
  return recorded;
}

/**
 * A parcel the hub took in (IN_TRANSIT): where it goes in one line, and its step on the tracking
 * page — at the hub of this wilaya, or a mis-sort when the hub is off its route.
 */
export async function sortAtHub(
  db: Database,
  caller: Caller,
  input: { hub: Hub; parcel: NetworkParcel; scanId: string; at: Date }
): Promise<{ sort: string; missorted: boolean }> {
  const { hub, parcel, at } = input;
  const route = { originWilaya: await originWilayaOf(db, parcel.id), relayWilaya: parcel.relayWilaya };
  const offRoute = isOffRoute(hub.wilaya, route);
  if (offRoute) {
    await reportMissort(db, caller, { parcel, reason: "OFF_ROUTE_HUB", foundAt: hub.code, foundInWilaya: hub.wilaya, at });
  } else {
    await call(caller, "parcels.recordNetworkSteps", {
      steps: [
        { stepId: scanIdOf("step", input.scanId), parcelId: parcel.id, kind: "at_hub", wilaya: hub.wilaya, occurredAt: at.toISOString() }
      ]
    });
  }
  return { sort: sortLine(hub.wilaya, parcel.relayCode, route, offRoute), missorted: offRoute };
}

/** The parcel left a hub of its destination's wilaya: on its way to the relay point (the tracking page's last step before it). */
export async function leftForRelay(
  caller: Caller,
  input: { hub: Hub | null; parcel: NetworkParcel; scanId: string; at: Date }
): Promise<void> {
  if (!input.hub || input.parcel.relayWilaya !== input.hub.wilaya) return;
  await call(caller, "parcels.recordNetworkSteps", {
    steps: [
      {
        stepId: scanIdOf("step", input.scanId),
        parcelId: input.parcel.id,
        kind: "to_relay",
        wilaya: null,
        occurredAt: input.at.toISOString()
      }
    ]
  });
}
