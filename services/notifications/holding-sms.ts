import type { PickupSmsInput, RelayPointInfo } from "./pickup-sms";
import { expiredText, newPickupCodeText, pickupText, reminderText, returnCodeText, SmsContext } from "./sms-texts";

/**
 * What an SMS is for (migrations notifications/004, 006, 007, 009): only the pick-up SMS moves the
 * parcel on. A redirect code (code-sms.ts) and a new pick-up code are sent on request, not for a
 * parcel event.
 */
export type SmsKind =
  "pickup" | "pickup_reminder" | "pickup_expired" | "return_code" | "redirect_code" | "pickup_code_resend" | "handover_confirmation";

export interface HoldingSmsInput extends PickupSmsInput {
  /** The pick-up deadline (ISO 8601 UTC), for the reminder. */
  pickupDeadline: string | null;
  /** The pick-up SMS's link key to the pickup pass (issue 43), or its mask; null when there is none. */
  passKey?: string | null;
}

/** The relay point as an SMS names it: in Arabic its Arabic name, else its name, else its code. */
function relayName(relay: RelayPointInfo, lang: SmsContext["lang"]): string {
  const oneLine = (text: string | null) => (text ?? "").replace(/\s+/g, " ").trim();
  return (lang === "ar" ? oneLine(relay.nameAr) : "") || oneLine(relay.name) || relay.code;
}

/** The kinds sent for a parcel event, composed here (sms-texts.ts), in the recipient's language. */
export type ParcelSmsKind = Exclude<SmsKind, "redirect_code" | "pickup_code_resend" | "handover_confirmation">;

/** The kinds composed here: a parcel event's, and a new pick-up code (a resend, an operator's reset). */
export type ComposedSmsKind = Exclude<SmsKind, "redirect_code">;

/** The kinds whose SMS carries the pick-up PIN, and whose sending moves the parcel to RELAY_NOTIFIED. */
export const carriesPickupPin = (kind: SmsKind) => kind === "pickup" || kind === "pickup_code_resend";

export function composeSms(kind: ComposedSmsKind, input: HoldingSmsInput, ctx: SmsContext): string {
  const base = { trackingNumber: input.trackingNumber, relayName: relayName(input.relay, ctx.lang) };
  // Every new PIN makes the one before it useless: the SMS says so (issue 43), and gives the code alone.
  if (kind === "pickup_code_resend") return newPickupCodeText(ctx, { trackingNumber: input.trackingNumber, pin: input.pin ?? "" });
  if (kind === "pickup")
    return pickupText(ctx, {
      ...base,
      pin: input.pin,
      codAmountDzd: input.codAmountDzd,
      pickupDeadline: input.pickupDeadline,
      passKey: input.passKey
    });
  if (kind === "return_code")
    return returnCodeText(ctx, { trackingNumber: input.trackingNumber, code: input.pin, expiresAt: input.pickupDeadline });
  if (kind === "pickup_reminder") return reminderText(ctx, { ...base, pickupDeadline: input.pickupDeadline });
  return expiredText(ctx, base);
}
