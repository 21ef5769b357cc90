import type { ParcelEvent } from "../../lib/events";
import { Joi, type Schema } from "../../lib/joi";
import { uuid } from "../../lib/schemas";

/** The params of every notifications action, each interface beside the Joi schema that validates it. */

export const AT_RELAY = "parcel.at_relay";
/** The holding period's notices (issue 18): the deadline is near; the parcel goes back, not collected in time. */
export const PICKUP_REMINDER = "parcel.pickup_reminder";
export const RETURN_PENDING = "parcel.return_pending";
export const PICKUP_EXPIRED_REASON = "PICKUP_EXPIRED";
/** Issue 21: the customer gets their return code. */
export const RETURN_CREATED = "return.created";

export interface ParcelEventParams {
  event: ParcelEvent;
}
const onlyAtRelay = (schema: Schema) =>
  Joi.when("type", { is: Joi.valid(AT_RELAY, PICKUP_REMINDER, RETURN_CREATED), then: schema.required(), otherwise: Joi.any() });
/**
 * Every event passes through here, so only the id and type are checked for all of them: an event
 * this service ignores must never be refused (a refusal holds the parcel's outbox queue, and with
 * it the parcel's webhooks). What an AT_RELAY event must carry for the SMS is checked in full.
 */
const IncomingEventSchema = Joi.object<ParcelEvent>({
  id: uuid().required(),
  type: Joi.string().max(100).required(),
  organizationId: onlyAtRelay(uuid()),
  sandbox: onlyAtRelay(Joi.boolean()),
  data: onlyAtRelay(
    Joi.object({
      parcel: Joi.object({
        id: uuid().required(),
        trackingNumber: Joi.string().max(50).required(),
        destinationRelayCode: Joi.string().max(50).required(),
        codAmountDzd: Joi.number().min(0).allow(null).required(),
        pickupDeadline: Joi.string().isoDate().allow(null)
      })
        .unknown(true)
        .required()
    }).unknown(true)
  )
})
  .unknown(true)
  .required();
export const ParcelEventSchema = Joi.object<ParcelEventParams, true>({ event: IncomingEventSchema });

/** The outbox relay's hand-off: the events that may message a recipient, oldest first. */
export interface ParcelEventsParams {
  events: ParcelEvent[];
}
export const ParcelEventsSchema = Joi.object<ParcelEventsParams, true>({
  events: Joi.array().items(IncomingEventSchema).min(1).max(500).required()
});

/** An operator's PIN reset: a new pick-up SMS for a parcel already at its relay point. */
export interface SendPickupSmsParams {
  /** Makes the call idempotent (the message's event id). */
  requestId: string;
  organizationId: string;
  parcel: { id: string; trackingNumber: string; destinationRelayCode: string; codAmountDzd: number | null };
}
export const SendPickupSmsSchema = Joi.object<SendPickupSmsParams, true>({
  requestId: uuid().required(),
  organizationId: uuid().required(),
  parcel: Joi.object({
    id: uuid().required(),
    trackingNumber: Joi.string().max(50).required(),
    destinationRelayCode: Joi.string().max(50).required(),
    codAmountDzd: Joi.number().min(0).allow(null).required()
  }).required()
});

/** The recipient asked to change the relay point: the 6-digit code, to their phone (issue 21). */
export interface SendRedirectCodeParams {
  /** The code's id: makes the call idempotent. */
  requestId: string;
  organizationId: string;
  parcelId: string;
  trackingNumber: string;
  code: string;
  validMinutes: number;
}
export const SendRedirectCodeSchema = Joi.object<SendRedirectCodeParams, true>({
  requestId: uuid().required(),
  organizationId: uuid().required(),
  parcelId: uuid().required(),
  trackingNumber: Joi.string().max(50).required(),
  code: Joi.string()
    .pattern(/^[0-9]{6}$/)
    .required(),
  validMinutes: Joi.number().integer().min(1).max(60).required()
});

/** Issue 43: a parcel handed over offline against its PIN, told to its recipient with a "not me" link. */
export interface SendHandoverConfirmationParams {
  /** Derived from the parcel: one confirmation per parcel, however often it is asked for. */
  requestId: string;
  organizationId: string;
  parcelId: string;
  trackingNumber: string;
  relayCode: string;
  handedOverAt: string;
}
export const SendHandoverConfirmationSchema = Joi.object<SendHandoverConfirmationParams, true>({
  requestId: uuid().required(),
  organizationId: uuid().required(),
  parcelId: uuid().required(),
  trackingNumber: Joi.string().max(50).required(),
  relayCode: Joi.string().max(50).required(),
  handedOverAt: Joi.string().isoDate().required()
});

export interface ParcelIdParams {
  parcelId: string;
}
export const ParcelIdSchema = Joi.object<ParcelIdParams, true>({ parcelId: uuid().required() });
