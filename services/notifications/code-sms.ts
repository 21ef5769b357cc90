import { MASKED_PIN } from "../../lib/pickup-pin";

/**
 * The recipient's verification code to change a parcel's relay point (issue 21), in French like
 * the other SMS. It says what the code is for and that nobody will ask for it, since someone who
 * asks for it over the phone is the one thing that can defeat it.
 */
export function composeRedirectCodeSms(input: { trackingNumber: string; code: string; validMinutes: number }): string {
  return (
    `Code ${input.code}: pour changer le point relais de votre colis ${input.trackingNumber}. ` +
    `Valable ${input.validMinutes} minutes. Ne le donnez à personne.`
  );
}

/** The stored, listable copy: the code masked, like the pick-up PIN. */
export const maskedRedirectCodeSms = (input: { trackingNumber: string; validMinutes: number }) =>
  composeRedirectCodeSms({ ...input, code: MASKED_PIN });
