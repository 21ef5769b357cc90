import { Joi } from "../../lib/joi";
import { arrayOf, component, dateTime, nullable, objectOf } from "../../lib/openapi/json-schema";
import { ParcelStatusSchema, TRACKING_NUMBER_PATTERN } from "../../lib/parcel-view";
import type { PublicDestination, PublicTracking, PublicTrackingEvent } from "../../lib/public-tracking";
import { OpeningHoursSchema } from "./relay-points.params";

/** Public tracking (`GET /api/public/v1/tracking/{n}`, no key): its one parameter and its answer. */

export interface PublicTrackingParams {
  trackingNumber: string;
}
// Any text: a number that cannot be one is a 404 like an unknown one (a prober learns nothing more).
export const PublicTrackingSchema = Joi.object<PublicTrackingParams, true>({
  trackingNumber: Joi.string()
    .description(
      "The tracking number as printed or received by SMS: case, spaces, dots and dashes do not matter (`rp 1234 5678 5 dz`). " +
        "Anything that is not a tracking number is a 404, like an unknown one."
    )
    .example("RP123456785DZ")
});

export const PUBLIC_TRACKING_DESCRIPTION =
  "Where a parcel is, for anyone holding its tracking number (the recipient, the shop's order page): its status, its " +
  "journey, the relay point to collect it from with its opening hours, and the cash to bring. No API key. Never the " +
  "recipient's name or phone, the price, the sender or any internal id. Limited per client address (30 a minute by " +
  "default, shared with the /track pages), with the X-RateLimit-* headers on every answer.";

const PublicEventView = objectOf<PublicTrackingEvent>({
  status: ParcelStatusSchema,
  occurredAt: dateTime("When the parcel reached this status, UTC.")
});

const PublicDestinationView = objectOf<PublicDestination>(
  {
    code: { type: "string", examples: ["DZ-16-ALGER-CENTRE"] },
    name: { type: "string", examples: ["Librairie Didouche"] },
    city: { type: "string", examples: ["Alger Centre"] },
    address: { type: ["string", "null"], examples: ["42 Rue Didouche Mourad, Alger Centre"] },
    openingHours: nullable(OpeningHoursSchema)
  },
  { description: "The relay point to collect the parcel from." }
);

export const PublicTrackingView = component(
  "PublicTracking",
  objectOf<PublicTracking>(
    {
      trackingNumber: { type: "string", pattern: TRACKING_NUMBER_PATTERN, examples: ["RP123456785DZ"] },
      status: ParcelStatusSchema,
      sandbox: { type: "boolean", description: "A test parcel, created with a sandbox key: nothing real is shipped." },
      events: arrayOf(PublicEventView, "Every status the parcel went through, oldest first."),
      destination: PublicDestinationView,
      codToPayDzd: nullable({
        type: "number",
        minimum: 0,
        maximum: 10_000_000,
        description: "Cash to pay at the relay point, in DZD (at most two decimals); null when there is no cash on delivery."
      }),
      pickupDeadline: {
        type: ["string", "null"],
        format: "date-time",
        description:
          "UTC. To collect before this time, after which the parcel goes back to the sender; null until it reaches the relay point."
      },
      returnCodeSentAt: {
        type: ["string", "null"],
        format: "date-time",
        description:
          "UTC. When the recipient was sent a return code by SMS for this delivered parcel, while that return is open (the code " +
          "itself is never shown); null otherwise."
      }
    },
    { description: "What anyone with the tracking number may see. Nothing personal, no price, no internal id." }
  )
);
