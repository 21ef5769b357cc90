import type { Queryable } from "../../../lib/db/database";
import type { ParcelStatus } from "../../../lib/parcel-status";
import * as store from "../parcels.store";
import { applyStatusChange } from "../status-change";
import * as network from "./network.store";

/**
 * Issue 44: the moves the network's scans make, and only these. A pickup booked moves CREATED to
 * READY_FOR_PICKUP and its cancel moves it back (the one backward move, so not on the operator
 * graph); the courier's scan takes it to PICKED_UP, a hub's to IN_TRANSIT; a loss past its limit
 * to LOST. AT_RELAY stays the counter's arrival scan (relay API).
 */
export const NETWORK_MOVES: Readonly<Record<NetworkStatus, readonly ParcelStatus[]>> = Object.freeze({
  READY_FOR_PICKUP: ["CREATED"],
  CREATED: ["READY_FOR_PICKUP"],
  PICKED_UP: ["READY_FOR_PICKUP"],
  IN_TRANSIT: ["PICKED_UP"],
  LOST: ["PICKED_UP", "IN_TRANSIT"],
  // Issue 44 C (decision 0057): a return brought back by the network, confirmed by its merchant.
  RETURNED: ["RETURN_PENDING"]
});

export type NetworkStatus = "READY_FOR_PICKUP" | "CREATED" | "PICKED_UP" | "IN_TRANSIT" | "LOST" | "RETURNED";
export const NETWORK_STATUSES = Object.keys(NETWORK_MOVES) as NetworkStatus[];

export interface NetworkScan {
  scanId: string;
  parcelId: string;
  toStatus: NetworkStatus;
  /** When the scan happened (already bounded by the logistics service); null: now. */
  occurredAt?: string | null;
  reason?: string | null;
  /** courier, hub, merchant, network: the history's actor. */
  actor: string;
}

export type ScanOutcome = "applied" | "already" | "refused" | "unknown";

export interface ScanResult {
  scanId: string;
  parcelId: string;
  outcome: ScanOutcome;
  /** The parcel's status after the scan; null for an unknown parcel. */
  status: string | null;
}

/**
 * One scan, in the caller's transaction: the parcel is locked first, so two deliveries of the same
 * scan id are serialised and the second finds the first's row. A parcel of another owner is as
 * unknown as a parcel that does not exist.
 */
export async function applyNetworkScan(tx: Queryable, scan: NetworkScan, owner: store.Owner | null): Promise<ScanResult> {
  const parcel = await store.lockParcel(tx, scan.parcelId);
  const base = { scanId: scan.scanId, parcelId: scan.parcelId };
  if (!parcel || parcel.status === "PENDING" || (owner && (parcel.organizationId !== owner.organizationId || parcel.mode !== owner.mode))) {
    return { ...base, outcome: "unknown", status: null };
  }
  const seen = await network.seenScan(tx, scan.scanId);
  if (seen) return { ...base, outcome: seen.outcome as ScanOutcome, status: seen.statusAfter };
  let outcome: ScanOutcome;
  let status: string = parcel.status;
  if (parcel.status === scan.toStatus) outcome = "already";
  else if (!NETWORK_MOVES[scan.toStatus].includes(parcel.status as ParcelStatus)) outcome = "refused";
  else {
    const { row } = await applyStatusChange(tx, parcel, {
      to: scan.toStatus,
      reason: scan.reason ?? null,
      actor: scan.actor,
      at: scan.occurredAt ? new Date(scan.occurredAt) : null
    });
    outcome = "applied";
    status = row.status;
  }
  await network.recordScan(tx, { scanId: scan.scanId, parcelId: scan.parcelId, toStatus: scan.toStatus, outcome, statusAfter: status });
  return { ...base, outcome, status };
}
