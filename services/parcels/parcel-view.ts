import { codCashPlaceOf } from "../../lib/cod";
import { toDzd } from "../../lib/money";
import type { ParcelStatus } from "../../lib/parcel-status";
import type { ParcelView } from "../../lib/parcel-view";
import { custodyOf } from "./custody/custody-summary";
import type { ParcelRecord } from "./parcels.store";
import { insuredValueOf } from "./tariff";

/**
 * The view of each frozen record, without its label URL. A frozen record never changes (the
 * visible-parcel cache freezes what it keeps), so its view is built once: the three dates to ISO
 * and the amounts to dinars were most of a GET by id's own CPU after the HTTP write.
 */
const viewOfFrozen = new WeakMap<ParcelRecord, ParcelView>();

function buildView(parcel: ParcelRecord, labelUrl: string | null): ParcelView {
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
    codCashAt: codCashPlaceOf(parcel.codStatus, parcel.codCashAt),
    pickupDeadline: parcel.pickupDeadline === null ? null : parcel.pickupDeadline.toISOString(),
    // Shown once the wallet took it: until then the merchant's ledger does not have it either.
    returnFeeDzd: parcel.returnFeeCentimes === null || parcel.returnFeePending ? null : toDzd(parcel.returnFeeCentimes),
    direction: parcel.direction,
    returnOf: parcel.returnOf,
    createdAt: parcel.createdAt.toISOString(),
    updatedAt: parcel.updatedAt.toISOString(),
    custody: custodyOf(parcel)
  };
}

export function toParcelView(parcel: ParcelRecord, labelUrl: string | null): ParcelView {
  if (!Object.isFrozen(parcel)) return buildView(parcel, labelUrl);
  let view = viewOfFrozen.get(parcel);
  if (!view) {
    view = buildView(parcel, null);
    viewOfFrozen.set(parcel, view);
  }
  // A copy each time: the caller may add to it (warnings) and the label URL is its own.
  return { ...view, labelUrl };
}
