import { occurredAtKey } from "../../../lib/occurred-at";
import { Joi } from "../../../lib/joi";
import { component, objectOf } from "../../../lib/openapi/json-schema";
import { Page, pageSchema } from "../../../lib/parcel-view";
import { RETURN_STATUSES, ReturnItem, ReturnStatus, ReturnViewSchema } from "../../../lib/returns";
import { queryInteger, relayCode } from "../../../lib/schemas";
import { correctedDeadline } from "../holding.params";
import { parcelId } from "../parcels.params";

/** The params of customers' returns (issue 21), each interface beside the Joi schema that validates it, and their answers. */

export interface OpenReturnParams {
  id: string;
  reason: string;
  items: ReturnItem[];
  destinationRelayCode: string | null;
}
export const OpenReturnSchema = Joi.object<OpenReturnParams, true>({
  id: parcelId().required(),
  reason: Joi.string()
    .trim()
    .min(1)
    .max(500)
    .required()
    .description("Why the customer sends it back (at most 500 characters).")
    .example("Taille trop petite"),
  items: Joi.array()
    .items(
      Joi.object<ReturnItem, true>({
        description: Joi.string().trim().min(1).max(200).required().description("What is sent back.").example("Robe bleue"),
        quantity: Joi.number().integer().min(1).max(1000).required().description("How many.").example(1)
      })
    )
    .max(50)
    .default([])
    .description("What is sent back, at most 50 lines; none when omitted."),
  destinationRelayCode: relayCode()
    .allow(null)
    .default(null)
    .description("Where the return goes, where you collect it; your return relay point (PUT /return-settings) when omitted.")
    .example("DZ-16-ALGER-CENTRE")
});

export interface ReturnIdParams {
  id: string;
}
export const ReturnIdSchema = Joi.object<ReturnIdParams, true>({ id: parcelId().required().description("The return's id.") }).unknown(true);

export interface ReturnListParams {
  status: ReturnStatus | null;
  page: number;
  size: number;
}
export const ReturnListSchema = Joi.object<ReturnListParams, true>({
  status: Joi.string()
    .valid(...RETURN_STATUSES)
    .allow(null)
    .default(null)
    .description("Only returns in this status."),
  page: queryInteger().min(0).max(2_147_483_647).default(0).description("Zero-based page number."),
  size: queryInteger().min(1).max(100).default(20).description("Page size, 1 to 100.")
}).unknown(true);

export interface ReturnSettings {
  returnRelayCode: string | null;
}
export interface ReturnSettingsParams {
  returnRelayCode: string;
}
export const ReturnSettingsSchema = Joi.object<ReturnSettingsParams, true>({
  returnRelayCode: relayCode()
    .required()
    .description("The relay point your customers' returns go to unless a return names its own.")
    .example("DZ-16-ALGER-CENTRE")
});
export const ReturnSettingsView = component(
  "ReturnSettings",
  objectOf<ReturnSettings>({
    returnRelayCode: {
      type: ["string", "null"],
      description: "Where returns go unless a return names its own relay point; null until set (a return must then name one)."
    }
  })
);

export interface DropOffParams {
  returnCode: string;
  weightG: number | null;
  occurredAt: string | null;
}
export const DropOffSchema = Joi.object<DropOffParams, true>({
  occurredAt: occurredAtKey(),
  returnCode: Joi.string()
    .min(1)
    .max(32)
    .required()
    .description("The customer's return code as read or typed: case, spaces and dashes do not matter.")
    .example("K7QX3MPA"),
  weightG: Joi.number()
    .integer()
    .min(1)
    .max(30_000)
    .allow(null)
    .default(null)
    .description("The weight measured at the counter; the original parcel's when omitted.")
});

export interface SandboxDropOffParams {
  id: string;
  relayCode: string | null;
}
export const SandboxDropOffSchema = Joi.object<SandboxDropOffParams, true>({
  id: parcelId().required().description("The return's id."),
  relayCode: relayCode()
    .allow(null)
    .default(null)
    .description("The relay point it is dropped off at; the return's destination when omitted.")
    .example("DZ-16-ALGER-CENTRE")
});

export interface ReturnExpiryParams {
  id: string;
  expiresAt: string;
}
export const ReturnExpirySchema = Joi.object<ReturnExpiryParams, true>({
  id: parcelId().required().description("The return's id."),
  expiresAt: correctedDeadline().description(
    "The return code's new deadline (ISO 8601 with its zone). A time already past expires the return within seconds."
  )
});

export const ReturnPageSchema = pageSchema(
  "ReturnPage",
  ReturnViewSchema,
  "The returns of this page, newest first.",
  "One page of returns."
);
export type ReturnPage = Page<import("../../../lib/returns").ReturnView>;

export const RETURNS_DOCS_TAGS = [
  {
    name: "Returns",
    description:
      "Customers' returns of delivered parcels: a code by SMS, a drop-off at any relay point, the fee charged only then, and the " +
      "return parcel collected at your relay point."
  }
];
