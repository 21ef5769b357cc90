import type { webhookBodyOf } from "../../lib/events";
import { component, dateTime, nullable, objectOf, uuidSchema } from "../../lib/openapi/json-schema";
import type { Parameter, PathItem } from "../../lib/openapi/types";
import { eventTypeFor, PARCEL_STATUSES } from "../../lib/parcel-status";
import { ParcelStatusSchema, ParcelViewSchema, SAMPLE_PARCEL } from "../../lib/parcel-view";
import { MAX_ATTEMPTS, RETRY_DELAYS_SECONDS } from "../../lib/retry-schedule";

/**
 * The outgoing webhooks (SPEC §6, DESIGN §3) as OpenAPI 3.1 `webhooks`, one entry per event type:
 * the webhooks service declares them (service settings `openapi.webhooks`) and the gateway puts
 * them in the partner document.
 */

export const EVENT_TYPES = PARCEL_STATUSES.map(eventTypeFor);

type WebhookBody = ReturnType<typeof webhookBodyOf>;

function humanDelay(seconds: number): string {
  if (seconds < 60) return `${seconds} s`;
  if (seconds < 3600) return `${seconds / 60} min`;
  return `${seconds / 3600} h`;
}

const PARCEL_EVENT = component(
  "ParcelEvent",
  objectOf<WebhookBody>(
    {
      id: uuidSchema("Event identifier."),
      type: { type: "string", enum: EVENT_TYPES, description: "parcel.<new status in lower case>; same as X-Relay-Event." },
      createdAt: dateTime("When the status changed, UTC."),
      sandbox: { type: "boolean", description: "true for sandbox parcels (including every sandbox trigger-event)." },
      reason: {
        type: ["string", "null"],
        description: "Free text given with the change (cancel reason, sandbox trigger reason, operator note); null when none."
      },
      data: objectOf<WebhookBody["data"]>({
        previousStatus: { ...nullable(ParcelStatusSchema), description: "Status before the change; null for parcel.created." },
        parcel: ParcelViewSchema
      })
    },
    {
      description: "Body of every webhook delivery. Verify X-Relay-Signature over the raw bytes before parsing.",
      examples: [
        {
          id: "0b8e7f3c-2d4a-4f61-8c9b-1a2e3f4d5c6b",
          type: "parcel.delivered",
          createdAt: "2026-01-17T14:02:11.000Z",
          sandbox: false,
          reason: null,
          data: {
            previousStatus: "RELAY_NOTIFIED",
            parcel: { ...SAMPLE_PARCEL, status: "DELIVERED", updatedAt: "2026-01-17T14:02:11.000Z" }
          }
        }
      ]
    }
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
    description: "Identifier of this delivery, the same on every retry of it: use it to process each delivery once.",
    schema: { type: "string", format: "uuid" }
  },
  {
    name: "X-Relay-Timestamp",
    in: "header",
    required: true,
    description: "Unix time (seconds) of this attempt. Not covered by the signature.",
    schema: { type: "integer", minimum: 0 }
  },
  {
    name: "X-Relay-Signature",
    in: "header",
    required: true,
    description: "sha256=<hex of HMAC-SHA256 of the raw body with your webhook secret>. Compare in constant time.",
    schema: { type: "string", pattern: "^sha256=[0-9a-f]{64}$" }
  }
];

export function webhookDocs(): Record<string, PathItem> {
  const schedule = RETRY_DELAYS_SECONDS.map(humanDelay).join(", ");
  return Object.fromEntries(
    PARCEL_STATUSES.map((status, i) => {
      const type = EVENT_TYPES[i];
      const item: PathItem = {
        post: {
          operationId: `webhook_${type.replace(".", "_")}`,
          summary: `A parcel moved to ${status}`,
          description:
            `Sent to the URL configured in the back-office (Settings, Webhooks) when a parcel of your organisation moves to ${status}. ` +
            `Answer any 2xx within 15 s to acknowledge. Otherwise the delivery is retried (same X-Relay-Delivery-Id) after ${schedule} ` +
            `(with jitter, ${MAX_ATTEMPTS} attempts in all; a Retry-After on 429 or 503 is honoured). ` +
            "410 Gone disables the endpoint until it is set again. Events of one parcel arrive in order.",
          tags: ["Webhooks"],
          // Sent by us to you: no API key; authenticity comes from X-Relay-Signature.
          security: [],
          parameters: headerParameters(type),
          requestBody: {
            required: true,
            content: {
              "application/json": {
                schema: { allOf: [PARCEL_EVENT, { type: "object", properties: { type: { const: type } } }] }
              }
            }
          },
          responses: {
            "2XX": { description: "Delivered: never sent again." },
            "410": { description: "Gone: the delivery fails and the endpoint is disabled." },
            default: { description: "Any other answer, a time-out or a connection error: retried on the schedule." }
          }
        }
      };
      return [type, item];
    })
  );
}
