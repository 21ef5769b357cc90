import type { Context, ServiceSchema, ServiceSettingSchema } from "moleculer";
import { defineAction } from "../../lib/action";
import type { AgentMeta } from "../../lib/agent-keys";
import { AppError } from "../../lib/errors";
import { Joi } from "../../lib/joi";
import { component, objectOf } from "../../lib/openapi/json-schema";
import { MAX_TRACKING_INPUT_LENGTH, normaliseTrackingNumber } from "../../lib/tracking-number";
import type { HandoverDeps } from "./handover";
import { PIN_RESENDS_PER_DAY, resendPickupPin, ResendOutcome } from "./pin-resend";

/** "Send me the code again" (pin-resend.ts): the tracking page's call, and the counter's. */

interface PinResendThis {
  handoverDeps(ctx: Context): HandoverDeps;
}

interface PinResendParams {
  trackingNumber: string;
}
const PinResendSchema = Joi.object<PinResendParams, true>({
  trackingNumber: Joi.string()
    .min(1)
    .max(MAX_TRACKING_INPUT_LENGTH)
    .required()
    .description("The tracking number as scanned or typed: case, spaces and dashes do not matter.")
    .example("RP123456785DZ")
});

interface PinResendView {
  trackingNumber: string;
  message: string;
}
const PinResendViewSchema = component(
  "PickupPinResend",
  objectOf<PinResendView>({
    trackingNumber: { type: "string", description: "The parcel's normalised tracking number." },
    message: { type: "string", description: "What happened, for the agent to tell the recipient." }
  })
);

const mixin: Partial<ServiceSchema<ServiceSettingSchema, object, PinResendThis>> = {
  actions: {
    // The tracking page's form (gateway/tracking-page/respond-pin-resend.ts); the same answer for any number.
    // call parcels.resendPickupPinForRecipient --trackingNumber RP123456785DZ
    resendPickupPinForRecipient: defineAction<PinResendParams, PinResendThis>({
      visibility: "public",
      schema: PinResendSchema,
      async handler(ctx): Promise<{ outcome: ResendOutcome }> {
        const trackingNumber = normaliseTrackingNumber(ctx.params.trackingNumber);
        const { outcome } = await resendPickupPin(this.handoverDeps(ctx), { trackingNumber, requestedBy: "recipient" });
        return { outcome };
      }
    }),

    relayPinResend: defineAction<PinResendParams, PinResendThis, AgentMeta>({
      rest: "POST /parcels/:trackingNumber/pin-resend",
      api: "relay",
      schema: PinResendSchema,
      endpoint: {
        operationId: "resendPickupPin",
        summary: "Send the recipient a new pick-up PIN",
        description:
          "For a parcel on this shelf (AT_RELAY, RELAY_NOTIFIED) whose recipient lost the SMS or locked the PIN: a new PIN is drawn " +
          "and sent by SMS to the recipient's phone on file, never to the agent; the old PIN stops working and a locked parcel is " +
          `unlocked. At most ${PIN_RESENDS_PER_DAY} in 24 hours per parcel, the tracking page's requests included: past it, 409 ` +
          "PIN_RESEND_LIMIT. 404 for a parcel not on this shelf.",
        tag: "Shelf",
        status: 202,
        response: PinResendViewSchema,
        responseDescription: "A new PIN is on its way to the recipient's phone.",
        errors: ["PARCEL_NOT_FOUND", "PIN_RESEND_LIMIT"]
      },
      async handler(ctx): Promise<PinResendView> {
        const trackingNumber = normaliseTrackingNumber(ctx.params.trackingNumber);
        const { outcome, retryAfterSeconds } = await resendPickupPin(this.handoverDeps(ctx), {
          trackingNumber,
          requestedBy: "agent",
          relayCode: ctx.meta.agent.relayCode
        });
        if (outcome === "limited") {
          throw new AppError(
            "PIN_RESEND_LIMIT",
            `This parcel had its ${PIN_RESENDS_PER_DAY} new PINs of the last 24 hours: the recipient uses the last SMS, or asks ` +
              `again in ${Math.ceil((retryAfterSeconds ?? 3600) / 3600)} h`
          );
        }
        return { trackingNumber, message: "A new pick-up PIN was sent by SMS to the recipient's phone; the old one no longer works." };
      }
    })
  }
};

export const PinResendMixin = mixin as Partial<ServiceSchema>;
