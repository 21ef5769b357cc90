import { Joi } from "../../lib/joi";
import { MAX_EXTENSION_DAYS } from "./holding-period";
import { parcelId } from "./parcels.params";

/** The params of the holding period's endpoints, each interface beside the Joi schema that validates it. */

/** A correction may set a deadline at most this far ahead (a relay point closed for a holiday, not a warehouse). */
export const MAX_DEADLINE_DAYS_AHEAD = 60;

const ISO_INSTANT = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d{1,9})?)?(Z|[+-]\d{2}:\d{2})$/;

export interface PickupExtensionParams {
  id: string;
  days: number;
}
export const PickupExtensionSchema = Joi.object<PickupExtensionParams, true>({
  id: parcelId().required(),
  days: Joi.number()
    .integer()
    .min(1)
    .max(MAX_EXTENSION_DAYS)
    .required()
    .description(`Whole days added to the parcel's pick-up deadline, 1 to ${MAX_EXTENSION_DAYS}.`)
    .example(3)
});

/** A future-bounded instant with its zone (ISO 8601), as a deadline correction takes it; shared by the returns' expiry correction. */
export const correctedDeadline = () =>
  Joi.string()
    .pattern(ISO_INSTANT)
    .custom((value: string, helpers) => {
      const at = Date.parse(value);
      if (Number.isNaN(at)) return helpers.error("date.base");
      if (at > Date.now() + MAX_DEADLINE_DAYS_AHEAD * 86_400_000) return helpers.error("date.max");
      return value;
    })
    .meta({ openapi: { format: "date-time", description: `At most ${MAX_DEADLINE_DAYS_AHEAD} days ahead.` } })
    .required()
    .messages({
      "string.pattern.base": "{{#label}} must be a date and time with its zone, such as 2026-03-20T18:00:00Z",
      "date.base": "{{#label}} must be a time that exists",
      "date.max": `{{#label}} must be at most ${MAX_DEADLINE_DAYS_AHEAD} days ahead`
    })
    .description("The new deadline (ISO 8601 with its zone). A time already past sends the parcel back at once.")
    .example("2026-03-20T18:00:00Z");

export interface PickupDeadlineParams {
  id: string;
  pickupDeadline: string;
}
export const PickupDeadlineSchema = Joi.object<PickupDeadlineParams, true>({
  id: parcelId().required(),
  pickupDeadline: correctedDeadline()
});
