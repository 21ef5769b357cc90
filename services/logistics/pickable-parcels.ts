import { call, Caller } from "../../lib/contract";
import { AppError } from "../../lib/errors";
import type { NetworkParcel } from "../parcels/parcels.contract";
import type { Owner } from "./pickups/pickups.store";

/** Parcels a pickup or a manifest may take: CREATED, or READY_FOR_PICKUP and not collected yet (left behind at an earlier stop). */
const PICKABLE = new Set(["CREATED", "READY_FOR_PICKUP"]);

/**
 * The owner's parcels by id, in the order asked, each still to be collected: an unknown id (or
 * another owner's, which is the same to the caller) is 404 PARCEL_NOT_FOUND, a parcel past
 * READY_FOR_PICKUP 409 PARCEL_NOT_PICKABLE, each named in the details.
 */
export async function pickableParcels(caller: Caller, owner: Owner, ids: string[]): Promise<NetworkParcel[]> {
  const { parcels } = await call(caller, "parcels.networkParcels", { parcelIds: ids, owner });
  const found = new Map(parcels.map(p => [p.id, p]));
  const unknown = ids.filter(id => !found.has(id));
  if (unknown.length > 0) {
    throw new AppError("PARCEL_NOT_FOUND", "Some parcels do not exist", {
      details: unknown.map(id => ({ field: "parcelIds", message: `${id} not found` }))
    });
  }
  const late = parcels.filter(p => !PICKABLE.has(p.status));
  if (late.length > 0) {
    throw new AppError("PARCEL_NOT_PICKABLE", "Only parcels not yet collected (CREATED or READY_FOR_PICKUP) can be listed", {
      details: late.map(p => ({ field: "parcelIds", message: `${p.id} is ${p.status}` }))
    });
  }
  return ids.map(id => found.get(id)!);
}
