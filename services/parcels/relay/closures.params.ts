import { directoryText } from "../../../lib/directory-text";
import { Joi } from "../../../lib/joi";
import { arrayOf, component, dateTime, objectOf, uuidSchema } from "../../../lib/openapi/json-schema";
import type { JsonSchema } from "../../../lib/openapi/types";
import { Page, pageSchema, TRACKING_NUMBER_PATTERN } from "../../../lib/parcel-view";
import { queryInteger, relayCode, uuid } from "../../../lib/schemas";
import type { KeyMode } from "../../../lib/api-keys";
import { calendarDate } from "../calendar-date";
import { ClosureRef, MAX_CLOSURE_DAYS, MAX_CLOSURE_LEAD_DAYS } from "./closures";
import type { ClosureEffects } from "./closure-effects";
import type { ClosureAuthor } from "./closures.store";

/** The params and answers of relay closures: the back-office's, the relay agent's, and the closures the partner search shows. */

export interface ClosureBody {
  from: string;
  to: string;
  reason: string | null;
}
const closureKeys = {
  from: calendarDate()
    .required()
    .description(`The first day closed (YYYY-MM-DD, Algiers time), at most ${MAX_CLOSURE_LEAD_DAYS} days after today.`)
    .example("2026-12-01"),
  to: calendarDate()
    .required()
    .description(`The last day closed, included: on or after from, at most ${MAX_CLOSURE_DAYS} days in all, not in the past.`)
    .example("2026-12-07"),
  reason: directoryText(500)
    .allow(null)
    .default(null)
    .description("Why, for merchants and recipients: one line of text.")
    .example("holidays")
};
export const ClosureBodySchema = Joi.object<ClosureBody, true>(closureKeys);

const code = () => relayCode().required().description("The relay point's code.").example("DZ-16-ALGER-CENTRE");

export type RelayClosureParams = ClosureBody & { code: string };
export const RelayClosureSchema = Joi.object<RelayClosureParams, true>({ code: code(), ...closureKeys });

export interface RelayCodePathParams {
  code: string;
}
export const RelayCodePathSchema = Joi.object<RelayCodePathParams, true>({ code: code() });

export interface ClosureIdParams {
  code: string;
  id: string;
}
export const ClosureIdSchema = Joi.object<ClosureIdParams, true>({ code: code(), id: uuid().required().description("The closure's id.") });

export interface AffectedParcelsParams {
  code: string;
  page: number;
  size: number;
}
export const AffectedParcelsSchema = Joi.object<AffectedParcelsParams, true>({
  code: code(),
  page: queryInteger().min(0).max(10_000).default(0).description("Zero-based page number."),
  size: queryInteger().min(1).max(500).default(100).description("Page size, 1 to 500.")
});

// --- answers ------------------------------------------------------------------------------------

/** A closure as the back-office and the relay agent read it. */
export interface ClosureView extends ClosureRef {
  id: string;
  relayCode: string;
  days: number;
  announcedBy: ClosureAuthor;
  createdAt: string;
}

const day = (description: string): JsonSchema => ({ type: "string", format: "date", description });

const CLOSURE_REF_FIELDS = {
  from: day("The first day closed, Algiers time."),
  to: day("The last day closed, included."),
  reason: { type: ["string", "null"], description: "Why, when given." } as JsonSchema
};

export const ClosureRefSchema = component(
  "RelayClosureDays",
  objectOf<ClosureRef>(CLOSURE_REF_FIELDS, { description: "Whole days the relay point is closed (Algiers time), first and last included." })
);

const CLOSURE_VIEW_FIELDS = {
  id: uuidSchema("The closure (DELETE …/closures/{id})."),
  relayCode: { type: "string", examples: ["DZ-16-ALGER-CENTRE"] } as JsonSchema,
  ...CLOSURE_REF_FIELDS,
  days: { type: "integer", minimum: 1, maximum: MAX_CLOSURE_DAYS, description: "Days closed, first and last included." } as JsonSchema,
  announcedBy: {
    type: "string",
    enum: ["backoffice", "agent"],
    description: "An operator, or the relay point's own counter app."
  } as JsonSchema,
  createdAt: dateTime("When it was announced.")
};

export const ClosureViewSchema = component("RelayClosure", objectOf<ClosureView>(CLOSURE_VIEW_FIELDS));

export const ClosureListSchema = component(
  "RelayClosureList",
  objectOf<{ items: ClosureView[] }>({ items: arrayOf(ClosureViewSchema, "Current and future closures, by first day.") })
);

export type ClosureCreatedView = ClosureView & ClosureEffects;
export const ClosureCreatedSchema = component(
  "RelayClosureCreated",
  objectOf<ClosureCreatedView>(
    {
      ...CLOSURE_VIEW_FIELDS,
      shelfParcelsExtended: {
        type: "integer",
        minimum: 0,
        description:
          "Parcels waiting on the shelf whose pickupDeadline moved later: by the closed days inside their holding window not " +
          "already given by another closure (parcel.pickup_extended each)."
      },
      parcelsOnTheWay: {
        type: "integer",
        minimum: 0,
        description: "Parcels on their way to the point (GET …/affected-parcels lists them)."
      },
      merchantsNotified: {
        type: "integer",
        minimum: 0,
        description: "relay.closure_announced webhooks written: one per organisation and mode with parcels on the way."
      }
    },
    { description: "The closure stored, and what it did to parcels already addressed to the point." }
  )
);

/** A parcel on its way to a closed relay point, for the operator. */
export interface AffectedParcelView {
  id: string;
  trackingNumber: string;
  organizationId: string;
  mode: KeyMode;
  status: "CREATED" | "READY_FOR_PICKUP" | "PICKED_UP" | "IN_TRANSIT";
  createdAt: string;
}

export const AffectedParcelPageSchema = pageSchema(
  "AffectedParcelPage",
  component(
    "AffectedParcel",
    objectOf<AffectedParcelView>({
      id: uuidSchema(),
      trackingNumber: { type: "string", pattern: TRACKING_NUMBER_PATTERN },
      organizationId: uuidSchema("The merchant."),
      mode: { type: "string", enum: ["live", "sandbox"] },
      status: { type: "string", enum: ["CREATED", "READY_FOR_PICKUP", "PICKED_UP", "IN_TRANSIT"] },
      createdAt: dateTime("When it was created.")
    })
  ),
  "Parcels addressed to the point and not there yet, oldest first.",
  "Parcels on their way to a relay point."
);

export type AffectedParcelPage = Page<AffectedParcelView>;

export const CLOSURE_DESCRIPTION =
  `Closes the relay point for whole days, Algiers time (from and to included, to on or after from, at most ${MAX_CLOSURE_DAYS} ` +
  `days, not already over, from at most ${MAX_CLOSURE_LEAD_DAYS} days ahead; otherwise 400 naming the field). ` +
  "While the closure is current or begins within CLOSURE_NOTICE_DAYS " +
  "days (2), new parcels to the point are refused with 409 RELAY_CLOSED, and the partner search shows it (closures, openNow, " +
  "?openOn=). Parcels already on its shelf get the closed days that fall inside their holding window (arrival to deadline, " +
  "the window growing with them; overlapping closures count a day once; at most the holding period in all) added to their " +
  "pickupDeadline (a parcel.pickup_extended webhook each whose deadline moved); the merchants of parcels on their way get one relay.closure_announced webhook per organisation naming " +
  "them, and the operator lists them at GET …/affected-parcels. Applies in every parcels instance at once (the closure is in the database).";
