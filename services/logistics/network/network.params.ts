import { Joi } from "../../../lib/joi";
import { arrayOf, component, dateTime, nullable, objectOf, uuidSchema } from "../../../lib/openapi/json-schema";
import type { JsonSchema } from "../../../lib/openapi/types";
import { dateTimeText, uuid } from "../../../lib/schemas";
import { STAFF_ROLES, StaffRole } from "../../../lib/staff-keys";
import type { Hub } from "./network.store";

/** The back-office's hubs and couriers, and the scans of the courier and hub APIs (issue 44). */

const wilaya = () =>
  Joi.string()
    .pattern(/^\d{2}$/)
    .description("Two-digit wilaya code.")
    .example("16");

export interface CreateHubParams {
  code: string;
  wilaya: string;
  name: string;
  address: string;
}
export const CreateHubSchema = Joi.object<CreateHubParams, true>({
  code: Joi.string()
    .pattern(/^[A-Z0-9-]{2,30}$/)
    .required()
    .description("The hub's code, printed on its bins.")
    .example("HUB-16-BAB-EZZOUAR"),
  wilaya: wilaya().required(),
  name: Joi.string().trim().min(1).max(100).required().example("Centre de tri Bab Ezzouar"),
  address: Joi.string().trim().min(1).max(200).required().example("Zone industrielle, Bab Ezzouar")
});

export interface CreateCourierParams {
  firstName: string;
  lastName: string;
  phone: string;
  homeHubId: string;
}
export const CreateCourierSchema = Joi.object<CreateCourierParams, true>({
  firstName: Joi.string().trim().min(1).max(60).required().example("Yacine"),
  lastName: Joi.string().trim().min(1).max(60).required().example("Haddad"),
  phone: Joi.string()
    .pattern(/^\+?[0-9 ]{6,20}$/)
    .required()
    .description("Kept encrypted; never shown to merchants.")
    .example("+213 661 23 45 67"),
  homeHubId: uuid().required().description("The hub the courier starts from.")
});

export interface StaffSubjectParams {
  role: StaffRole;
  subjectId: string;
}
export const StaffSubjectSchema = Joi.object<StaffSubjectParams, true>({
  role: Joi.string()
    .valid(...STAFF_ROLES)
    .required(),
  subjectId: uuid().required()
});

export interface HubWilayaParams {
  hubId: string;
}
export const HubWilayaSchema = Joi.object<HubWilayaParams, true>({ hubId: uuid().required() });

export interface ParcelIdParams {
  id: string;
}
export const ParcelIdSchema = Joi.object<ParcelIdParams, true>({ id: uuid().required().description("Parcel id (uuid).") }).unknown(true);

export interface ScanParams {
  trackingNumber: string;
  occurredAt?: string;
}
const scanFields = {
  trackingNumber: Joi.string()
    .pattern(/^[A-Z]{2}[0-9]{9}[A-Z]{2}$/)
    .required()
    .description("The label's tracking number, as scanned.")
    .example("RP123456785DZ"),
  occurredAt: dateTimeText()
    .description("When the scan happened on the device (sent later when offline); now when left out.")
    .example("2026-03-12T10:15:00+01:00")
};
export const ScanSchema = Joi.object<ScanParams, true>(scanFields);

export interface PickupScanParams extends ScanParams {
  id: string;
}
export const PickupScanSchema = Joi.object<PickupScanParams, true>({
  id: uuid().required().description("Pickup id (uuid)."),
  ...scanFields
});

export interface PickupCloseParams {
  id: string;
  occurredAt?: string;
  countCode?: string;
  count?: number;
}
export const PickupCloseSchema = Joi.object<PickupCloseParams, true>({
  id: uuid().required().description("Pickup id (uuid)."),
  occurredAt: scanFields.occurredAt,
  countCode: Joi.string()
    .pattern(/^\d{6}$/)
    .description("The merchant's count code (their pickup view's countCode), with count: the parcels handed over without a scan each.")
    .example("482913"),
  count: Joi.number().integer().min(1).max(10_000).description("How many parcels the merchant handed over, counted together.").example(5)
}).and("countCode", "count");

export const HubView = component(
  "Hub",
  objectOf<Hub>({
    id: uuidSchema(),
    code: { type: "string" },
    wilaya: { type: "string", pattern: "^\\d{2}$" },
    name: { type: "string" },
    address: { type: "string" },
    createdAt: dateTime("UTC.")
  })
);

export interface CourierView {
  id: string;
  firstName: string;
  lastName: string;
  homeHubId: string;
  active: boolean;
  createdAt: string;
}
export const CourierViewSchema = component(
  "Courier",
  objectOf<CourierView>({
    id: uuidSchema(),
    firstName: { type: "string" },
    lastName: { type: "string" },
    homeHubId: uuidSchema(),
    active: { type: "boolean" },
    createdAt: dateTime("UTC.")
  })
);

export interface ScanAnswer {
  parcelId: string;
  trackingNumber: string;
  /** The parcel's status after the scan. */
  status: string;
  /** What the scan did: COLLECTED, UNEXPECTED, SORTED, MISSORTED (decision 0058), DISPATCHED, ALREADY, REFUSED, LOADED (a courier's load for a relay point), RETURN_COLLECTED, RETURN, RETURN_LOADED (a return's way back). */
  outcome: string;
  /** Hub scan in: where the parcel goes, one line. */
  sort: string | null;
}
export const ScanAnswerSchema = component(
  "ScanAnswer",
  objectOf<ScanAnswer>({
    parcelId: uuidSchema(),
    trackingNumber: { type: "string" },
    status: { type: "string" },
    outcome: {
      type: "string",
      enum: [
        "COLLECTED",
        "UNEXPECTED",
        "SORTED",
        "MISSORTED",
        "DISPATCHED",
        "ALREADY",
        "REFUSED",
        "LOADED",
        "RETURN_COLLECTED",
        "RETURN",
        "RETURN_LOADED"
      ]
    },
    sort: nullable({ type: "string", description: 'Hub scan in: where it goes, one line ("BAC 16 — DZ-16-ALGER-CENTRE").' })
  })
);

export interface CustodyEntry {
  holder: string;
  holderId: string | null;
  since: string;
  givenBy: string | null;
  givenById: string | null;
  /** What recorded it: the scan's kind. */
  scan: string;
  hubId: string | null;
  /** The taker's confirmation of the hand-off (a hub station's scan, say); null when the giver's scan is the only one. */
  confirmedBy: string | null;
}
export const CustodyViewSchema: JsonSchema = component(
  "Custody",
  objectOf<{ parcelId: string; trail: CustodyEntry[] }>({
    parcelId: uuidSchema(),
    trail: arrayOf(
      objectOf<CustodyEntry>({
        holder: { type: "string", enum: ["merchant", "courier", "hub", "relay", "recipient"] },
        holderId: nullable({ type: "string" }),
        since: dateTime("When the holder took it."),
        givenBy: nullable({ type: "string", description: "Who handed it over (the giver's side of the hand-off)." }),
        givenById: nullable({ type: "string" }),
        scan: { type: "string" },
        hubId: nullable(uuidSchema()),
        confirmedBy: nullable({
          type: "string",
          description: "Who confirmed the hand-off besides the giver (a hub's station); null if none."
        })
      }),
      "Every hand-off, oldest first."
    )
  })
);
