import { Joi } from "../../../lib/joi";
import { component, objectOf } from "../../../lib/openapi/json-schema";
import { relayCode } from "../../../lib/schemas";
import { parcelId } from "../parcels.params";
import { PublicTrackingSchema } from "../public-tracking.params";
import { CODE_VALID_SECONDS, MAX_CODE_FAILURES, MAX_CODES_PER_HOUR } from "./redirect";
import { MAX_RECIPIENT_REDIRECTS, MAX_REDIRECTS } from "./redirect-rules";

/** The params of redirects before arrival (issue 21), each interface beside the Joi schema that validates it. */

const destination = () =>
  relayCode()
    .required()
    .description("The relay point the parcel goes to now: an active point of the directory with room on its shelf.")
    .example("DZ-16-BAB-EZZOUAR");

export interface MerchantRedirectParams {
  id: string;
  destinationRelayCode: string;
}
export const MerchantRedirectSchema = Joi.object<MerchantRedirectParams, true>({
  id: parcelId().required(),
  destinationRelayCode: destination()
});

export const MERCHANT_REDIRECT_DESCRIPTION =
  "Sends a parcel of the key's organisation to another relay point before it arrives (status CREATED to IN_TRANSIT): " +
  "destinationRelayCode changes, the price does not (the tariff is by weight), a parcel.redirected webhook names the old and " +
  "the new relay point, the history shows it, and the relay points' incoming lists follow. At most " +
  `${MAX_REDIRECTS} redirects per parcel, the recipient's included (409 REDIRECT_LIMIT); at or after AT_RELAY, 409 ` +
  "PARCEL_ALREADY_AT_RELAY; an unknown or inactive relay point, 400 RELAY_NOT_FOUND; a relay point whose shelf holds its " +
  "capacity, 409 RELAY_FULL; the parcel's own destination, 400. Another organisation's parcel, or one of the other mode, is " +
  "reported as not found.";

export type VerificationParams = { trackingNumber: string };
export const VerificationSchema = PublicTrackingSchema;

export interface VerificationAnswer {
  message: string;
  codeValidSeconds: number;
}
export const VerificationView = component(
  "RedirectVerification",
  objectOf<VerificationAnswer>(
    {
      message: { type: "string", description: "The same text for every number." },
      codeValidSeconds: { type: "integer", const: CODE_VALID_SECONDS, description: "How long a code is valid." }
    },
    { description: "The same answer for every tracking number, whether or not a code was sent." }
  )
);

export const VERIFICATION_DESCRIPTION =
  "The recipient asks to change the relay point: when the parcel may still be redirected by its recipient, a 6-digit code " +
  `goes by SMS to the recipient's phone, valid ${CODE_VALID_SECONDS / 60} minutes and ${MAX_CODE_FAILURES} tries (a new code ends ` +
  `the previous one; at most ${MAX_CODES_PER_HOUR} codes an hour per parcel). The answer is always 202 with the same body, ` +
  "whether the number exists, is redirectable, or got a code: it reveals nothing about the parcel. Limited per client " +
  "address like public tracking.";

export interface RecipientRedirectParams {
  trackingNumber: string;
  code: string;
  destinationRelayCode: string;
}
export const RecipientRedirectSchema = Joi.object<RecipientRedirectParams, true>({
  trackingNumber: Joi.string()
    .required()
    .description("The tracking number as printed or received by SMS (case, spaces, dots and dashes do not matter).")
    .example("RP123456785DZ"),
  code: Joi.string()
    .pattern(/^[0-9]{6}$/)
    .required()
    .messages({ "string.pattern.base": "{{#label}} must be the 6 digits of the SMS" })
    .description("The 6-digit code sent by SMS.")
    .example("482913"),
  destinationRelayCode: destination()
});

export const RECIPIENT_REDIRECT_DESCRIPTION =
  "The recipient changes the relay point with the code of the SMS (POST …/verification): the answer is the public tracking " +
  `view with the new destination. The recipient may do it ${MAX_RECIPIENT_REDIRECTS === 1 ? "once" : `${MAX_RECIPIENT_REDIRECTS} times`}, ` +
  `and it counts toward the parcel's ${MAX_REDIRECTS} redirects (409 REDIRECT_LIMIT). A wrong, expired or used-up code, or ` +
  "an unknown number, is the same 403 VERIFICATION_CODE_INVALID; the fifth wrong try ends the code. The relay point is " +
  "judged as for the merchant (400 RELAY_NOT_FOUND, 409 RELAY_FULL, 409 PARCEL_ALREADY_AT_RELAY); such a refusal leaves the " +
  "code valid for another choice.";
