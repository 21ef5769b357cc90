import { toDzd } from "../../lib/money";
import type { ParcelLabelData } from "./parcels.contract";
import type { LabelRecord } from "./parcels.store";

/** What a label prints of a parcel and its relay point; a point since removed from the directory prints as its code. */
export function toLabelData({ parcel, relay }: LabelRecord): ParcelLabelData & { parcelId: string } {
  return {
    parcelId: parcel.id,
    trackingNumber: parcel.trackingNumber,
    relayCode: parcel.destinationRelayCode,
    relayName: relay?.name ?? parcel.destinationRelayCode,
    relayNameAr: relay?.nameAr ?? null,
    relayCity: relay?.city ?? null,
    relayCityAr: relay?.cityAr ?? null,
    relayAddress: relay?.address ?? null,
    relayWilaya: relay?.wilaya ?? null,
    weightG: parcel.weightG,
    codAmountDzd: parcel.codAmountCentimes === null ? null : toDzd(parcel.codAmountCentimes),
    organizationId: parcel.organizationId,
    createdAt: parcel.createdAt.toISOString(),
    sandbox: parcel.mode === "sandbox"
  };
}
