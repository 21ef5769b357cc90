import { toDzd } from "../../lib/money";
import type { ParcelStatus } from "../../lib/parcel-status";
import type { ParcelView } from "../../lib/parcel-view";
import type { ParcelRecord } from "./parcels.store";
import { insuredValueOf } from "./tariff";

export function toParcelView(parcel: ParcelRecord, labelUrl: string | null): ParcelView {
  return {
    id: parcel.id,
    trackingNumber: parcel.trackingNumber,
    status: parcel.status as ParcelStatus,
    destinationRelayCode: parcel.destinationRelayCode,
    labelUrl,
    pricePaidDzd: toDzd(parcel.priceCentimes),
    codAmountDzd: parcel.codAmountCentimes === null ? null : toDzd(parcel.codAmountCentimes),
    insuredValueDzd: toDzd(insuredValueOf(parcel.declaredValueCentimes)),
    codStatus: parcel.codStatus,
    pickupDeadline: parcel.pickupDeadline === null ? null : parcel.pickupDeadline.toISOString(),
    // Shown once the wallet took it: until then the merchant's ledger does not have it either.
    returnFeeDzd: parcel.returnFeeCentimes === null || parcel.returnFeePending ? null : toDzd(parcel.returnFeeCentimes),
    direction: parcel.direction,
    returnOf: parcel.returnOf,
    createdAt: parcel.createdAt.toISOString(),
    updatedAt: parcel.updatedAt.toISOString()
  };
}
