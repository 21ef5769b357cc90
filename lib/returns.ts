import { amountDzd, arrayOf, component, dateTime, nullable, objectOf, uuidSchema } from "./openapi/json-schema";
import type { ParcelView } from "./parcel-view";

/**
 * A customer's return (issue 21), as the partner API shows it and as the return.* webhooks carry
 * it: shared by parcels (which owns returns), webhooks (which documents the events) and
 * notifications (which sends the return code to the customer).
 */

export const RETURN_STATUSES = ["AWAITING_DROP_OFF", "DROPPED_OFF", "EXPIRED", "CANCELLED"] as const;
export type ReturnStatus = (typeof RETURN_STATUSES)[number];

export const RETURN_EVENT_TYPES = [
  "return.created",
  "return.dropped_off",
  "return.ready_for_collection",
  "return.expired",
  "return.cancelled"
] as const;
export type ReturnEventType = (typeof RETURN_EVENT_TYPES)[number];

export interface ReturnItem {
  description: string;
  quantity: number;
}

export interface ReturnView {
  id: string;
  parcelId: string;
  status: ReturnStatus;
  reason: string;
  items: ReturnItem[];
  returnCode: string;
  expiresAt: string;
  feeDzd: number;
  destinationRelayCode: string;
  returnParcelId: string | null;
  /** The return parcel's collection PIN, only while it waits at the destination relay point. */
  collectionPin: string | null;
  droppedOffAt: string | null;
  droppedOffRelayCode: string | null;
  createdAt: string;
  updatedAt: string;
}

export const ReturnStatusSchema = component("ReturnStatus", {
  type: "string",
  enum: [...RETURN_STATUSES],
  description:
    "AWAITING_DROP_OFF until the customer drops the parcel off with the code; DROPPED_OFF then (a return parcel carries it " +
    "back); EXPIRED when the code was not used by expiresAt; CANCELLED by you before the drop-off."
});

export const SAMPLE_RETURN: ReturnView = {
  id: "6a1b2c3d-4e5f-4a6b-8c7d-9e0f1a2b3c4d",
  parcelId: "3f6c8e1a-5b2d-4c7e-9a10-2b3c4d5e6f70",
  status: "AWAITING_DROP_OFF",
  reason: "Taille trop petite",
  items: [{ description: "Robe bleue", quantity: 1 }],
  returnCode: "K7QX3MPA",
  expiresAt: "2026-02-03T10:00:00.000Z",
  feeDzd: 400,
  destinationRelayCode: "DZ-16-ALGER-CENTRE",
  returnParcelId: null,
  collectionPin: null,
  droppedOffAt: null,
  droppedOffRelayCode: null,
  createdAt: "2026-01-20T10:00:00.000Z",
  updatedAt: "2026-01-20T10:00:00.000Z"
};

export const ReturnViewSchema = component(
  "Return",
  objectOf<ReturnView>(
    {
      id: uuidSchema("The return."),
      parcelId: uuidSchema("The delivered parcel the customer sends back."),
      status: ReturnStatusSchema,
      reason: { type: "string", description: "Why the customer sends it back, as you gave it." },
      items: arrayOf(
        component(
          "ReturnItem",
          objectOf<ReturnItem>({
            description: { type: "string", description: "What is sent back." },
            quantity: { type: "integer", minimum: 1, description: "How many." }
          })
        ),
        "What is sent back; empty when you did not say."
      ),
      returnCode: {
        type: "string",
        pattern: "^[A-HJKMNP-Z2-9]{8}$",
        description:
          "The 8-character code the customer says at any relay point (sent to them by SMS). No 0/O, 1/I/L. Unique among open returns."
      },
      expiresAt: dateTime("UTC. Not dropped off by then, the return becomes EXPIRED (nothing is charged)."),
      feeDzd: amountDzd("What the return shipment costs you, debited from your wallet when the customer drops the parcel off."),
      destinationRelayCode: { type: "string", description: "Where the return parcel goes: your relay point, where you collect it." },
      returnParcelId: nullable(uuidSchema("The return parcel made at the drop-off (GET /parcels/{id}); null before.")),
      collectionPin: {
        type: ["string", "null"],
        description:
          "The 6-digit PIN to collect the return parcel at your relay point, while it waits there (AT_RELAY, RELAY_NOTIFIED); null otherwise."
      },
      droppedOffAt: { type: ["string", "null"], format: "date-time", description: "When the customer dropped it off, UTC; null before." },
      droppedOffRelayCode: { type: ["string", "null"], description: "Where the customer dropped it off; null before." },
      createdAt: dateTime("Creation time, UTC."),
      updatedAt: dateTime("Time of the last change, UTC.")
    },
    { description: "A customer's return of a delivered parcel.", examples: [SAMPLE_RETURN] }
  )
);

/** `return.*`: the delivered parcel (data.parcel, whose sequence the event takes) and the return after the change. */
export interface ReturnEventData {
  parcel: ParcelView;
  return: ReturnView;
}
