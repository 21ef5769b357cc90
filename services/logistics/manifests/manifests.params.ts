import { Joi } from "../../../lib/joi";
import { arrayOf, component, dateTime, nullable, objectOf, uuidSchema } from "../../../lib/openapi/json-schema";
import type { JsonSchema } from "../../../lib/openapi/types";
import { pageSchema, Page } from "../../../lib/parcel-view";
import { dateTimeText, queryInteger, uuid } from "../../../lib/schemas";
import { PickupAddressSchema as AddressSchema, type PickupAddress } from "../../../lib/pickup-address";
import { MAX_PICKUP_PARCELS } from "../pickups/pickups.params";

/** The params and views of the partner API's manifests and the courier's manifest scan (issue 44), each interface beside its schema. */

export interface CreateManifestParams {
  pickupId?: string;
  parcelIds?: string[];
  address?: PickupAddress;
  pickupDate?: string;
}

export const CreateManifestSchema = Joi.object<CreateManifestParams, true>({
  pickupId: uuid().description("Make the manifest of this pickup: its address, its day and the parcels it still has to collect."),
  parcelIds: Joi.array()
    .items(uuid())
    .min(1)
    .max(MAX_PICKUP_PARCELS)
    .unique()
    .description("Or these parcels (each CREATED or READY_FOR_PICKUP, on no other manifest), with `address` and `pickupDate`."),
  address: AddressSchema.description("With parcelIds: where the courier collects them."),
  pickupDate: Joi.string()
    .pattern(/^\d{4}-\d{2}-\d{2}$/)
    .description("With parcelIds: the day of the pickup (YYYY-MM-DD, Algiers), today or later.")
    .example("2026-03-12")
});

export interface ManifestIdParams {
  id: string;
}
export const ManifestIdSchema = Joi.object<ManifestIdParams, true>({ id: uuid().required().description("Manifest id (uuid).") }).unknown(
  true
);

export interface ManifestListParams {
  pickupDate: string | null;
  pickupId: string | null;
  page: number;
  size: number;
}
export const ManifestListSchema = Joi.object<ManifestListParams, true>({
  pickupDate: Joi.string()
    .pattern(/^\d{4}-\d{2}-\d{2}$/)
    .allow(null)
    .default(null)
    .description("Only manifests of this pickup day (YYYY-MM-DD)."),
  pickupId: uuid().allow(null).default(null).description("Only manifests made from this pickup."),
  page: queryInteger().min(0).max(2_147_483_647).default(0).description("Zero-based page number."),
  size: queryInteger().min(1).max(100).default(20).description("Page size, 1 to 100.")
}).unknown(true);

export interface ManifestLine {
  line: number;
  parcelId: string;
  trackingNumber: string;
  recipientHint: string;
  relayCode: string;
  codAmountDzd: number | null;
  declaredValueDzd: number | null;
}

export interface ManifestTotals {
  parcels: number;
  codAmountDzd: number;
  declaredValueDzd: number;
}

export interface ManifestView {
  id: string;
  number: string;
  pickupDate: string;
  address: PickupAddress;
  pickupId: string | null;
  lines: ManifestLine[];
  totals: ManifestTotals;
  pdfUrl: string | null;
  createdAt: string;
}

const money = (description: string): JsonSchema => ({ type: "number", description });

export const ManifestViewSchema = component(
  "Manifest",
  objectOf<ManifestView>(
    {
      id: uuidSchema("Manifest id."),
      number: {
        type: "string",
        description: "Printed as Code 128 and QR on the document: the courier scans it once for every parcel listed. MF-YYYYMMDD-XXXXXX.",
        examples: ["MF-20260312-7K2Q9M"]
      },
      pickupDate: { type: "string", format: "date", description: "The pickup's day (Algiers)." },
      address: objectOf<PickupAddress>({
        line1: { type: "string" },
        city: { type: "string" },
        wilaya: { type: "string", pattern: "^\\d{2}$" }
      }),
      pickupId: nullable(uuidSchema("The pickup it was made from, if any.")),
      lines: arrayOf(
        objectOf<ManifestLine>({
          line: { type: "integer", minimum: 1 },
          parcelId: uuidSchema(),
          trackingNumber: { type: "string" },
          recipientHint: { type: "string", description: "The recipient's first name and the phone's last two digits, nothing more." },
          relayCode: { type: "string" },
          codAmountDzd: nullable(money("Cash to collect at hand-over; null when none.")),
          declaredValueDzd: nullable(money("Declared value; null when none."))
        }),
        "One line per parcel, as printed."
      ),
      totals: objectOf<ManifestTotals>({
        parcels: { type: "integer", minimum: 1 },
        codAmountDzd: money("Sum of the COD amounts."),
        declaredValueDzd: money("Sum of the declared values.")
      }),
      pdfUrl: nullable({
        type: "string",
        format: "uri",
        description: "Pre-signed URL of the A4 PDF (French and Arabic), valid about 30 minutes; read the manifest again for a fresh one."
      }),
      createdAt: dateTime("UTC.")
    },
    { description: "A manifest: the list of parcels handed to the courier at one address on one day. Immutable." }
  )
);

export type ManifestPage = Page<ManifestView>;
export const ManifestPageSchema = pageSchema("ManifestPage", ManifestViewSchema, "Manifests, newest first.", "A page of manifests.");

export interface ManifestScanParams {
  id: string;
  manifestNumber: string;
  occurredAt?: string;
}
export const ManifestScanSchema = Joi.object<ManifestScanParams, true>({
  id: uuid().required().description("Pickup id (uuid)."),
  manifestNumber: Joi.string()
    .pattern(/^MF-\d{8}-[2-9A-HJ-NP-Z]{6}$/)
    .required()
    .description("The manifest's number, as scanned (Code 128 or QR).")
    .example("MF-20260312-7K2Q9M"),
  occurredAt: dateTimeText()
    .description("When the scan happened on the device (sent later when offline); now when left out.")
    .example("2026-03-12T10:15:00+01:00")
});

export interface ManifestScanAnswer {
  manifestNumber: string;
  pickupId: string;
  /** Parcels of the manifest now announced to the pickup (listed, to collect). */
  announced: string[];
  /** Of those, the ones the manifest added to the pickup. */
  added: string[];
  /** Parcels of the manifest that could not be announced: collected already, or in another pickup. */
  skipped: string[];
}
export const ManifestScanAnswerSchema = component(
  "ManifestScanAnswer",
  objectOf<ManifestScanAnswer>({
    manifestNumber: { type: "string" },
    pickupId: uuidSchema(),
    announced: arrayOf(uuidSchema(), "Parcels of the manifest listed on the pickup, still to collect."),
    added: arrayOf(uuidSchema(), "Of those, the ones the manifest added to the pickup."),
    skipped: arrayOf(uuidSchema(), "Parcels of the manifest not announced: collected already, or listed on another pickup.")
  })
);
