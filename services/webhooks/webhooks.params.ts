import type { ParcelEvent } from "../../lib/events";
import { Joi } from "../../lib/joi";
import { component, dateTime, nullable, objectOf, uuidSchema } from "../../lib/openapi/json-schema";
import { pageSchema } from "../../lib/parcel-view";
import { keyMode, queryInteger, uuid } from "../../lib/schemas";
import { webhookDocs } from "./event-docs";
import { AttemptLogEntry, DELIVERY_STATUSES, DeliveryStatus } from "./webhooks.store";

/** The params of every webhooks action (each interface beside the Joi schema that validates it) and the answers' schemas. */

export interface EnqueueParams {
  event: ParcelEvent;
}
export const EnqueueSchema = Joi.object<EnqueueParams, true>({
  event: Joi.object({
    id: uuid().required(),
    type: Joi.string()
      .pattern(/^parcel\.[a-z_]{1,40}$/)
      .required(),
    createdAt: Joi.string().max(64).required(),
    organizationId: uuid().required(),
    mode: keyMode().required(),
    sandbox: Joi.boolean().required(),
    reason: Joi.string().max(2000).allow(null).required(),
    data: Joi.object({
      previousStatus: Joi.string().max(40).allow(null).required(),
      parcel: Joi.object({ id: uuid().required() }).unknown(true).required()
    })
      .unknown(true)
      .required()
  })
    .unknown(true)
    .required()
});

const organizationId = () => uuid().description("Organisation id (uuid).");

export interface SetEndpointParams {
  organizationId: string;
  url: string;
  secret: string;
}
export const SetEndpointSchema = Joi.object<SetEndpointParams, true>({
  organizationId: organizationId().required(),
  url: Joi.string()
    .max(2000)
    .uri({ scheme: ["http", "https"] })
    .required()
    .description("http(s) URL receiving the POSTs.")
    .example("https://shop.example.dz/hooks/relay"),
  secret: Joi.string().min(16).max(200).required().description("HMAC secret, 16 to 200 characters; never shown again.")
});

export interface ListDeliveriesParams {
  organizationId: string;
  status: DeliveryStatus | null;
  page: number;
  size: number;
}
export const ListDeliveriesSchema = Joi.object<ListDeliveriesParams, true>({
  organizationId: organizationId().required(),
  // `?status=&page=&size=` with empty values means "not given".
  status: Joi.string()
    .valid(...DELIVERY_STATUSES)
    .allow(null)
    .empty("")
    .default(null)
    .description("Only deliveries in this state."),
  page: queryInteger().min(0).max(1_000_000).empty("").default(0).description("Zero-based page."),
  size: queryInteger().min(1).max(100).empty("").default(20).description("Page size.")
}).unknown(true);

export interface IdParams {
  id: string;
}
export const IdSchema = Joi.object<IdParams, true>({ id: uuid().required().description("Delivery id (uuid).") });

// --- answers ------------------------------------------------------------------------------------

export interface DeliveryItem {
  id: string;
  eventId: string;
  eventType: string;
  status: DeliveryStatus;
  attempts: number;
  nextAttemptAt: string | null;
  lastStatusCode: number | null;
  lastError: string | null;
  deliveredAt: string | null;
  createdAt: string;
  attemptLog: AttemptLogEntry[];
}

export const WebhookEndpointView = component("WebhookEndpoint", objectOf<{ url: string }>({ url: { type: "string", format: "uri" } }));

export const DeliveryPageView = pageSchema(
  "DeliveryPage",
  objectOf<DeliveryItem>({
    id: uuidSchema("Delivery id (X-Relay-Delivery-Id)."),
    eventId: uuidSchema("Event id (the body's id)."),
    eventType: { type: "string", pattern: "^parcel\\.[a-z_]+$" },
    status: { type: "string", enum: [...DELIVERY_STATUSES] },
    attempts: { type: "integer", minimum: 0 },
    nextAttemptAt: nullable(dateTime("Next attempt, UTC.")),
    lastStatusCode: { type: ["integer", "null"] },
    lastError: { type: ["string", "null"] },
    deliveredAt: nullable(dateTime("Delivery time, UTC.")),
    createdAt: dateTime("Enqueue time, UTC."),
    attemptLog: {
      type: "array",
      items: objectOf<AttemptLogEntry>({
        attempt: { type: "integer", minimum: 1 },
        at: dateTime("Start of the attempt, UTC."),
        statusCode: { type: ["integer", "null"] },
        error: { type: ["string", "null"] },
        durationMs: { type: "integer", minimum: 0 }
      })
    }
  }),
  "The deliveries of this page, newest first.",
  "One page of webhook deliveries."
);

export const RedeliveryView = component(
  "Redelivery",
  objectOf<{ id: string; status: "pending" }>({ id: uuidSchema(), status: { type: "string", const: "pending" } })
);

export const WEBHOOKS_DOCS = {
  tags: [
    { name: "Webhooks", description: "Signed POSTs of every parcel status change to the merchant's endpoint, and their delivery log." }
  ],
  webhooks: webhookDocs()
};
