import { Joi } from "../../../lib/joi";
import { type PickupAddress, PickupAddressSchema } from "../../../lib/pickup-address";
import { arrayOf, component, dateTime, nullable, objectOf, uuidSchema } from "../../../lib/openapi/json-schema";
import type { JsonSchema } from "../../../lib/openapi/types";
import { pageSchema, Page } from "../../../lib/parcel-view";
import { dateTimeText, queryInteger, uuid } from "../../../lib/schemas";

/** The params and views of the partner API's pickups (issue 44), each interface beside its schema. */

export const PICKUP_STATUSES = [
  "REQUESTED",
  "CONFIRMED",
  "IN_PROGRESS",
  "COMPLETED",
  "PARTIALLY_COMPLETED",
  "MISSED",
  "CANCELLED"
] as const;
export type PickupStatus = (typeof PICKUP_STATUSES)[number];

/** The most parcels one pickup carries (a manifest's size). */
export const MAX_PICKUP_PARCELS = 500;

export type { PickupAddress } from "../../../lib/pickup-address";

export interface CreatePickupParams {
  /** Left out: the organisation's stored pickup address (PUT /organization/pickup-address). */
  address?: PickupAddress;
  readyAt: string;
  closeAt: string;
  parcelIds?: string[];
  allCreated?: boolean;
  contact?: { name: string; phone: string };
  instructions?: string;
}

export const CreatePickupSchema = Joi.object<CreatePickupParams, true>({
  address: PickupAddressSchema.description(
    "Where the courier collects the parcels. Left out: your stored pickup address (PUT /organization/pickup-address); " +
      "409 PICKUP_ADDRESS_MISSING when none is stored."
  ).example({ line1: "12 rue Didouche Mourad", city: "Alger Centre", wilaya: "16" }),
  readyAt: dateTimeText()
    .required()
    .description("The parcels are ready from this time (ISO 8601 with an offset).")
    .example("2026-03-12T09:00:00+01:00"),
  closeAt: dateTimeText()
    .required()
    .description("The latest time the courier may come: at least 2 hours after readyAt, the same day.")
    .example("2026-03-12T12:00:00+01:00"),
  parcelIds: Joi.array()
    .items(uuid())
    .min(1)
    .max(MAX_PICKUP_PARCELS)
    .unique()
    .description("The parcels to collect: each CREATED and in no other pickup. Leave out with allCreated."),
  allCreated: Joi.boolean().description("true: every CREATED parcel of yours not yet in a pickup, instead of parcelIds."),
  contact: Joi.object({
    name: Joi.string().trim().min(1).max(100).required(),
    phone: Joi.string()
      .pattern(/^\+?[0-9 ]{6,20}$/)
      .required()
  })
    .description("Who the courier asks for; kept encrypted.")
    .example({ name: "Karim", phone: "+213 555 12 34 56" }),
  instructions: Joi.string().trim().max(500).description("For the courier: a floor, a gate, a door code.")
});

export interface PickupIdParams {
  id: string;
}
export const PickupIdSchema = Joi.object<PickupIdParams, true>({ id: uuid().required().description("Pickup id (uuid).") }).unknown(true);

export interface PickupListParams {
  status: PickupStatus | null;
  page: number;
  size: number;
}
export const PickupListSchema = Joi.object<PickupListParams, true>({
  status: Joi.string()
    .valid(...PICKUP_STATUSES)
    .allow(null)
    .default(null)
    .description("Only pickups in this status."),
  page: queryInteger().min(0).max(2_147_483_647).default(0).description("Zero-based page number."),
  size: queryInteger().min(1).max(100).default(20).description("Page size, 1 to 100.")
}).unknown(true);

export interface PickupParcelView {
  id: string;
  /** ANNOUNCED, COLLECTED, MISSING, RELEASED. */
  state: string;
}

export interface PickupView {
  id: string;
  confirmationNumber: string;
  status: PickupStatus;
  address: PickupAddress;
  readyAt: string;
  closeAt: string;
  cancelBy: string;
  instructions: string | null;
  parcels: PickupParcelView[];
  missing: string[];
  unexpected: string[];
  createdAt: string;
  updatedAt: string;
  /** GET /pickups/{id} only: the merchant's count code (issue 44). */
  countCode?: string | null;
}

export const PickupViewSchema: JsonSchema = component(
  "Pickup",
  objectOf<PickupView>(
    {
      id: uuidSchema("Pickup id."),
      confirmationNumber: {
        type: "string",
        description: "What the courier and our support quote: PU-YYYYMMDD-XXXXXX.",
        examples: ["PU-20260312-7K2Q9M"]
      },
      status: {
        type: "string",
        enum: [...PICKUP_STATUSES],
        description:
          "REQUESTED, then CONFIRMED (the window as confirmed), IN_PROGRESS once the courier scanned, then COMPLETED, " +
          "PARTIALLY_COMPLETED (some listed parcels were not collected: `missing`), MISSED, or CANCELLED."
      },
      address: objectOf<PickupAddress>({
        line1: { type: "string" },
        city: { type: "string" },
        wilaya: { type: "string", pattern: "^\\d{2}$" }
      }),
      readyAt: dateTime("The confirmed window's start, UTC."),
      closeAt: dateTime("The confirmed window's end, UTC."),
      cancelBy: dateTime("The pickup may be cancelled until this time, UTC (POST /pickups/{id}/cancel)."),
      instructions: nullable({ type: "string", description: "For the courier." }),
      parcels: arrayOf(
        objectOf<PickupParcelView>({
          id: uuidSchema("Parcel id."),
          state: {
            type: "string",
            enum: ["ANNOUNCED", "COLLECTED", "MISSING", "RELEASED"],
            description:
              "ANNOUNCED: to collect; COLLECTED: scanned by the courier; MISSING: not found at the stop; RELEASED: the pickup was cancelled."
          }
        }),
        "The parcels of the pickup."
      ),
      missing: arrayOf(uuidSchema(), "Once the courier closed the stop: listed parcels not collected (they stay READY_FOR_PICKUP)."),
      unexpected: arrayOf(uuidSchema(), "Once the courier closed the stop: parcels collected that were not listed."),
      createdAt: dateTime("UTC."),
      updatedAt: dateTime("UTC."),
      countCode: nullable({
        type: "string",
        pattern: "^\\d{6}$",
        description:
          "GET /pickups/{id} only, while the pickup is CONFIRMED or IN_PROGRESS: six digits to tell the courier with your count of " +
          "the parcels handed over; the courier's close then confirms them all (issue 44)."
      })
    },
    { description: "A pickup: the courier's visit to collect your parcels.", optional: ["countCode"] }
  )
);

export type PickupPage = Page<PickupView>;
export const PickupPageSchema = pageSchema("PickupPage", PickupViewSchema, "Pickups, newest first.", "A page of pickups.");
