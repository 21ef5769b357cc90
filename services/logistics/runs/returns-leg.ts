import type { Context } from "moleculer";
import { call } from "../../../lib/contract";
import type { Database } from "../../../lib/db/database";
import { AppError } from "../../../lib/errors";
import type { NetworkParcel } from "../../parcels/parcels.contract";
import { scanIdOf } from "../../../lib/scan-ids";
import type { ScanAnswer } from "../network/network.params";
import { parcelByTracking, scanIdFor, StaffContext } from "../network/scan-context";
import { tellCustody } from "../network/custody-sync";
import * as network from "../network/network.store";

/**
 * Returns on their way back (issue 44 C, decision 0057): a return waiting at a relay point
 * (RETURN_PENDING, handed over by the agent's existing return dispatch) is taken by the courier,
 * handed in at the hub, taken out again for the merchant, and the merchant's confirmation makes
 * it RETURNED. Each hand-off is a custody scan; the status moves once, at the merchant.
 */

function refuseUnlessReturn(parcel: NetworkParcel, trackingNumber: string): void {
  if (parcel.status !== "RETURN_PENDING") throw new AppError("CONFLICT", `Parcel ${trackingNumber} is ${parcel.status}, not a return`);
}

/** The courier takes a return at relay point `code` (the relay gave). */
export async function courierCollectsReturn(
  db: Database,
  ctx: StaffContext,
  code: string,
  trackingNumber: string,
  at: Date
): Promise<ScanAnswer> {
  const parcel = await parcelByTracking(ctx, trackingNumber);
  if (parcel.relayCode !== code)
    throw new AppError("WRONG_RELAY", `Parcel ${trackingNumber} waits at ${parcel.relayCode ?? "?"}, not at ${code}`);
  refuseUnlessReturn(parcel, trackingNumber);
  await network.insertScan(db, {
    id: scanIdFor(ctx, `return-collect:${code}`),
    parcelId: parcel.id,
    kind: "return.collected",
    holderKind: "courier",
    holderId: ctx.meta.staff.subjectId,
    giverKind: "relay",
    giverId: code,
    hubId: null,
    pickupId: null,
    confirmedBy: null,
    occurredAt: at
  });
  await tellCustody(ctx, db, parcel.id, { kind: "courier", id: ctx.meta.staff.subjectId }, at);
  return { parcelId: parcel.id, trackingNumber, status: parcel.status, outcome: "RETURN_COLLECTED", sort: null };
}

/** The hub's scan in of a return (the courier gave): it waits for the merchant's courier; the status stays RETURN_PENDING. */
export async function hubTakesReturn(db: Database, ctx: StaffContext, parcel: NetworkParcel, at: Date): Promise<ScanAnswer> {
  const previous = await network.lastScan(db, parcel.id);
  const hubId = ctx.meta.staff.subjectId;
  await network.insertScan(db, {
    id: scanIdFor(ctx, "hub-in"),
    parcelId: parcel.id,
    kind: "return.hub_in",
    holderKind: "hub",
    holderId: hubId,
    giverKind: previous && previous.holderKind !== "recipient" ? previous.holderKind : null,
    giverId: previous?.holderId ?? null,
    hubId,
    pickupId: null,
    confirmedBy: `hub:${hubId}`,
    occurredAt: at
  });
  await tellCustody(ctx, db, parcel.id, { kind: "hub", id: hubId }, at);
  return {
    parcelId: parcel.id,
    trackingNumber: parcel.trackingNumber,
    status: parcel.status,
    outcome: "RETURN",
    sort: "RETOUR — vers le marchand"
  };
}

/** At the hub, the courier takes a return out for its merchant (the hub gave). */
export async function courierTakesReturnOut(db: Database, ctx: StaffContext, trackingNumber: string, at: Date): Promise<ScanAnswer> {
  const parcel = await parcelByTracking(ctx, trackingNumber);
  refuseUnlessReturn(parcel, trackingNumber);
  const previous = await network.lastScan(db, parcel.id);
  if (previous?.holderKind !== "hub") throw new AppError("CONFLICT", `Return ${trackingNumber} is not at a hub`);
  await network.insertScan(db, {
    id: scanIdFor(ctx, "return-out"),
    parcelId: parcel.id,
    kind: "return.out",
    holderKind: "courier",
    holderId: ctx.meta.staff.subjectId,
    giverKind: "hub",
    giverId: previous.holderId,
    hubId: previous.holderId,
    pickupId: null,
    confirmedBy: null,
    occurredAt: at
  });
  await tellCustody(ctx, db, parcel.id, { kind: "courier", id: ctx.meta.staff.subjectId }, at);
  return { parcelId: parcel.id, trackingNumber, status: parcel.status, outcome: "RETURN_LOADED", sort: null };
}

/**
 * The merchant confirms it has its return back: RETURNED, custody merchant (the network's last
 * holder gave). Only a return the network carries (its last holder a courier or a hub); once: a
 * second confirmation answers the same and changes nothing.
 */
export async function merchantReceivesReturn(
  db: Database,
  ctx: Context,
  owner: { organizationId: string; mode: "live" | "sandbox" },
  parcelId: string
): Promise<{ parcelId: string; status: string }> {
  const [parcel] = (await call(ctx, "parcels.networkParcels", { parcelIds: [parcelId], owner })).parcels;
  if (!parcel) throw new AppError("PARCEL_NOT_FOUND", "No such parcel");
  const previous = await network.lastScan(db, parcel.id);
  const scanId = scanIdOf("return-received", parcel.id);
  const at = new Date();
  // Confirmed already, or being confirmed by a concurrent request: the same scan id, applied once by parcels.
  if (previous?.kind !== "return.received") {
    if (parcel.status !== "RETURN_PENDING" || (previous?.holderKind !== "courier" && previous?.holderKind !== "hub")) {
      throw new AppError("INVALID_TRANSITION", `Parcel ${parcel.trackingNumber} is ${parcel.status} and not on its way back to you`);
    }
    await network.insertScan(db, {
      id: scanId,
      parcelId: parcel.id,
      kind: "return.received",
      holderKind: "merchant",
      holderId: owner.organizationId,
      giverKind: previous.holderKind,
      giverId: previous.holderId,
      hubId: null,
      pickupId: null,
      confirmedBy: `merchant:${owner.organizationId}`,
      occurredAt: at
    });
  }
  const { results } = await call(ctx, "parcels.applyNetworkScans", {
    scans: [
      { scanId, parcelId: parcel.id, toStatus: "RETURNED", occurredAt: at.toISOString(), actor: "merchant", reason: "return received" }
    ],
    owner
  });
  return { parcelId, status: results[0].status ?? parcel.status };
}
