import type { CustodySummary, HolderKind } from "../../../lib/custody";
import type { ParcelRecord } from "../parcels.store";

/**
 * Who holds a parcel, from what the parcel row already has (decision 0056): its status says the
 * kind of holder, and the custody columns logistics keeps up to date (parcels.recordCustody) say
 * which one and since when, while they agree with the status. A status reached without a network
 * scan (the relay's arrival, a hand-over, an operator's transition, the sandbox) counts from its
 * change. No call to logistics: the partner GET is the hottest read.
 */
const HOLDER_BY_STATUS: Readonly<Record<string, readonly HolderKind[]>> = {
  CREATED: ["merchant"],
  READY_FOR_PICKUP: ["merchant"],
  PICKED_UP: ["courier", "hub"],
  IN_TRANSIT: ["hub", "courier"],
  AT_RELAY: ["relay"],
  RELAY_NOTIFIED: ["relay"],
  // Refused or expired, it waits at the relay point for the courier that brings it back.
  RETURN_PENDING: ["relay", "courier", "hub"],
  DELIVERED: ["recipient"],
  RETURNED: ["merchant"],
  CANCELLED: ["merchant"]
};

export function custodyOf(parcel: ParcelRecord): CustodySummary | null {
  const kinds = HOLDER_BY_STATUS[parcel.status];
  if (!kinds) return null; // LOST, DAMAGED (and PENDING, never shown): nobody to name.
  const stored = parcel.custody;
  // A return starts at the relay point: a holder stored before it became RETURN_PENDING is the
  // outbound leg's (the courier that brought it), not the return's.
  const current = stored && (parcel.status !== "RETURN_PENDING" || stored.since.getTime() >= parcel.updatedAt.getTime());
  if (stored && current && kinds.includes(stored.holder as HolderKind)) {
    return { holder: stored.holder as HolderKind, since: stored.since.toISOString(), name: stored.name, wilaya: stored.wilaya };
  }
  const holder = kinds[0];
  const since =
    holder === "merchant" && parcel.status !== "RETURNED" && parcel.status !== "CANCELLED" ? parcel.createdAt : parcel.updatedAt;
  const name = holder === "relay" ? parcel.destinationRelayCode : null;
  return { holder, since: since.toISOString(), name, wilaya: null };
}
