import { formatDateTime } from "../../lib/algiers-format";
import { composePickupSms, PickupSmsInput, RelayPointInfo } from "./pickup-sms";
import { composeReturnCodeSms } from "./return-sms";

/**
 * What an SMS is for (migrations notifications/004, 006, 007): only the pick-up SMS moves the parcel
 * on. A redirect code (code-sms.ts) is sent on the recipient's request, not for a parcel event.
 */
export type SmsKind = "pickup" | "pickup_reminder" | "pickup_expired" | "return_code" | "redirect_code";

export interface HoldingSmsInput extends PickupSmsInput {
  /** The pick-up deadline (ISO 8601 UTC), for the reminder. */
  pickupDeadline: string | null;
}

function relayName(relay: RelayPointInfo): string {
  const name = (relay.name ?? "").replace(/\s+/g, " ").trim();
  return name ? `${name} (${relay.code})` : relay.code;
}

/**
 * The texts of the holding period, in French like the pick-up SMS: the reminder names the relay
 * point and the deadline in Algiers time; the expiry says the parcel goes back. Neither carries the
 * PIN (the pick-up SMS did; an operator's reset sends a new one).
 */
/** The kinds sent for a parcel event, composed here. */
export type ParcelSmsKind = Exclude<SmsKind, "redirect_code">;

export function composeSms(kind: ParcelSmsKind, input: HoldingSmsInput): string {
  if (kind === "pickup") return composePickupSms(input);
  if (kind === "return_code")
    return composeReturnCodeSms({ trackingNumber: input.trackingNumber, code: input.pin, expiresAt: input.pickupDeadline });
  if (kind === "pickup_reminder") {
    const until = input.pickupDeadline ? ` avant le ${formatDateTime(input.pickupDeadline, "fr")}` : "";
    return (
      `Rappel: votre colis ${input.trackingNumber} vous attend au point relais ${relayName(input.relay)}. ` +
      `Retirez-le${until}, sinon il sera renvoyé à l'expéditeur.`
    );
  }
  return (
    `Votre colis ${input.trackingNumber} n'a pas été retiré à temps au point relais ${relayName(input.relay)}: ` +
    "il est renvoyé à l'expéditeur."
  );
}
