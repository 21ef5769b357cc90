import { randomUUID } from "node:crypto";
import type { Context } from "moleculer";
import { call } from "../../../lib/contract";
import { AppError } from "../../../lib/errors";
import { idempotencyKeyOf } from "../../../lib/idempotency";
import { scanIdOf } from "../../../lib/scan-ids";
import type { StaffMeta } from "../../../lib/staff-keys";
import type { NetworkParcel } from "../../parcels/parcels.contract";

/**
 * What every staff scan starts from (the courier's and the hub's, the last leg's and the returns'):
 * its context, its id and the parcel its label names. Apart from scans.ts so that the legs it calls
 * can use them without an import cycle.
 */

export { occurredAtOf } from "../../../lib/staff-occurred-at";

export type StaffContext = Context<unknown, StaffMeta & { idempotencyKey?: string }>;

/** The scan's id: the device's Idempotency-Key (per key), else a fresh one. */
export function scanIdFor(ctx: StaffContext, action: string): string {
  const key = idempotencyKeyOf(ctx.meta);
  return key === null ? randomUUID() : scanIdOf("staff", ctx.meta.staff.keyId, action, key);
}

export async function parcelByTracking(ctx: Context, trackingNumber: string): Promise<NetworkParcel> {
  const { parcels } = await call(ctx, "parcels.networkParcels", { trackingNumbers: [trackingNumber] });
  const parcel = parcels.find(p => p.trackingNumber === trackingNumber && p.mode === "live");
  if (!parcel) throw new AppError("PARCEL_NOT_FOUND", `No live parcel ${trackingNumber}`);
  return parcel;
}
