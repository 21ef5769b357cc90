import { Joi } from "./joi";
import { hasAtMostTwoDecimals, MAX_MONEY_DZD } from "./money";
import { PARCEL_STATUSES } from "./parcel-status";

/** Joi pieces shared by several actions, so one bound is written once. */

/** An amount in DZD, 0 to 10 000 000 (`more than zero` for a payment: one lower bound, not two). */
export const moneyDzd = (lower: "zero" | "more than zero" = "zero") =>
  (lower === "zero" ? Joi.number().min(0) : Joi.number().greater(0))
    .max(MAX_MONEY_DZD)
    .custom((value: number, helpers) => (hasAtMostTwoDecimals(value) ? value : helpers.error("number.precision", { limit: 2 })))
    // What the custom rule means, for the OpenAPI document (lib/openapi/joi-schema.ts): in words,
    // because multipleOf 0.01 makes floating-point validators refuse valid amounts such as 19.99.
    .meta({ openapi: { description: "At most two decimals." } });

export const uuid = () => Joi.string().guid();

export const keyMode = () => Joi.string().valid("live", "sandbox");

export const parcelStatus = () => Joi.string().valid(...PARCEL_STATUSES);

/** Query-string integers arrive as text: converted here, and only here. */
export const queryInteger = () => Joi.number().integer().prefs({ convert: true });

/** SPEC §2.2: the fixed country letters, a hyphen, then 3 to 30 of A-Z, 0-9 and hyphen. */
export const RELAY_CODE_PATTERN = /^DZ-[A-Z0-9-]{3,30}$/;
export const relayCode = () =>
  Joi.string().pattern(RELAY_CODE_PATTERN).messages({
    "string.pattern.base": "{{#label}} must be DZ- followed by 3 to 30 characters among A-Z, 0-9 and hyphen"
  });

/** `Idempotency-Key` header of POST /parcels: 1 to 255 visible ASCII characters. */
export const IDEMPOTENCY_KEY_PATTERN = /^[\x21-\x7e]{1,255}$/;

/** An action that takes no parameters (query strings it does not know are ignored, as on any GET). */
export type NoParams = Record<string, never>;
export const NoParamsSchema = Joi.object<NoParams>({}).unknown(true);

/** RFC 3339 date-time with seconds and an offset (`2026-01-17T14:02:11Z`, `…+01:00`). */
export const DATE_TIME_PATTERN = /^\d{4}-\d{2}-\d{2}[Tt]\d{2}:\d{2}:\d{2}(\.\d{1,9})?([Zz]|[+-]\d{2}:\d{2})$/;

/** A date-time of the calendar: DATE_TIME_PATTERN's shape, and a day, hour and offset that exist. */
export function isDateTime(value: unknown): value is string {
  if (typeof value !== "string" || !DATE_TIME_PATTERN.test(value)) return false;
  const [year, month, day, hour, minute, second] = value
    .slice(0, 19)
    .split(/[-Tt:]/)
    .map(Number);
  const offset = /([+-])(\d{2}):(\d{2})$/.exec(value);
  if (offset && (Number(offset[2]) > 23 || Number(offset[3]) > 59)) return false;
  const utc = new Date(Date.UTC(year, month - 1, day, hour, minute, second));
  // Date.UTC rolls 30 February over into March: only a date that comes back unchanged exists.
  return (
    utc.getUTCFullYear() === year &&
    utc.getUTCMonth() === month - 1 &&
    utc.getUTCDate() === day &&
    hour <= 23 &&
    minute <= 59 &&
    second <= 59
  );
}

/** A date-time in a request: the pattern for Joi and the document, the calendar check in the handler (see `isDateTime`). */
export const dateTimeText = () =>
  Joi.string()
    .pattern(DATE_TIME_PATTERN)
    .messages({ "string.pattern.base": "{{#label}} must be a date-time such as 2026-01-17T14:02:11Z" });
