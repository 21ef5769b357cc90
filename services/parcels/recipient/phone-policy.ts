import { AppError } from "../../../lib/errors";
import { normaliseRecipientPhone, RecipientPhone } from "../../../lib/recipient-phone";
import type { RecipientSettings } from "./recipient-settings.store";

/**
 * The merchant's choice for a number that matches the SPEC's pattern but cannot take an SMS: by
 * default it is accepted (a SPEC client keeps working) with a warning; with
 * `rejectNonMobilePhones` it is refused. Create, quote, batch, redirect and returns ask here.
 */
export function acceptRecipientPhone(raw: string, settings: Pick<RecipientSettings, "rejectNonMobilePhones">): RecipientPhone {
  const phone = normaliseRecipientPhone(raw);
  if (!phone.mobile && settings.rejectNonMobilePhones) {
    throw new AppError("RECIPIENT_PHONE_INVALID", "The recipient's phone number cannot receive an SMS", {
      details: [{ field: "recipientPhone", message: "not a mobile number (a landline, or too short for its country)" }]
    });
  }
  return phone;
}
