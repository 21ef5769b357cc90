import { Joi } from "../../../lib/joi";
import { component, dateTime, nullable, objectOf, uuidSchema } from "../../../lib/openapi/json-schema";
import { pageSchema } from "../../../lib/parcel-view";
import { queryInteger } from "../../../lib/schemas";
import type { ExceptionRecord } from "./exceptions.store";

/** GET /api/backoffice/v1/exceptions (decision 0058): its parameters and its answer. */

export interface ExceptionListParams {
  page: number;
  size: number;
}
export const ExceptionListSchema = Joi.object<ExceptionListParams, true>({
  page: queryInteger().min(0).max(2_147_483_647).default(0).description("Zero-based page number."),
  size: queryInteger().min(1).max(100).default(20).description("Page size, 1 to 100.")
}).unknown(true);

const wilaya = (description: string) => nullable({ type: "string", pattern: "^\\d{2}$", description });

export const ExceptionViewSchema = component(
  "NetworkException",
  objectOf<ExceptionRecord>({
    id: uuidSchema(),
    parcelId: uuidSchema(),
    trackingNumber: { type: "string" },
    organizationId: uuidSchema("The parcel's organisation."),
    kind: { type: "string", enum: ["MISSORT"] },
    reason: {
      type: "string",
      enum: ["OFF_ROUTE_HUB", "WRONG_RELAY"],
      description:
        "OFF_ROUTE_HUB: scanned in at a hub whose wilaya is neither the parcel's origin nor its relay point's; WRONG_RELAY: " +
        "brought to a relay point it is not addressed to."
    },
    foundAt: { type: "string", description: "The hub's or relay point's code." },
    foundInWilaya: wilaya("That place's wilaya."),
    rerouteToWilaya: wilaya("Where it goes now: its relay point's wilaya."),
    rerouteToRelayCode: { type: "string", description: "Its destination relay point." },
    occurredAt: dateTime("When the scan happened."),
    createdAt: dateTime("When it was recorded.")
  })
);

export const ExceptionPageSchema = pageSchema("NetworkExceptionPage", ExceptionViewSchema, "Newest first.", "A page of exceptions.");

export interface ReportWrongRelayParams {
  trackingNumber: string;
  relayCode: string;
  relayWilaya: string | null;
}
export const ReportWrongRelaySchema = Joi.object<ReportWrongRelayParams, true>({
  trackingNumber: Joi.string().max(48).required(),
  relayCode: Joi.string().max(40).required(),
  relayWilaya: Joi.string()
    .pattern(/^\d{2}$/)
    .allow(null)
    .required()
});
