import { Joi } from "../../../lib/joi";
import { LANGUAGES, type Lang } from "../../../lib/languages";
import { component, dateTime, objectOf, uuidSchema } from "../../../lib/openapi/json-schema";
import { queryInteger, uuid } from "../../../lib/schemas";
import type { RecipientSettings } from "./recipient-settings.store";

/** The params of the recipient actions (issue 30), each interface beside the Joi schema that validates it. */

export const RecipientSettingsSchema = Joi.object<RecipientSettings, true>({
  rejectNonMobilePhones: Joi.boolean()
    .required()
    .description(
      "true: a recipientPhone that cannot take an SMS (a landline, or too short for its country) is refused with 400 " +
        "RECIPIENT_PHONE_INVALID by create, quote and batch. false (the default): it is accepted with a " +
        "RECIPIENT_PHONE_NOT_MOBILE warning, and parcel.recipient_unreachable follows."
    )
    .example(false),
  defaultLanguage: Joi.string()
    .valid(...LANGUAGES)
    .required()
    .description("The language of your recipients' SMS and tracking page when a parcel names no recipientLanguage: fr, ar or en.")
    .example("fr")
});

export const RecipientSettingsView = component(
  "RecipientSettings",
  objectOf<RecipientSettings>({
    rejectNonMobilePhones: { type: "boolean", description: "Refuse numbers that cannot take an SMS instead of warning." },
    defaultLanguage: { type: "string", enum: [...LANGUAGES], description: "The SMS language when a parcel names none." }
  })
);

export interface NonMobilePhonesParams {
  page: number;
  size: number;
}
export const NonMobilePhonesSchema = Joi.object<NonMobilePhonesParams, true>({
  page: queryInteger().min(0).max(2_147_483_647).default(0).description("Zero-based page number."),
  size: queryInteger().min(1).max(100).default(20).description("Page size, 1 to 100.")
});

/** A parcel whose recipient's number cannot take an SMS, as operators list it: the number masked. */
export interface NonMobilePhoneItem {
  parcelId: string;
  trackingNumber: string;
  organizationId: string;
  mode: string;
  status: string;
  phoneMasked: string;
  createdAt: string;
}
export const NonMobilePhoneItemView = component(
  "NonMobilePhoneItem",
  objectOf<NonMobilePhoneItem>({
    parcelId: uuidSchema("The parcel."),
    trackingNumber: { type: "string", description: "Its tracking number." },
    organizationId: uuidSchema("The merchant."),
    mode: { type: "string", enum: ["live", "sandbox"] },
    status: { type: "string", description: "The parcel's status." },
    phoneMasked: { type: "string", description: "The number as stored, masked: enough to recognise it, not to call it." },
    createdAt: dateTime("Creation time, UTC.")
  })
);

export interface TrackingNumberLangParams {
  trackingNumber: string;
  lang: Lang;
}
export const TrackingNumberLangSchema = Joi.object<TrackingNumberLangParams, true>({
  trackingNumber: Joi.string().max(50).required(),
  lang: Joi.string()
    .valid(...LANGUAGES)
    .required()
});

export interface ParcelUnreachableParams {
  parcelId: string;
}
export const ParcelUnreachableSchema = Joi.object<ParcelUnreachableParams, true>({ parcelId: uuid().required() });

export const TrackingNumberSchema = Joi.object<{ trackingNumber: string }, true>({ trackingNumber: Joi.string().max(50).required() });
