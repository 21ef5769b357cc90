import { decryptField } from "../../../lib/crypto";
import { toDzd } from "../../../lib/money";
import type { CounterStatus, RelayParcelView } from "./relay.params";
import type { ShelfParcel } from "./relay.store";

/**
 * Enough of the recipient to find the parcel on the shelf and no more: the initial of the name
 * and the last two digits of the phone ("A. ••56"). The agent checks an identity document anyway;
 * the hint only narrows the shelf.
 */
export function recipientHint(name: string, phone: string): string {
  const initial = [...name.trim()][0]?.toLocaleUpperCase("fr") ?? "?";
  const digits = phone.replace(/\D/g, "");
  return `${initial}. ••${digits.slice(-2)}`;
}

export function toRelayParcelView(shelf: ShelfParcel, encryptionKey: string): RelayParcelView {
  const { parcel } = shelf;
  return {
    trackingNumber: parcel.trackingNumber,
    status: parcel.status as CounterStatus | "DELIVERED",
    weightG: parcel.weightG,
    arrivedAt: shelf.arrivedAt?.toISOString() ?? null,
    pickupDeadline: shelf.pickupDeadline?.toISOString() ?? null,
    codToCollectDzd: parcel.codStatus === "PENDING" && parcel.codAmountCentimes !== null ? toDzd(parcel.codAmountCentimes) : null,
    recipientHint: recipientHint(
      decryptField(parcel.recipientNameEnc, encryptionKey),
      decryptField(parcel.recipientPhoneEnc, encryptionKey)
    )
  };
}
