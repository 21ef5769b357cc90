import type { KeyMode } from "../../lib/api-keys";
import { COD_PAYOUTS, CodPayout } from "../../lib/cod";
import { Joi } from "../../lib/joi";
import { amountDzd, arrayOf, component, dateTime, objectOf, uuidSchema } from "../../lib/openapi/json-schema";
import { pageSchema, TRACKING_NUMBER_PATTERN } from "../../lib/parcel-view";
import { PIN_PATTERN } from "../../lib/pickup-pin";
import { keyMode, queryInteger, uuid } from "../../lib/schemas";
import { calendarDate } from "./calendar-date";

/** The params and answers of the cash-on-delivery and pick-up PIN actions of `parcels`. */

export const MAX_PARCELS_PER_REMITTANCE_LIST = 1000;

const organizationId = () => uuid().description("Organisation id (uuid).");

export interface CreateRemittanceParams {
  organizationId: string;
  mode: KeyMode;
  parcelIds: string[] | null;
  reference: string;
  paidOn: string | null;
}
export const CreateRemittanceSchema = Joi.object<CreateRemittanceParams, true>({
  organizationId: organizationId().required(),
  mode: keyMode().default("live").description("The parcels of which mode: live (default) or sandbox."),
  parcelIds: Joi.array()
    .items(uuid())
    .min(1)
    .max(MAX_PARCELS_PER_REMITTANCE_LIST)
    .unique()
    .allow(null)
    .default(null)
    .description(
      `The parcels to remit (1 to ${MAX_PARCELS_PER_REMITTANCE_LIST}, each COLLECTED); left out or null: every collected parcel not yet remitted.`
    ),
  reference: Joi.string()
    .trim()
    .min(1)
    .max(100)
    .required()
    .description("The payout's reference (bank transfer, cash receipt), 1 to 100 characters.")
    .example("VIR-2026-03-0042"),
  paidOn: calendarDate().allow(null).default(null).description("The payout's date (YYYY-MM-DD); today in Algiers when left out.")
});

export interface OrganizationParams {
  organizationId: string;
}
export const OrganizationSchema = Joi.object<OrganizationParams, true>({ organizationId: organizationId().required() });

export interface CodSettingsParams {
  organizationId: string;
  payout: CodPayout;
}
export const CodSettingsSchema = Joi.object<CodSettingsParams, true>({
  organizationId: organizationId().required(),
  payout: Joi.string()
    .valid(...COD_PAYOUTS)
    .required()
    .description("TRANSFER: remitted COD is paid out (bank transfer, cash). WALLET: it is credited to the organisation's wallet.")
});

export interface RemittancePageParams {
  page: number;
  size: number;
}
export const RemittancePageSchema = Joi.object<RemittancePageParams, true>({
  page: queryInteger().min(0).max(2_147_483_647).default(0).description("Zero-based page number."),
  size: queryInteger().min(1).max(100).default(20).description("Page size, 1 to 100.")
}).unknown(true);

export interface RemittanceIdParams {
  id: string;
}
export const RemittanceIdSchema = Joi.object<RemittanceIdParams, true>({
  id: uuid().required().description("Remittance id (uuid).")
}).unknown(true);

export interface OrganizationRemittanceParams {
  organizationId: string;
  remittanceId: string;
}
export const OrganizationRemittanceSchema = Joi.object<OrganizationRemittanceParams, true>({
  organizationId: organizationId().required(),
  remittanceId: uuid().required().description("Remittance id (uuid).")
});

export interface ResetPinParams {
  id: string;
}
export const ResetPinSchema = Joi.object<ResetPinParams, true>({ id: uuid().required().description("Parcel id (uuid).") });

/** The `pin` of a back-office transition. */
export const pin = () =>
  Joi.string()
    .pattern(PIN_PATTERN)
    .allow(null)
    .default(null)
    .messages({ "string.pattern.base": "{{#label}} must be the 6 digits of the pick-up SMS" })
    .description("The pick-up PIN the recipient shows (6 digits, from the pick-up SMS): required to move a live parcel to DELIVERED.");

// --- answers ------------------------------------------------------------------------------------

export interface RemittanceView {
  id: string;
  mode: KeyMode;
  reference: string;
  paidOn: string;
  payout: CodPayout;
  parcelCount: number;
  totalDzd: number;
  createdAt: string;
}

export interface RemittedParcelView {
  parcelId: string;
  trackingNumber: string;
  codAmountDzd: number;
}

export type RemittanceDetail = RemittanceView & { parcels: RemittedParcelView[] };

const remittanceFields = {
  id: uuidSchema("Remittance id."),
  mode: { type: "string", enum: ["live", "sandbox"], description: "The mode of its parcels." },
  reference: { type: "string", description: "The payout's reference (bank transfer, receipt)." },
  paidOn: { type: "string", format: "date", description: "The payout's date." },
  payout: {
    type: "string",
    enum: [...COD_PAYOUTS],
    description: "TRANSFER: paid out to you; WALLET: credited to your wallet (a COD_REMITTANCE movement)."
  },
  parcelCount: { type: "integer", minimum: 1, description: "Number of parcels remitted." },
  totalDzd: amountDzd("The sum of the parcels' COD amounts, to the centime."),
  createdAt: dateTime("When the remittance was recorded, UTC.")
} as const;

export const RemittanceSchema = component("CodRemittance", objectOf<RemittanceView>(remittanceFields));

export const RemittanceDetailSchema = component(
  "CodRemittanceDetail",
  objectOf<RemittanceDetail>({
    ...remittanceFields,
    parcels: arrayOf(
      component(
        "CodRemittedParcel",
        objectOf<RemittedParcelView>({
          parcelId: uuidSchema("The parcel."),
          trackingNumber: { type: "string", pattern: TRACKING_NUMBER_PATTERN },
          codAmountDzd: amountDzd("The cash collected for it.")
        })
      ),
      "The parcels of the remittance, by tracking number; their amounts add up to totalDzd."
    )
  })
);

export const RemittancePageView = pageSchema(
  "CodRemittancePage",
  RemittanceSchema,
  "The remittances of this page, newest first.",
  "One page of COD remittances."
);

export interface CodTotalsView {
  count: number;
  amountDzd: number;
}

export interface CodSummary {
  mode: KeyMode;
  currency: "DZD";
  toCollect: CodTotalsView;
  collectedNotRemitted: CodTotalsView;
  remittedThisMonth: CodTotalsView & { month: string; remittances: number };
}

const totals = (description: string) =>
  objectOf<CodTotalsView>(
    {
      count: { type: "integer", minimum: 0, description: "Number of parcels." },
      amountDzd: amountDzd("Their COD amounts added up, to the centime.")
    },
    { description }
  );

export const CodSummarySchema = component(
  "CodSummary",
  objectOf<CodSummary>({
    mode: { type: "string", enum: ["live", "sandbox"] },
    currency: { type: "string", const: "DZD" },
    toCollect: totals("Parcels whose cash is still to be collected (codStatus PENDING)."),
    collectedNotRemitted: totals("Cash collected and not yet remitted to you (codStatus COLLECTED)."),
    remittedThisMonth: objectOf<CodSummary["remittedThisMonth"]>(
      {
        month: { type: "string", pattern: "^\\d{4}-\\d{2}$", description: "The month, in Algiers time." },
        remittances: { type: "integer", minimum: 0, description: "Remittances paid this month." },
        count: { type: "integer", minimum: 0, description: "Parcels they cover." },
        amountDzd: amountDzd("Their total.")
      },
      { description: "Remittances whose payout date is in the current month (Algiers time)." }
    )
  })
);

export interface CodSettingsView {
  organizationId: string;
  payout: CodPayout;
}
export const CodSettingsView = component(
  "CodSettings",
  objectOf<CodSettingsView>({
    organizationId: uuidSchema(),
    payout: { type: "string", enum: [...COD_PAYOUTS], description: "TRANSFER (the default) or WALLET." }
  })
);

export interface PinResetView {
  parcelId: string;
  smsQueued: boolean;
}
export const PinResetSchema = component(
  "PickupPinReset",
  objectOf<PinResetView>({
    parcelId: uuidSchema(),
    smsQueued: { type: "boolean", description: "true: a pick-up SMS with the new PIN is on its way to the recipient." }
  })
);

export const COD_DOCS_TAGS = [
  { name: "Cash on delivery", description: "Cash collected at hand-over, and its remittances to you." },
  { name: "COD remittances", description: "Paying collected cash on delivery to merchants." }
];
