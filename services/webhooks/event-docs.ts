import { ClaimViewSchema } from "../../lib/claim-view";
import { COD_EVENT_TYPES } from "../../lib/cod";
import {
  CLAIM_EVENT_TYPES,
  type ClaimEventData,
  INVESTIGATION_EVENT_TYPES,
  type InvestigationEventData,
  type CodEventData,
  MISSORT_EVENT_TYPE,
  type MissortEventData,
  PICKUP_EVENT_TYPES,
  RECIPIENT_EVENT_TYPES,
  NETWORK_EVENT_TYPES,
  PING_EVENT_TYPE,
  type PingBody,
  REDIRECT_EVENT_TYPE,
  type RedirectEventData,
  type RelayClosureEventData,
  RELAY_EVENT_TYPES,
  type RemittanceRef,
  type StatusEventData,
  type WebhookBody
} from "../../lib/events";
import { PICKUP_STOP_EVENT_TYPES, type PickupEventData, type PickupParcelRef } from "../../lib/pickup-events";
import { arrayOf, component, dateTime, nullable, objectOf, uuidSchema } from "../../lib/openapi/json-schema";
import type { JsonSchema, Parameter, PathItem, Response } from "../../lib/openapi/types";
import { eventTypeFor, PARCEL_STATUSES } from "../../lib/parcel-status";
import { CodStatusSchema, ParcelStatusSchema, ParcelViewSchema, SAMPLE_PARCEL, TRACKING_NUMBER_PATTERN } from "../../lib/parcel-view";
import { RETURN_EVENT_TYPES, type ReturnEventData, ReturnViewSchema, SAMPLE_RETURN } from "../../lib/returns";
import { DISABLE_ENDPOINT_AFTER_MS, MAX_ATTEMPTS, RETRY_DELAYS_SECONDS } from "./retry-schedule";
import { DEFAULT_ROTATION_OVERLAP_MS } from "./signing";

/**
 * The outgoing webhooks (SPEC §6, DESIGN §3) as OpenAPI 3.1 `webhooks`, one entry per event type
 * and the `ping` test event: the webhooks service declares them (service settings
 * `openapi.webhooks`) and the gateway puts them in the partner document.
 */

export const EVENT_TYPES: string[] = [
  ...PARCEL_STATUSES.map(eventTypeFor),
  ...COD_EVENT_TYPES,
  ...PICKUP_EVENT_TYPES,
  ...RECIPIENT_EVENT_TYPES,
  ...INVESTIGATION_EVENT_TYPES,
  ...NETWORK_EVENT_TYPES,
  ...CLAIM_EVENT_TYPES,
  ...RETURN_EVENT_TYPES,
  REDIRECT_EVENT_TYPE,
  ...RELAY_EVENT_TYPES,
  MISSORT_EVENT_TYPE,
  ...PICKUP_STOP_EVENT_TYPES
];

function humanDelay(seconds: number): string {
  if (seconds < 60) return `${seconds} s`;
  if (seconds < 3600) return `${seconds / 60} min`;
  return `${seconds / 3600} h`;
}

const DAY_MS = 24 * 3600 * 1000;
const SCHEDULE = RETRY_DELAYS_SECONDS.map(humanDelay).join(", ");
const SPAN_SECONDS = RETRY_DELAYS_SECONDS.reduce((a, b) => a + b, 0);
/** "3 days 3 h 35 min": how long the schedule lasts at the least. */
export const SCHEDULE_SPAN =
  `${Math.floor(SPAN_SECONDS / 86400)} days ${Math.floor((SPAN_SECONDS % 86400) / 3600)} h ` +
  `${Math.floor((SPAN_SECONDS % 3600) / 60)} min`;

/** What every delivery's description says about acknowledging, retries, disabling and ordering. */
export const DELIVERY_RULES =
  `Answer any 2xx within 15 s to acknowledge. Anything else (or no answer) is retried with the same delivery id after ` +
  `${SCHEDULE}, each wait lengthened by 0 to 20 % (jitter, never shortened): ${MAX_ATTEMPTS} attempts over at least ` +
  `${SCHEDULE_SPAN}; a Retry-After on 429 or 503 is honoured up to 24 h. ` +
  `An endpoint that answers 410 Gone, or has failed every attempt for ${DISABLE_ENDPOINT_AFTER_MS / DAY_MS} days, is disabled ` +
  "(the merchant is notified by e-mail); its deliveries are kept and can be replayed once it is enabled again. " +
  "Events of one parcel reach an endpoint in order, one at a time; a replay or redelivery can arrive after newer events, " +
  "which `sequence` tells apart.";

const SIGNATURE_RULES =
  "Verify webhook-signature (Standard Webhooks: any official library verifies it) or X-Relay-Signature over the raw body " +
  "before parsing it. After a secret rotation, every delivery is signed with the new and the previous secret for the overlap " +
  `(${DEFAULT_ROTATION_OVERLAP_MS / 3600_000} h unless chosen otherwise): webhook-signature carries one v1 entry per secret, ` +
  "X-Relay-Signature the new secret's.";

const REMITTANCE_REF = objectOf<RemittanceRef>(
  {
    id: uuidSchema("The remittance (GET /cod/remittances/{id})."),
    reference: { type: "string", description: "The payout's reference." },
    paidOn: { type: "string", format: "date", description: "The payout's date." },
    payout: { type: "string", enum: ["TRANSFER", "WALLET"], description: "Paid out, or credited to your wallet." },
    parcelCount: { type: "integer", minimum: 1 },
    totalDzd: { type: "number", minimum: 0, description: "The remittance's total, DZD, to the centime." }
  },
  { description: "The remittance this parcel's COD was paid in." }
);

const COD_EVENT_DATA = objectOf<CodEventData>(
  {
    // The status before: PENDING for cod.collected, COLLECTED for cod.remitted and the cash events.
    previousCodStatus: CodStatusSchema,
    parcel: ParcelViewSchema,
    remittance: { anyOf: [REMITTANCE_REF, { type: "null" }], description: "The remittance (cod.remitted); null for cod.collected." }
  },
  { description: "cod.* events: the parcel's codStatus after the change is in parcel.codStatus, where its cash is in parcel.codCashAt." }
);

const EXAMPLES = [
  {
    id: "0b8e7f3c-2d4a-4f61-8c9b-1a2e3f4d5c6b",
    type: "parcel.delivered",
    createdAt: "2026-01-17T14:02:11.000Z",
    occurredAt: "2026-01-17T14:02:11.000Z",
    sequence: 7,
    sandbox: false,
    reason: null,
    data: {
      previousStatus: "RELAY_NOTIFIED",
      parcel: { ...SAMPLE_PARCEL, status: "DELIVERED", codStatus: "COLLECTED", updatedAt: "2026-01-17T14:02:11.000Z" }
    }
  }
];

/** The fields every event has; `data` is the kind's own. */
function eventSchema(
  name: string,
  types: readonly string[],
  typeDescription: string,
  data: JsonSchema,
  description: string,
  examples: unknown[]
) {
  return component(
    name,
    objectOf<WebhookBody>(
      {
        id: uuidSchema("Event identifier: the same in every delivery, replay and events API answer of this event."),
        type: { type: "string", enum: [...types], description: typeDescription },
        createdAt: dateTime("When the change happened, UTC."),
        occurredAt: dateTime("When the change happened, UTC (the parcel's history); order a parcel's events by `sequence`."),
        sequence: {
          type: "integer",
          format: "int32",
          minimum: 0,
          description:
            "The parcel's event number: 1 for parcel.created, one more with each event (cod.* events included). Keep the highest " +
            "applied per parcel and ignore an event whose sequence is not higher: it is a late retry or a replay. (0 only on " +
            "events recorded before sequences existed.)"
        },
        sandbox: { type: "boolean", description: "true for sandbox parcels (including every sandbox trigger-event)." },
        reason: {
          type: ["string", "null"],
          description: "Free text given with the change (cancel reason, sandbox trigger reason, operator note); null when none."
        },
        data
      },
      { description, examples }
    )
  );
}

export const PARCEL_EVENT_SCHEMA = eventSchema(
  "ParcelEvent",
  [...PARCEL_STATUSES.map(eventTypeFor), ...PICKUP_EVENT_TYPES, ...RECIPIENT_EVENT_TYPES, ...NETWORK_EVENT_TYPES],
  "parcel.<new status in lower case>, or parcel.pickup_reminder / parcel.pickup_extended / parcel.recipient_unreachable / " +
    "parcel.out_for_delivery (no " +
    "status change); same as X-Relay-Event.",
  objectOf<StatusEventData>({
    previousStatus: {
      ...nullable(ParcelStatusSchema),
      description:
        "Status before the change; null for parcel.created; the unchanged status for parcel.pickup_reminder, " +
        "parcel.pickup_extended, parcel.recipient_unreachable and parcel.out_for_delivery."
    },
    parcel: ParcelViewSchema
  }),
  "Body of every parcel status webhook delivery, and an item of the events API. `data.parcel` is the parcel as the API showed " +
    "it right after the change, with a label URL fresh at each attempt or read.",
  EXAMPLES
);

export const COD_EVENT_SCHEMA = eventSchema(
  "CodEvent",
  COD_EVENT_TYPES,
  "cod.collected, cod.remitted, cod.cash_collected_by_courier or cod.cash_deposited; same as X-Relay-Event.",
  COD_EVENT_DATA,
  "Body of the cash-on-delivery webhooks, and an item of the events API: the parcel after the change (its codStatus) and, " +
    "for cod.remitted, the remittance.",
  [
    {
      id: "5c1d2e3f-4a5b-4c6d-8e7f-9a0b1c2d3e4f",
      type: "cod.remitted",
      createdAt: "2026-01-20T09:00:00.000Z",
      occurredAt: "2026-01-20T09:00:00.000Z",
      sequence: 9,
      sandbox: false,
      reason: null,
      data: {
        previousCodStatus: "COLLECTED",
        parcel: { ...SAMPLE_PARCEL, status: "DELIVERED", codStatus: "REMITTED", updatedAt: "2026-01-20T09:00:00.000Z" },
        remittance: {
          id: "7d2e3f4a-5b6c-4d7e-8f9a-0b1c2d3e4f5a",
          reference: "VIR-2026-01-0042",
          paidOn: "2026-01-20",
          payout: "TRANSFER",
          parcelCount: 12,
          totalDzd: 18400
        }
      }
    }
  ]
);

export const REDIRECT_EVENT_SCHEMA = eventSchema(
  "RedirectEvent",
  [REDIRECT_EVENT_TYPE],
  "parcel.redirected; same as X-Relay-Event.",
  objectOf<RedirectEventData>({
    previousStatus: { ...nullable(ParcelStatusSchema), description: "The parcel's status, unchanged by a redirect." },
    parcel: ParcelViewSchema,
    redirect: objectOf<RedirectEventData["redirect"]>(
      {
        fromRelayCode: { type: "string", description: "The relay point the parcel was addressed to.", examples: ["DZ-16-ALGER-CENTRE"] },
        toRelayCode: {
          type: "string",
          description: "The relay point it goes to now (parcel.destinationRelayCode).",
          examples: ["DZ-31-ORAN-HAI-ESSALEM"]
        },
        by: {
          type: "string",
          enum: ["merchant", "recipient"],
          description: "You (the API), or the recipient (with the code sent to their phone)."
        }
      },
      { description: "Where the parcel was going, where it goes now, and who changed it." }
    )
  }),
  "Body of the parcel.redirected webhook, and an item of the events API: the parcel, with its new destinationRelayCode, " +
    "and the old and new relay points.",
  [
    {
      id: "2a3b4c5d-6e7f-4a8b-9c0d-1e2f3a4b5c6d",
      type: REDIRECT_EVENT_TYPE,
      createdAt: "2026-01-16T10:12:00.000Z",
      occurredAt: "2026-01-16T10:12:00.000Z",
      sequence: 5,
      sandbox: false,
      reason: "redirected from DZ-16-ALGER-CENTRE to DZ-16-BAB-EZZOUAR by the recipient",
      data: {
        previousStatus: "IN_TRANSIT",
        parcel: {
          ...SAMPLE_PARCEL,
          status: "IN_TRANSIT",
          destinationRelayCode: "DZ-16-BAB-EZZOUAR",
          updatedAt: "2026-01-16T10:12:00.000Z"
        },
        redirect: { fromRelayCode: "DZ-16-ALGER-CENTRE", toRelayCode: "DZ-16-BAB-EZZOUAR", by: "recipient" }
      }
    }
  ]
);

export const INVESTIGATION_EVENT_SCHEMA = eventSchema(
  "InvestigationEvent",
  INVESTIGATION_EVENT_TYPES,
  "parcel.investigation_opened or parcel.investigation_closed; same as X-Relay-Event.",
  objectOf<InvestigationEventData>({
    previousStatus: { ...nullable(ParcelStatusSchema), description: "The parcel's status, unchanged by an investigation." },
    parcel: ParcelViewSchema,
    investigation: objectOf<InvestigationEventData["investigation"]>(
      {
        id: uuidSchema("The investigation."),
        reason: {
          type: "string",
          enum: ["NO_SCAN", "HANDOVER_DISPUTED"],
          description:
            "NO_SCAN: no scan for LOSS_INVESTIGATION_HOURS while a courier or a hub held it. HANDOVER_DISPUTED: the recipient " +
            "says an offline hand-over at the relay point was not them."
        },
        lastHolder: nullable(
          objectOf<NonNullable<InvestigationEventData["investigation"]["lastHolder"]>>(
            {
              holder: { type: "string", enum: ["merchant", "courier", "hub", "relay", "recipient"] },
              since: dateTime("Since when it held the parcel (its last scan), UTC."),
              name: { type: ["string", "null"], description: "A courier's first name, a hub's or relay point's code; null when none." }
            },
            { description: "Who held the parcel last, as parcel.custody said then." }
          )
        ),
        openedAt: dateTime("When the investigation opened, UTC."),
        outcome: {
          type: ["string", "null"],
          enum: ["FOUND", "LOST", "DISMISSED", null],
          description:
            "null while open. FOUND: a scan found the parcel; DISMISSED: it left the network's custody another way (arrived); " +
            "LOST is announced by parcel.lost and the claim opened for you, not by this event."
        }
      },
      { description: "Why the network looks for the parcel, and how it ended." }
    )
  }),
  "Body of the investigation webhooks, and an item of the events API: the parcel (its custody) and the investigation.",
  []
);

export const CLAIM_EVENT_SCHEMA = eventSchema(
  "ClaimEvent",
  CLAIM_EVENT_TYPES,
  "claim.opened, claim.approved or claim.rejected; same as X-Relay-Event.",
  objectOf<ClaimEventData>(
    { claim: ClaimViewSchema, parcel: ParcelViewSchema },
    { description: "claim.* events: the claim after the change (GET /claims/{id}), and its parcel." }
  ),
  "Body of the claims webhooks, and an item of the events API: the claim with its evidence and decision, and the parcel. " +
    "`reason` is the operator's note on a decision, null on claim.opened.",
  []
);

export const RETURN_EVENT_SCHEMA = eventSchema(
  "ReturnEvent",
  RETURN_EVENT_TYPES,
  "return.created, return.dropped_off, return.ready_for_collection, return.expired or return.cancelled; same as X-Relay-Event.",
  objectOf<ReturnEventData>({
    parcel: ParcelViewSchema,
    return: ReturnViewSchema
  }),
  "Body of the customers' returns webhooks, and an item of the events API: the delivered parcel and the return after the change " +
    "(with its collectionPin in return.ready_for_collection only).",
  [
    {
      id: "8e9f0a1b-2c3d-4e5f-8a6b-7c8d9e0f1a2b",
      type: "return.created",
      createdAt: "2026-01-20T10:00:00.000Z",
      occurredAt: "2026-01-20T10:00:00.000Z",
      sequence: 8,
      sandbox: false,
      reason: null,
      data: { parcel: { ...SAMPLE_PARCEL, status: "DELIVERED", codStatus: "COLLECTED" }, return: SAMPLE_RETURN }
    }
  ]
);

export const RELAY_EVENT_SCHEMA = eventSchema(
  "RelayEvent",
  RELAY_EVENT_TYPES,
  "relay.closure_announced; same as X-Relay-Event.",
  objectOf<RelayClosureEventData>({
    relay: objectOf<RelayClosureEventData["relay"]>({
      code: { type: "string", description: "The relay point that will be closed.", examples: ["DZ-16-ALGER-CENTRE"] },
      name: { type: "string" }
    }),
    closure: objectOf<RelayClosureEventData["closure"]>({
      id: uuidSchema("The closure."),
      from: { type: "string", format: "date", description: "The first day closed, Algiers time." },
      to: { type: "string", format: "date", description: "The last day closed, included." },
      reason: { type: ["string", "null"], description: "Why, when given." }
    }),
    parcels: {
      ...arrayOf(
        objectOf<RelayClosureEventData["parcels"][number]>({
          id: uuidSchema("The parcel."),
          trackingNumber: { type: "string", pattern: TRACKING_NUMBER_PATTERN },
          status: ParcelStatusSchema
        }),
        "Your parcels (of this mode) on their way to the point when the closure was announced."
      ),
      minItems: 1
    }
  }),
  "Body of relay.closure_announced, and an item of the events API: one per organisation and mode, naming its parcels. " +
    "`sequence` is 0: the event is about a relay point, not one parcel.",
  [
    {
      id: "9a8b7c6d-5e4f-4a3b-8c2d-1e0f9a8b7c6d",
      type: "relay.closure_announced",
      createdAt: "2026-11-26T08:00:00.000Z",
      occurredAt: "2026-11-26T08:00:00.000Z",
      sequence: 0,
      sandbox: false,
      reason: "holidays",
      data: {
        relay: { code: "DZ-16-ALGER-CENTRE", name: "Librairie Didouche" },
        closure: { id: "1b2c3d4e-5f6a-4b7c-8d9e-0f1a2b3c4d5e", from: "2026-12-01", to: "2026-12-07", reason: "holidays" },
        parcels: [{ id: SAMPLE_PARCEL.id, trackingNumber: SAMPLE_PARCEL.trackingNumber, status: "IN_TRANSIT" }]
      }
    }
  ]
);

const WILAYA_OR_NULL = (description: string): JsonSchema => ({ type: ["string", "null"], pattern: "^\\d{2}$", description });

export const MISSORT_EVENT_SCHEMA = eventSchema(
  "MissortEvent",
  [MISSORT_EVENT_TYPE],
  "parcel.missorted; same as X-Relay-Event.",
  objectOf<MissortEventData>({
    previousStatus: { ...nullable(ParcelStatusSchema), description: "The parcel's status, unchanged by a mis-sort." },
    parcel: ParcelViewSchema,
    missort: objectOf<MissortEventData["missort"]>(
      {
        reason: {
          type: "string",
          enum: ["OFF_ROUTE_HUB", "WRONG_RELAY"],
          description: "Scanned in at a hub off its route, or brought to a relay point it is not addressed to."
        },
        foundInWilaya: WILAYA_OR_NULL("The wilaya (two digits) of the hub or relay point that found it."),
        rerouteToWilaya: WILAYA_OR_NULL("Where it goes now: its relay point's wilaya."),
        rerouteToRelayCode: { type: "string", description: "Its destination relay point, unchanged.", examples: ["DZ-31-ORAN-CENTRE"] }
      },
      { description: "Where the parcel was found, and where it is sent on to." }
    )
  }),
  "Body of the parcel.missorted webhook, and an item of the events API: the parcel, and where the network found it by mistake.",
  [
    {
      id: "5c6d7e8f-9a0b-4c1d-8e2f-3a4b5c6d7e8f",
      type: MISSORT_EVENT_TYPE,
      createdAt: "2026-01-15T08:40:00.000Z",
      occurredAt: "2026-01-15T08:40:00.000Z",
      sequence: 5,
      sandbox: false,
      reason: "mis-sorted at a hub off its route; rerouted to DZ-31-ORAN-CENTRE",
      data: {
        previousStatus: "IN_TRANSIT",
        parcel: {
          ...SAMPLE_PARCEL,
          status: "IN_TRANSIT",
          destinationRelayCode: "DZ-31-ORAN-CENTRE",
          updatedAt: "2026-01-15T08:40:00.000Z"
        },
        missort: { reason: "OFF_ROUTE_HUB", foundInWilaya: "09", rerouteToWilaya: "31", rerouteToRelayCode: "DZ-31-ORAN-CENTRE" }
      }
    }
  ]
);

const PICKUP_PARCEL_REF = objectOf<PickupParcelRef>(
  {
    id: uuidSchema("The parcel."),
    trackingNumber: {
      type: ["string", "null"],
      pattern: TRACKING_NUMBER_PATTERN,
      description: "Its tracking number; null for a parcel that is not yours (scanned at your door, unexpected)."
    }
  },
  { description: "A parcel of the pickup." }
);

export const PICKUP_EVENT_SCHEMA = eventSchema(
  "PickupEvent",
  PICKUP_STOP_EVENT_TYPES,
  "pickup.confirmed, pickup.completed or pickup.cancelled; same as X-Relay-Event.",
  objectOf<PickupEventData>({
    pickup: objectOf<PickupEventData["pickup"]>(
      {
        id: uuidSchema("The pickup (GET /pickups/{id})."),
        confirmationNumber: { type: "string", examples: ["PU-20260312-7K2Q9M"] },
        status: {
          type: "string",
          enum: ["CONFIRMED", "COMPLETED", "PARTIALLY_COMPLETED", "CANCELLED"],
          description: "The pickup's status the event is about."
        },
        readyAt: dateTime("The confirmed window's start, UTC."),
        closeAt: dateTime("The confirmed window's end, UTC.")
      },
      { description: "The pickup after the change." }
    ),
    parcels: arrayOf(PICKUP_PARCEL_REF, "The parcels listed in the pickup."),
    missing: arrayOf(
      PICKUP_PARCEL_REF,
      "pickup.completed: listed parcels the courier did not collect. They stay READY_FOR_PICKUP: book them in your next pickup. Empty otherwise."
    ),
    unexpected: arrayOf(PICKUP_PARCEL_REF, "pickup.completed: parcels the courier collected that were not listed. Empty otherwise.")
  }),
  "Body of the pickup webhooks (issue 44), and an item of the events API. `sequence` is 0: the event is about a pickup, " +
    "not one parcel; each parcel's own status changes (READY_FOR_PICKUP, PICKED_UP) have their parcel.* events.",
  [
    {
      id: "3c4d5e6f-7a8b-4c9d-8e0f-1a2b3c4d5e6f",
      type: "pickup.completed",
      createdAt: "2026-03-12T10:41:00.000Z",
      occurredAt: "2026-03-12T10:41:00.000Z",
      sequence: 0,
      sandbox: false,
      reason: null,
      data: {
        pickup: {
          id: "6f5e4d3c-2b1a-4f9e-8d7c-6b5a4f3e2d1c",
          confirmationNumber: "PU-20260312-7K2Q9M",
          status: "PARTIALLY_COMPLETED",
          readyAt: "2026-03-12T08:00:00.000Z",
          closeAt: "2026-03-12T11:00:00.000Z"
        },
        parcels: [
          { id: SAMPLE_PARCEL.id, trackingNumber: SAMPLE_PARCEL.trackingNumber },
          { id: "0d1e2f3a-4b5c-4d6e-8f7a-9b0c1d2e3f4a", trackingNumber: "RP234567895DZ" }
        ],
        missing: [{ id: "0d1e2f3a-4b5c-4d6e-8f7a-9b0c1d2e3f4a", trackingNumber: "RP234567895DZ" }],
        unexpected: []
      }
    }
  ]
);

/** An item of the events API: a status, COD, claim, return, redirect, relay or pickup event (their `type` tells which). */
export const ANY_EVENT_SCHEMA: JsonSchema = {
  oneOf: [
    PARCEL_EVENT_SCHEMA,
    COD_EVENT_SCHEMA,
    INVESTIGATION_EVENT_SCHEMA,
    CLAIM_EVENT_SCHEMA,
    RETURN_EVENT_SCHEMA,
    REDIRECT_EVENT_SCHEMA,
    RELAY_EVENT_SCHEMA,
    MISSORT_EVENT_SCHEMA,
    PICKUP_EVENT_SCHEMA
  ]
};

const PING_EVENT_SCHEMA = component(
  "PingEvent",
  objectOf<PingBody>(
    {
      id: uuidSchema("Identifier of this test event."),
      type: { type: "string", const: PING_EVENT_TYPE },
      createdAt: dateTime("When it was sent, UTC."),
      occurredAt: dateTime("The same as createdAt."),
      sandbox: { type: "boolean", description: "true when the endpoint receives sandbox events only." },
      reason: { type: "null" },
      data: objectOf<PingBody["data"]>({
        endpointId: uuidSchema("The endpoint tested."),
        message: { type: "string" }
      })
    },
    { description: "The test event the back-office sends to an endpoint on demand; it concerns no parcel and is never retried." }
  )
);

const headerParameters = (eventType: string): Parameter[] => [
  {
    name: "X-Relay-Event",
    in: "header",
    required: true,
    description: "Event kind, the same as the body's type.",
    schema: { type: "string", const: eventType }
  },
  {
    name: "X-Relay-Delivery-Id",
    in: "header",
    required: true,
    description: "Identifier of this delivery, the same on every retry and replay of it: use it to process each delivery once.",
    schema: { type: "string", format: "uuid" }
  },
  {
    name: "X-Relay-Timestamp",
    in: "header",
    required: true,
    description: "Unix time (seconds) of this attempt, the same as webhook-timestamp. X-Relay-Signature does not cover it.",
    schema: { type: "integer", minimum: 0 }
  },
  {
    name: "X-Relay-Signature",
    in: "header",
    required: true,
    description:
      "sha256=<hex of HMAC-SHA256 of the raw body with your webhook secret> (with the newest secret during a rotation). Compare in constant time.",
    schema: { type: "string", pattern: "^sha256=[0-9a-f]{64}$" }
  },
  {
    name: "webhook-id",
    in: "header",
    required: true,
    description: "Standard Webhooks: the delivery id again (the same as X-Relay-Delivery-Id).",
    schema: { type: "string", format: "uuid" }
  },
  {
    name: "webhook-timestamp",
    in: "header",
    required: true,
    description: "Standard Webhooks: unix time (seconds) of this attempt; refuse one more than 5 minutes away from your clock.",
    schema: { type: "integer", minimum: 0 }
  },
  {
    name: "webhook-signature",
    in: "header",
    required: true,
    description:
      "Standard Webhooks: \"v1,<base64 of HMAC-SHA256 of '<webhook-id>.<webhook-timestamp>.<raw body>'>\", one entry per valid " +
      "secret separated by spaces (two during a rotation). The key is the bytes after whsec_ of a generated secret, or your own " +
      "secret's bytes.",
    schema: { type: "string", pattern: "^v1,[A-Za-z0-9+/]{43}=( v1,[A-Za-z0-9+/]{43}=)*$" }
  }
];

const DELIVERY_RESPONSES: Record<string, Response> = {
  "2XX": { description: "Delivered: never sent again (unless replayed)." },
  "410": { description: "Gone: the delivery fails and the endpoint is disabled." },
  default: { description: "Any other answer, a time-out or a connection error: retried on the schedule." }
};

function webhookEntry(
  type: string,
  summary: string,
  description: string,
  body: object,
  responses: Record<string, Response> = DELIVERY_RESPONSES
): PathItem {
  return {
    post: {
      operationId: `webhook_${type.replace(".", "_")}`,
      summary,
      description,
      tags: ["Webhooks"],
      // Sent by us to you: no API key; authenticity comes from the signatures.
      security: [],
      parameters: headerParameters(type),
      requestBody: {
        required: true,
        content: { "application/json": { schema: { allOf: [body, { type: "object", properties: { type: { const: type } } }] } } }
      },
      responses
    }
  };
}

export function webhookDocs(): Record<string, PathItem> {
  const parcelEvents = PARCEL_STATUSES.map((status, i): [string, PathItem] => {
    const type = EVENT_TYPES[i];
    const description =
      `Sent to each endpoint of your organisation that takes ${type} (its mode and event types, set in the back-office) when one ` +
      `of your parcels moves to ${status}. ${DELIVERY_RULES} ${SIGNATURE_RULES}`;
    return [type, webhookEntry(type, `A parcel moved to ${status}`, description, PARCEL_EVENT_SCHEMA)];
  });
  const codEvents: [string, PathItem][] = [
    [
      "cod.collected",
      webhookEntry(
        "cod.collected",
        "Cash on delivery collected",
        "Sent right after parcel.delivered for a parcel with cash on delivery: the relay point collected the cash " +
          `(parcel.codStatus COLLECTED; its sequence follows the delivery's). ${DELIVERY_RULES} ${SIGNATURE_RULES}`,
        COD_EVENT_SCHEMA
      )
    ],
    [
      "cod.remitted",
      webhookEntry(
        "cod.remitted",
        "Cash on delivery remitted",
        "Sent for each parcel of a remittance when it is recorded: its COD was paid to you (parcel.codStatus REMITTED), by " +
          `transfer or to your wallet, as data.remittance says. ${DELIVERY_RULES} ${SIGNATURE_RULES}`,
        COD_EVENT_SCHEMA
      )
    ],
    [
      "cod.cash_collected_by_courier",
      webhookEntry(
        "cod.cash_collected_by_courier",
        "Cash on delivery taken by the carrier's courier",
        "Sent for each parcel paid in cash when the relay point's agent confirms the courier's collection of the till: the " +
          `cash is with the courier (parcel.codCashAt COURIER; codStatus stays COLLECTED). ${DELIVERY_RULES} ${SIGNATURE_RULES}`,
        COD_EVENT_SCHEMA
      )
    ],
    [
      "cod.cash_deposited",
      webhookEntry(
        "cod.cash_deposited",
        "Cash on delivery handed in at the carrier",
        "Sent for each parcel paid in cash when a hub confirms the courier's deposit: the cash is at the carrier, ready to be " +
          `remitted (parcel.codCashAt CARRIER; codStatus stays COLLECTED). ${DELIVERY_RULES} ${SIGNATURE_RULES}`,
        COD_EVENT_SCHEMA
      )
    ]
  ];
  const pickupEvents: [string, PathItem][] = [
    [
      "parcel.pickup_reminder",
      webhookEntry(
        "parcel.pickup_reminder",
        "Pick-up deadline near",
        "Sent once per deadline, PICKUP_REMINDER_HOURS (48 h by default) before data.parcel.pickupDeadline, while the parcel " +
          "waits at its relay point; the recipient got a reminder SMS at the same time. The status does not change " +
          `(previousStatus is the current status). ${DELIVERY_RULES} ${SIGNATURE_RULES}`,
        PARCEL_EVENT_SCHEMA
      )
    ],
    [
      "parcel.pickup_extended",
      webhookEntry(
        "parcel.pickup_extended",
        "Pick-up deadline extended",
        "Sent when you extended a parcel's pick-up deadline (POST /parcels/{id}/pickup-extension), or when its relay point " +
          "announced or removed a closure while it waited there (the closed days inside its holding window, each day once, " +
          "at most its holding period; a removed closure takes its days back, so the deadline may then be earlier; reason " +
          "names the closure): " +
          `data.parcel.pickupDeadline is the new deadline. The status does not change. ${DELIVERY_RULES} ${SIGNATURE_RULES}`,
        PARCEL_EVENT_SCHEMA
      )
    ],
    [
      "parcel.recipient_unreachable",
      webhookEntry(
        "parcel.recipient_unreachable",
        "The recipient cannot get SMS",
        "Sent once per parcel, live only, when its first SMS to the recipient was due (the pick-up SMS on arrival, usually) " +
          "and the recipient's number cannot take one: a landline, or a number too short for its country. The SMS is recorded " +
          "as undeliverable and not sent, so the recipient has no pick-up code: tell them another way. The create answered " +
          `with the RECIPIENT_PHONE_NOT_MOBILE warning. The status does not change. ${DELIVERY_RULES} ${SIGNATURE_RULES}`,
        PARCEL_EVENT_SCHEMA
      )
    ],
    [
      "parcel.out_for_delivery",
      webhookEntry(
        "parcel.out_for_delivery",
        "On its way to the relay point",
        "Sent once per parcel and destination, live only, when the courier who delivers its relay point takes it from the " +
          "hub (the hub's scan out in the relay point's wilaya, or the courier's load scan). parcel.at_relay follows when the " +
          `relay point scans it in. The status does not change (IN_TRANSIT). ${DELIVERY_RULES} ${SIGNATURE_RULES}`,
        PARCEL_EVENT_SCHEMA
      )
    ]
  ];
  const investigationEvents: [string, PathItem][] = [
    [
      "parcel.investigation_opened",
      "The network is looking for a parcel",
      "Sent when a parcel held by a courier or a hub (PICKED_UP or IN_TRANSIT) had no scan for LOSS_INVESTIGATION_HOURS " +
        "(48 h by default), or when its recipient disputes an offline hand-over: data.investigation names the last holder and " +
        "since when. Past LOSS_LOST_DAYS (7 by default) without a scan the parcel becomes LOST (parcel.lost) and a LOST claim " +
        "is opened for you with the custody trail as evidence (claim.opened), unless you opened one already."
    ],
    [
      "parcel.investigation_closed",
      "The parcel was found",
      "Sent when a scan found a parcel under investigation (outcome FOUND), or it reached its relay point another way " +
        "(outcome DISMISSED)."
    ]
  ].map(([type, summary, text]): [string, PathItem] => [
    type,
    webhookEntry(type, summary, `${text} The status does not change. ${DELIVERY_RULES} ${SIGNATURE_RULES}`, INVESTIGATION_EVENT_SCHEMA)
  ]);
  const redirected: [string, PathItem] = [
    REDIRECT_EVENT_TYPE,
    webhookEntry(
      REDIRECT_EVENT_TYPE,
      "A parcel was redirected",
      "Sent when a parcel's destination relay point changed before arrival: by you (POST /parcels/{id}/redirect) or by the " +
        "recipient on the tracking page. data.parcel.destinationRelayCode is the new relay point, data.redirect names both. " +
        `The status and the price do not change. ${DELIVERY_RULES} ${SIGNATURE_RULES}`,
      REDIRECT_EVENT_SCHEMA
    )
  ];
  const relayEvents: [string, PathItem][] = [
    [
      "relay.closure_announced",
      webhookEntry(
        "relay.closure_announced",
        "A relay point your parcels are heading to will close",
        "Sent when a closure is added to a relay point while some of your parcels are on their way to it (CREATED to " +
          "IN_TRANSIT): one event per organisation and mode, naming those parcels, so that you can redirect them. Parcels " +
          "already waiting there get a later pickupDeadline instead (parcel.pickup_extended). " +
          `${DELIVERY_RULES} ${SIGNATURE_RULES}`,
        RELAY_EVENT_SCHEMA
      )
    ]
  ];
  const missorted: [string, PathItem] = [
    MISSORT_EVENT_TYPE,
    webhookEntry(
      MISSORT_EVENT_TYPE,
      "A parcel was mis-sorted",
      "Sent once when the network found one of your parcels where it should not be: scanned in at a hub whose wilaya is " +
        "neither its origin's nor its relay point's (OFF_ROUTE_HUB), or brought to a relay point it is not addressed to " +
        "(WRONG_RELAY). It is sent on to its relay point (data.missort); nothing is asked of you, and the status does not " +
        `change. ${DELIVERY_RULES} ${SIGNATURE_RULES}`,
      MISSORT_EVENT_SCHEMA
    )
  ];
  const pickupStopEvents: [string, PathItem][] = (
    [
      ["pickup.confirmed", "Pickup confirmed", "Your pickup (POST /pickups) is confirmed: its window and confirmation number are final."],
      [
        "pickup.completed",
        "Pickup completed",
        "The courier closed the stop at your address: data.pickup.status is COMPLETED, or PARTIALLY_COMPLETED when some listed " +
          "parcels were not collected (data.missing: they stay READY_FOR_PICKUP, book them in your next pickup); data.unexpected " +
          "names parcels collected that were not listed. In the sandbox the simulator completes the pickup at its readyAt."
      ],
      ["pickup.cancelled", "Pickup cancelled", "Your pickup was cancelled (POST /pickups/{id}/cancel); its parcels are CREATED again."]
    ] as const
  ).map(([type, summary, text]) => [
    type,
    webhookEntry(type, summary, `${text} ${DELIVERY_RULES} ${SIGNATURE_RULES}`, PICKUP_EVENT_SCHEMA)
  ]);
  const claimEvents: [string, PathItem][] = [
    [
      "claim.opened",
      "Claim opened",
      "Sent when you opened a claim (POST /parcels/{id}/claims): data.claim is the claim with its evidence."
    ],
    [
      "claim.approved",
      "Claim approved",
      "Sent when an operator approved your claim: data.claim.compensationDzd is granted, and your wallet is credited with it " +
        "plus the shipping price (a CLAIM_COMPENSATION movement; data.claim.paidDzd once credited)."
    ],
    ["claim.rejected", "Claim rejected", "Sent when an operator rejected your claim; reason (and data.claim.note) says why."]
  ].map(([type, summary, text]): [string, PathItem] => [
    type,
    webhookEntry(
      type,
      summary,
      `${text} The parcel's status does not change (except LOST, which has its own event). ${DELIVERY_RULES} ${SIGNATURE_RULES}`,
      CLAIM_EVENT_SCHEMA
    )
  ]);
  const returnEvents: [string, PathItem][] = (
    [
      ["return.created", "Return opened", "You opened a return (POST /parcels/{id}/returns); the customer got its code by SMS."],
      [
        "return.dropped_off",
        "Return dropped off",
        "The customer dropped the return off at a relay point: data.return.returnParcelId is the return parcel (GET /parcels/{id}), " +
          "and data.return.feeDzd is debited from your wallet now (RETURN_SHIPMENT)."
      ],
      [
        "return.ready_for_collection",
        "Return ready for collection",
        "The return parcel reached your relay point: collect it there with data.return.collectionPin (also in GET /returns/{id} " +
          "while it waits). The customer gets no SMS."
      ],
      [
        "return.expired",
        "Return expired",
        "The return was not dropped off by data.return.expiresAt: its code no longer works; nothing was charged."
      ],
      ["return.cancelled", "Return cancelled", "You cancelled the return before its drop-off; nothing was charged."]
    ] as const
  ).map(([type, summary, text]) => [
    type,
    webhookEntry(type, summary, `${text} ${DELIVERY_RULES} ${SIGNATURE_RULES}`, RETURN_EVENT_SCHEMA)
  ]);
  const ping = webhookEntry(
    PING_EVENT_TYPE,
    "Test event",
    `Sent once when the back-office tests an endpoint; the answer's status, time and first bytes are shown there. ${SIGNATURE_RULES}`,
    PING_EVENT_SCHEMA,
    { default: { description: "Whatever the answer, it is only shown to whoever sent the test: nothing is retried or disabled." } }
  );
  return Object.fromEntries([
    ...parcelEvents,
    ...codEvents,
    ...pickupEvents,
    ...investigationEvents,
    ...claimEvents,
    ...returnEvents,
    redirected,
    ...relayEvents,
    missorted,
    ...pickupStopEvents,
    [PING_EVENT_TYPE, ping]
  ]);
}
