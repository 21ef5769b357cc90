import type { Context } from "moleculer";
import { call } from "../../lib/contract";
import type { LabelData } from "./render";
import type { ParcelLabelData } from "../parcels/parcels.contract";

/**
 * What the renderer needs of each parcel: its label data and its sender's name, asked once per
 * organisation (a merged document normally holds one merchant's parcels), and the brand (BRAND_NAME).
 */
export async function labelInputs(ctx: Context, parcels: readonly ParcelLabelData[], brandName: string): Promise<LabelData[]> {
  const senders = new Map<string, string>();
  for (const organizationId of new Set(parcels.map(p => p.organizationId))) {
    senders.set(organizationId, (await call(ctx, "auth.getOrganization", { organizationId })).name);
  }
  return parcels.map(parcel => ({
    trackingNumber: parcel.trackingNumber,
    relayCode: parcel.relayCode,
    relayName: parcel.relayName,
    relayNameAr: parcel.relayNameAr,
    relayCity: parcel.relayCity,
    relayCityAr: parcel.relayCityAr,
    relayAddress: parcel.relayAddress,
    relayWilaya: parcel.relayWilaya,
    weightG: parcel.weightG,
    codAmountDzd: parcel.codAmountDzd,
    senderName: senders.get(parcel.organizationId)!,
    brandName,
    createdAt: parcel.createdAt,
    sandbox: parcel.sandbox
  }));
}
