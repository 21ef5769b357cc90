import { EVENT_CURSOR_PATTERN, EXAMPLE_EVENT_CURSOR } from "./event-cursor";
import type { ParcelEvent, WebhookBody } from "../../lib/events";
import { Joi } from "../../lib/joi";
import { arrayOf, component, dateTime, nullable, objectOf, uuidSchema } from "../../lib/openapi/json-schema";
import type { JsonSchema } from "../../lib/openapi/types";
import { pageSchema } from "../../lib/parcel-view";
import { dateTimeText, isDateTime, keyMode, queryInteger, uuid } from "../../lib/schemas";
import { DEFAULT_ROTATION_OVERLAP_MS, MAX_ROTATION_OVERLAP_MS } from "./signing";
import { EVENT_TYPES, ANY_EVENT_SCHEMA, webhookDocs } from "./event-docs";
import { AttemptLogEntry, DELIVERY_STATUSES, DeliveryStatus, ENDPOINT_MODES, EndpointMode } from "./webhooks.store";

/** The params of every webhooks action (each interface beside the Joi schema that validates it) and the answers' schemas. */

/** Events written to the outbox before `occurredAt` and `sequence` existed may still arrive once, without them. */
export type IncomingParcelEvent = Omit<ParcelEvent, "occurredAt" | "sequence"> & Partial<Pick<ParcelEvent, "occurredAt" | "sequence">>;

/** A parcel event as the outbox relay hands it over. */
const IncomingEventSchema = Joi.object({
  id: uuid().required(),
  type: Joi.string()
    .pattern(/^(parcel|cod|claim|return|relay|pickup)\.[a-z_]{1,40}$/)
    .required(),
  createdAt: Joi.string().max(64).required(),
  occurredAt: Joi.string().max(64),
  sequence: Joi.number().integer().min(0).max(2_147_483_647),
  organizationId: uuid().required(),
  mode: keyMode().required(),
  sandbox: Joi.boolean().required(),
  reason: Joi.string().max(2000).allow(null).required(),
  data: Joi.object({
    // A status event says the status before; a COD event (cod.*) says the COD status before instead.
    previousStatus: Joi.string()
      .max(40)
      .allow(null)
      .when("...type", { is: Joi.string().pattern(/^parcel\./), then: Joi.required() }),
    previousCodStatus: Joi.string().max(40),
    // Parcel, COD and claim events are about a parcel; a relay event (relay.*) names its closure
    // instead, a pickup event (pickup.*, issue 44) its pickup.
    parcel: Joi.object({ id: uuid().required() })
      .unknown(true)
      .when("...type", { is: Joi.string().pattern(/^(relay|pickup)\./), then: Joi.forbidden(), otherwise: Joi.required() }),
    pickup: Joi.object({ id: uuid().required() })
      .unknown(true)
      .when("...type", { is: Joi.string().pattern(/^pickup\./), then: Joi.required(), otherwise: Joi.forbidden() }),
    closure: Joi.object({ id: uuid().required() })
      .unknown(true)
      .when("...type", { is: Joi.string().pattern(/^relay\./), then: Joi.required(), otherwise: Joi.forbidden() })
  })
    .unknown(true)
    .required()
})
  .unknown(true)
  .required();

export interface EnqueueParams {
  event: IncomingParcelEvent;
}
export const EnqueueSchema = Joi.object<EnqueueParams, true>({ event: IncomingEventSchema });

/** The most events one hand-off carries (the relay reads 200 outbox rows at a time). */
export const MAX_EVENTS_PER_HANDOFF = 500;

export interface EnqueueBatchParams {
  /** Oldest first: a parcel's events in the order they happened. */
  events: IncomingParcelEvent[];
}
export const EnqueueBatchSchema = Joi.object<EnqueueBatchParams, true>({
  events: Joi.array().items(IncomingEventSchema).min(1).max(MAX_EVENTS_PER_HANDOFF).required()
});

const organizationId = () => uuid().description("Organisation id (uuid).");
const endpointId = () => uuid().description("Webhook endpoint id (uuid).");
const webhookUrl = () =>
  Joi.string()
    .max(2000)
    .uri({ scheme: ["http", "https"] })
    .description("http(s) URL receiving the POSTs.")
    .example("https://shop.example.dz/hooks/relay");
const chosenSecret = () =>
  Joi.string()
    .min(16)
    .max(200)
    .description(
      "Your own secret, 16 to 200 characters. Leave it out to have one generated (whsec_ + base64 of 32 random bytes, the Standard Webhooks form)."
    );
const endpointMode = () =>
  Joi.string()
    .valid(...ENDPOINT_MODES)
    .description("Which events the endpoint receives: those of live parcels, of sandbox parcels, or both.");
const eventTypes = () =>
  Joi.array()
    .items(Joi.string().valid(...EVENT_TYPES))
    .min(1)
    .max(EVENT_TYPES.length)
    .unique()
    .allow(null)
    .description("The event types the endpoint receives; null for all of them, including types added later.");
const description = () => Joi.string().max(500).allow(null).description("A note for the merchant's own use, at most 500 characters.");

export interface SetEndpointParams {
  organizationId: string;
  url: string;
  secret: string;
}
export const SetEndpointSchema = Joi.object<SetEndpointParams, true>({
  organizationId: organizationId().required(),
  url: webhookUrl().required(),
  secret: Joi.string().min(16).max(200).required().description("HMAC secret, 16 to 200 characters; never shown again.")
});

export interface CreateEndpointParams {
  organizationId: string;
  url: string;
  secret: string | null;
  mode: EndpointMode;
  eventTypes: string[] | null;
  enabled: boolean;
  description: string | null;
}
export const CreateEndpointSchema = Joi.object<CreateEndpointParams, true>({
  organizationId: organizationId().required(),
  url: webhookUrl().required(),
  secret: chosenSecret().allow(null).default(null),
  mode: endpointMode().default("both"),
  eventTypes: eventTypes().default(null),
  enabled: Joi.boolean().default(true).description("A disabled endpoint receives nothing; its events are kept for a replay."),
  description: description().default(null)
});

export interface EndpointIdParams {
  organizationId: string;
  endpointId: string;
}
export const EndpointIdSchema = Joi.object<EndpointIdParams, true>({
  organizationId: organizationId().required(),
  endpointId: endpointId().required()
});

export interface UpdateEndpointParams extends EndpointIdParams {
  url?: string;
  mode?: EndpointMode;
  eventTypes?: string[] | null;
  enabled?: boolean;
  description?: string | null;
}
export const UpdateEndpointSchema = Joi.object<UpdateEndpointParams, true>({
  organizationId: organizationId().required(),
  endpointId: endpointId().required(),
  url: webhookUrl(),
  mode: endpointMode(),
  eventTypes: eventTypes(),
  enabled: Joi.boolean().description(
    "false disables the endpoint (its events are kept); true enables it again with a fresh failing allowance."
  ),
  description: description()
});

export interface RotateSecretParams extends EndpointIdParams {
  secret: string | null;
  overlapSeconds: number;
}
export const RotateSecretSchema = Joi.object<RotateSecretParams, true>({
  organizationId: organizationId().required(),
  endpointId: endpointId().required(),
  secret: chosenSecret().allow(null).default(null),
  overlapSeconds: Joi.number()
    .integer()
    .min(0)
    .max(MAX_ROTATION_OVERLAP_MS / 1000)
    .default(DEFAULT_ROTATION_OVERLAP_MS / 1000)
    .description(
      "How long the previous secrets keep signing beside the new one: 0 (a leaked secret: revoked at once) to 7 days; 24 hours by default."
    )
});

export type ReplayScope = "all" | "failed";

export interface ReplayParams extends EndpointIdParams {
  since: string;
  only: ReplayScope;
}
export const ReplaySchema = Joi.object<ReplayParams, true>({
  organizationId: organizationId().required(),
  endpointId: endpointId().required(),
  since: dateTimeText().required().example("2026-01-17T00:00:00Z"),
  only: Joi.string()
    .valid("all", "failed")
    .default("all")
    .description(
      "all: every event the endpoint takes since then, delivered or not; failed: only its deliveries that failed or were skipped."
    )
});

/** What the documents say of `since`: a date-time, which the handler checks exists (400 otherwise). */
export const SINCE_DOC = {
  description: "Events recorded at or after this date-time (events are kept 30 days).",
  handler: { schema: { format: "date-time" }, check: isDateTime }
};

export interface ListDeliveriesParams {
  organizationId: string;
  endpointId: string | null;
  status: DeliveryStatus | null;
  page: number;
  size: number;
}
export const ListDeliveriesSchema = Joi.object<ListDeliveriesParams, true>({
  organizationId: organizationId().required(),
  // `?status=&page=&size=` with empty values means "not given".
  endpointId: uuid().allow(null).empty("").default(null).description("Only the deliveries to this endpoint."),
  status: Joi.string()
    .valid(...DELIVERY_STATUSES)
    .allow(null)
    .empty("")
    .default(null)
    .description("Only deliveries in this state."),
  page: queryInteger().min(0).max(1_000_000).empty("").default(0).description("Zero-based page."),
  size: queryInteger().min(1).max(100).empty("").default(20).description("Page size.")
}).unknown(true);

export interface OrganizationParams {
  organizationId: string;
}
export const OrganizationSchema = Joi.object<OrganizationParams, true>({ organizationId: organizationId().required() }).unknown(true);

export interface IdParams {
  id: string;
}
export const IdSchema = Joi.object<IdParams, true>({ id: uuid().required().description("Delivery id (uuid).") });

export interface ListEventsParams {
  after: string | null;
  type: string | null;
  parcelId: string | null;
  limit: number;
}
export const ListEventsSchema = Joi.object<ListEventsParams, true>({
  after: Joi.string()
    .pattern(new RegExp(EVENT_CURSOR_PATTERN))
    .allow(null)
    .empty("")
    .default(null)
    .description("The `next` cursor of the previous page; leave it out to start 30 days back.")
    .example(EXAMPLE_EVENT_CURSOR),
  type: Joi.string()
    .valid(...EVENT_TYPES)
    .allow(null)
    .empty("")
    .default(null)
    .description("Only events of this type."),
  parcelId: uuid().allow(null).empty("").default(null).description("Only the events of this parcel."),
  limit: queryInteger().min(1).max(100).empty("").default(20).description("Events per page, 1 to 100.")
}).unknown(true);

export interface EventIdParams {
  id: string;
}
export const EventIdSchema = Joi.object<EventIdParams, true>({ id: uuid().required().description("Event id (the body's id).") }).unknown(
  true
);

// --- answers ------------------------------------------------------------------------------------

export interface DeliveryItem {
  id: string;
  eventId: string;
  endpointId: string;
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

export interface SecretInfo {
  createdAt: string;
  expiresAt: string | null;
}

export interface EndpointView {
  id: string;
  organizationId: string;
  url: string;
  description: string | null;
  mode: EndpointMode;
  eventTypes: string[] | null;
  enabled: boolean;
  isDefault: boolean;
  disabledAt: string | null;
  disabledReason: string | null;
  failingSince: string | null;
  lastSuccessAt: string | null;
  secrets: SecretInfo[];
  createdAt: string;
  updatedAt: string;
}

export interface EndpointWithSecret extends EndpointView {
  secret: string;
  standardWebhooksSecret: string;
}

const ENDPOINT_PROPERTIES: { [K in keyof EndpointView]-?: JsonSchema } = {
  id: uuidSchema("Endpoint id."),
  organizationId: uuidSchema("Its organisation."),
  url: { type: "string", format: "uri" },
  description: { type: ["string", "null"] },
  mode: { type: "string", enum: [...ENDPOINT_MODES], description: "live, sandbox or both." },
  eventTypes: nullable(arrayOf({ type: "string", enum: EVENT_TYPES }, "The event types it takes; null: all.")),
  enabled: { type: "boolean" },
  isDefault: { type: "boolean", description: "The endpoint the single-URL call (PUT …/webhook) sets." },
  disabledAt: nullable(dateTime("When it was disabled; null while enabled.")),
  disabledReason: { type: ["string", "null"], description: "By hand, 410 Gone, or failing for 5 days." },
  failingSince: nullable(dateTime("First failed attempt since the last success; disabled after 5 days of it.")),
  lastSuccessAt: nullable(dateTime("Last 2xx answer.")),
  secrets: arrayOf(
    objectOf<SecretInfo>({
      createdAt: dateTime("When the secret was set."),
      expiresAt: nullable(dateTime("When it stops signing; null for the current secret."))
    }),
    "The secrets that sign its deliveries now, newest first; never their values."
  ),
  createdAt: dateTime("Creation time, UTC."),
  updatedAt: dateTime("Last change, UTC.")
};

export const EndpointDetailsView = component(
  "WebhookEndpointDetails",
  objectOf<EndpointView>(ENDPOINT_PROPERTIES, { description: "A webhook endpoint, without its secret." })
);
export const EndpointListView = arrayOf(EndpointDetailsView);

export const EndpointWithSecretView = component(
  "WebhookEndpointWithSecret",
  objectOf<EndpointWithSecret>(
    {
      ...ENDPOINT_PROPERTIES,
      secret: { type: "string", description: "The new secret, shown only in this answer." },
      standardWebhooksSecret: {
        type: "string",
        pattern: "^whsec_",
        description: "The secret as the official Standard Webhooks libraries take it (the same string for a generated secret)."
      }
    },
    { description: "A webhook endpoint with its new secret: shown once, never again." }
  )
);

export interface ReplayAnswer {
  endpointId: string;
  since: string;
  only: ReplayScope;
  queued: number;
}
export const ReplayView = component(
  "WebhookReplay",
  objectOf<ReplayAnswer>({
    endpointId: uuidSchema(),
    since: dateTime("From when."),
    only: { type: "string", enum: ["all", "failed"] },
    queued: { type: "integer", minimum: 0, description: "Deliveries queued; they go out at once, each parcel's in order." }
  })
);

export interface TestSendAnswer {
  eventId: string;
  deliveryId: string;
  succeeded: boolean;
  statusCode: number | null;
  latencyMs: number;
  responseBody: string | null;
  error: string | null;
}
export const TestSendView = component(
  "WebhookTestResult",
  objectOf<TestSendAnswer>({
    eventId: uuidSchema("The ping event's id."),
    deliveryId: uuidSchema("Its webhook-id."),
    succeeded: { type: "boolean", description: "A 2xx came back in time." },
    statusCode: { type: ["integer", "null"], description: "null when no answer came (time-out, refused, SSRF guard)." },
    latencyMs: { type: "integer", minimum: 0 },
    responseBody: {
      type: ["string", "null"],
      maxLength: 1024,
      description:
        "The first 1024 bytes of the answer's body, as text. null when the endpoint's address is not public " +
        "(allowed only with WEBHOOK_ALLOW_PRIVATE=true): the status alone is reported, never what an internal address answered."
    },
    error: { type: ["string", "null"] }
  })
);

export interface NoticeItem {
  id: string;
  endpointId: string | null;
  kind: string;
  language: string;
  subject: string;
  body: string;
  createdAt: string;
}
export const NoticeListView = arrayOf(
  component(
    "WebhookNotice",
    objectOf<NoticeItem>(
      {
        id: uuidSchema(),
        endpointId: { ...uuidSchema(), type: ["string", "null"] },
        kind: { type: "string", examples: ["webhook.endpoint_disabled"] },
        language: { type: "string", description: "Language of the first part; the English text follows." },
        subject: { type: "string" },
        body: { type: "string", description: "Plain text, ready to be e-mailed." },
        createdAt: dateTime("When it was written.")
      },
      { description: "A message for the merchant (an endpoint disabled after 5 days of failures), ready to be e-mailed." }
    )
  )
);

export const DeliveryPageView = pageSchema(
  "DeliveryPage",
  objectOf<DeliveryItem>({
    id: uuidSchema("Delivery id (X-Relay-Delivery-Id and webhook-id)."),
    eventId: uuidSchema("Event id (the body's id)."),
    endpointId: uuidSchema("The endpoint it goes to."),
    eventType: { type: "string", pattern: "^(parcel|cod)\\.[a-z_]+$" },
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
        statusCode: { type: ["integer", "null"], description: "The answer's status; null when none came." },
        error: { type: ["string", "null"], description: "Why it did not count as delivered (HTTP 500, timed out after 15000 ms…)." },
        durationMs: { type: "integer", minimum: 0, description: "Latency: from sending to the answer (or the failure)." }
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

export interface EventPage {
  items: WebhookBody[];
  next: string | null;
  hasMore: boolean;
}
export const EventPageView = component(
  "EventPage",
  objectOf<EventPage>(
    {
      items: { type: "array", items: ANY_EVENT_SCHEMA, description: "Events, oldest first." },
      next: {
        type: ["string", "null"],
        pattern: EVENT_CURSOR_PATTERN,
        description:
          "Pass it as `after` for the next page; keep it when hasMore is false, to ask later for what happened since. null only when nothing was listed from the start."
      },
      hasMore: { type: "boolean", description: "More events are waiting now: ask again at once with `after=next`." }
    },
    { description: "One page of the organisation's events (of the key's mode), oldest first." }
  )
);

export const WEBHOOKS_DOCS = {
  tags: [
    {
      name: "Webhooks",
      description:
        "Signed POSTs of every parcel status change to the merchant's endpoints; endpoints, secrets, replays, tests and the delivery log."
    },
    { name: "Events", description: "Every parcel event of the last 30 days, as it was (or would be) delivered: catch up after an outage." }
  ],
  webhooks: webhookDocs()
};
