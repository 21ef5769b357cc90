import { MASKED_PIN } from "../../lib/pickup-pin";
import { redirectCodeText, SmsContext } from "./sms-texts";

/**
 * The recipient's verification code to change a parcel's relay point (issue 21), in their
 * language (issue 30). It says what the code is for and that nobody will ask for it, since someone
 * who asks for it over the phone is the one thing that can defeat it.
 */
export function composeRedirectCodeSms(ctx: SmsContext, input: { trackingNumber: string; code: string; validMinutes: number }): string {
  return redirectCodeText(ctx, input);
}

/** The stored, listable copy: the code masked, like the pick-up PIN. */
export const maskedRedirectCodeSms = (ctx: SmsContext, input: { trackingNumber: string; validMinutes: number }) =>
  composeRedirectCodeSms(ctx, { ...input, code: MASKED_PIN });
