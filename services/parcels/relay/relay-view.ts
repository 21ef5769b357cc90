import { decryptField } from "../../../lib/crypto";
import { toDzd } from "../../../lib/money";
import type { RelayParcelView } from "./relay.params";
import type { ShelfParcel } from "./relay.store";

/**
 * Enough of the recipient to find the parcel on the shelf and no more: the initial of the name
 * and the last two digits of the phone ("A. ••56"). The agent checks an identity document anyway;
 * the hint only narrows the shelf.
 */
export function recipientHint(name: string, phone: string): string {
  const digits = phone.replace(/\D/g, "");
  return `${recipientInitial(name)}. ••${digits.slice(-2)}`;
}

/** The first letter of a name, as the hint shows it and the shelf search compares it. */
export function recipientInitial(name: string): string {
  return [...name.trim()][0]?.toLocaleUpperCase("fr") ?? "?";
}

export function openRecipient(shelf: ShelfParcel, encryptionKey: string): { name: string; phone: string } {
  return {
    name: decryptField(shelf.parcel.recipientNameEnc, encryptionKey),
    phone: decryptField(shelf.parcel.recipientPhoneEnc, encryptionKey)
  };
}

export function toRelayParcelView(shelf: ShelfParcel, encryptionKey: string): RelayParcelView {
  const { parcel } = shelf;
  const recipient = openRecipient(shelf, encryptionKey);
  return {
    trackingNumber: parcel.trackingNumber,
    status: parcel.status as RelayParcelView["status"],
    weightG: parcel.weightG,
    arrivedAt: shelf.arrivedAt?.toISOString() ?? null,
    pickupDeadline: shelf.pickupDeadline?.toISOString() ?? null,
    codToCollectDzd: parcel.codStatus === "PENDING" && parcel.codAmountCentimes !== null ? toDzd(parcel.codAmountCentimes) : null,
    recipientHint: recipientHint(recipient.name, recipient.phone),
    passVersion: shelf.passVersion
  };
}
