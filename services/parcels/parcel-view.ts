import { toDzd } from "../../lib/money";
import type { ParcelStatus } from "../../lib/parcel-status";
import type { ParcelView } from "../../lib/parcel-view";
import type { ParcelRow } from "./parcels.store";

export function toParcelView(row: ParcelRow, labelUrl: string | null): ParcelView {
  return {
    id: row.id,
    trackingNumber: row.tracking_number,
    status: row.status as ParcelStatus,
    destinationRelayCode: row.destination_relay_code,
    labelUrl,
    pricePaidDzd: toDzd(row.price_centimes),
    codAmountDzd: row.cod_amount_centimes === null ? null : toDzd(row.cod_amount_centimes),
    createdAt: row.created_at.toISOString(),
    updatedAt: row.updated_at.toISOString()
  };
}
