import { RECIPIENT_WARNINGS_SCHEMA } from "./openapi/recipient-warnings";
import type { RecipientWarning } from "./recipient-phone";
import { amountDzd, component, dateTime, nullable, objectOf, uuidSchema } from "./openapi/json-schema";
import type { JsonSchema } from "./openapi/types";
import { COD_CASH_PLACES, COD_STATUSES, CodCashPlace, CodStatus } from "./cod";
import { CustodySummary, CustodySummarySchema } from "./custody";
import { PARCEL_STATUSES, ParcelStatus } from "./parcel-status";

/** SPEC §2.1: what the API shows of a parcel; never the recipient's name or phone. */
export interface ParcelView {
  id: string;
  trackingNumber: string;
  status: ParcelStatus;
  destinationRelayCode: string;
  labelUrl: string | null;
  pricePaidDzd: number;
  codAmountDzd: number | null;
  /** What the insurance covers and a claim can pay at most (issue 26). */
  insuredValueDzd: number;
  codStatus: CodStatus | null;
  /** Issue 45 B: where the COD's cash is (lib/cod.ts); null while not collected, and without COD. */
  codCashAt?: CodCashPlace | null;
  /** When the parcel must be collected by; null until it reaches its relay point. */
  pickupDeadline: string | null;
  /** What its return cost, once charged; null otherwise. */
  returnFeeDzd: number | null;
  /** OUTBOUND: a parcel you sent; RETURN: a customer's return coming back to you (issue 21). */
  direction: ParcelDirection;
  /** For a return parcel, the delivered parcel it brings back; null otherwise. */
  returnOf: string | null;
  createdAt: string;
  updatedAt: string;
  /** Issue 44: who holds it now (lib/custody.ts); null once LOST or DAMAGED. Absent from events recorded before it. */
  custody?: CustodySummary | null;
  /**
   * Issue 30: only in the answer of a create (POST /parcels, each item of a batch) or a quote,
   * and only when there is something to say: the recipient's number cannot take an SMS.
   */
  warnings?: RecipientWarning[];
}

export const PARCEL_DIRECTIONS = ["OUTBOUND", "RETURN"] as const;
export type ParcelDirection = (typeof PARCEL_DIRECTIONS)[number];

/** A page of anything (SPEC §2.3's shape, shared by every paged list). */
export interface Page<T> {
  items: T[];
  page: number;
  size: number;
  totalElements: number;
  totalPages: number;
}

/** Issue 48: the list's page also names where the next one starts (cursor paging, services/parcels/list-cursor.ts). */
export interface ParcelPage extends Page<ParcelView> {
  nextCursor: string | null;
}

export function pageOf<T>(items: T[], page: number, size: number, totalElements: number): Page<T> {
  return { items, page, size, totalElements, totalPages: Math.ceil(totalElements / size) };
}

export const TRACKING_NUMBER_PATTERN = "^[A-Z]{2}[0-9]{9}[A-Z]{2}$";

export const SAMPLE_PARCEL: ParcelView = {
  id: "3f6c8e1a-5b2d-4c7e-9a10-2b3c4d5e6f70",
  trackingNumber: "RP123456785DZ",
  status: "CREATED",
  destinationRelayCode: "DZ-16-ALGER-CENTRE",
  labelUrl:
    "https://api.example.dz/labels/3f6c8e1a-5b2d-4c7e-9a10-2b3c4d5e6f70.pdf?expires=1767225600&signature=9f2c5e6a7b8c9d0e1f2a3b4c5d6e7f8091a2b3c4d5e6f708192a3b4c5d6e7f80",
  pricePaidDzd: 500,
  codAmountDzd: 1500,
  insuredValueDzd: 5000,
  codStatus: "PENDING",
  codCashAt: null,
  pickupDeadline: null,
  returnFeeDzd: null,
  direction: "OUTBOUND",
  returnOf: null,
  createdAt: "2026-01-15T09:30:00.000Z",
  updatedAt: "2026-01-15T09:30:00.000Z",
  custody: { holder: "merchant", since: "2026-01-15T09:30:00.000Z", name: null, wilaya: null }
};

export const ParcelStatusSchema = component("ParcelStatus", {
  type: "string",
  enum: [...PARCEL_STATUSES],
  description:
    "Status of a parcel. A new parcel is CREATED; only CREATED and READY_FOR_PICKUP parcels can be cancelled. " +
    "Transitions other than cancel are made by couriers and relay points (or by the sandbox trigger)."
});

export const CodStatusSchema = component("CodStatus", {
  type: "string",
  enum: [...COD_STATUSES],
  description:
    "Cash on delivery: PENDING until hand-over, COLLECTED when the parcel is DELIVERED, REMITTED once paid to you in a remittance, " +
    "NOT_COLLECTED when the parcel is returned, lost, damaged or cancelled. It only moves forward."
});

export const ParcelViewSchema = component(
  "ParcelView",
  objectOf<ParcelView>(
    {
      id: uuidSchema("Internal parcel identifier."),
      trackingNumber: {
        type: "string",
        pattern: TRACKING_NUMBER_PATTERN,
        description: "Public tracking number (UPU S10 shape: two letters, nine digits including a check digit, DZ).",
        examples: ["RP123456785DZ"]
      },
      status: ParcelStatusSchema,
      destinationRelayCode: {
        type: "string",
        description: "Public code of the destination relay point.",
        examples: ["DZ-16-ALGER-CENTRE"]
      },
      labelUrl: {
        type: ["string", "null"],
        format: "uri",
        description:
          "Pre-signed URL of the PDF label, valid about 30 minutes. null when the label service is momentarily " +
          "unavailable: read the parcel again with GET to obtain a fresh URL."
      },
      pricePaidDzd: amountDzd("Price debited from the wallet (tariff by weight tier, plus the COD fee)."),
      codAmountDzd: nullable({
        type: "number",
        minimum: 0,
        maximum: 10_000_000,
        description: "Cash to collect at hand-over, in DZD, at most two decimals; null when there is no cash on delivery."
      }),
      insuredValueDzd: amountDzd(
        "The value the insurance covers, and the most a claim can pay: the declared value (the free allowance, 5 000, when " +
          "none was declared), at most the claim cap (150 000)."
      ),
      codStatus: { ...nullable(CodStatusSchema), description: "What became of the cash on delivery; null when there is none." },
      codCashAt: {
        type: ["string", "null"],
        enum: [...COD_CASH_PLACES, null],
        description:
          "Where the cash on delivery is: COUNTER (collected at the relay point), COURIER (the carrier's courier took it, the " +
          "agent confirmed), CARRIER (handed in at the carrier's hub, or paid by card or QR), PAID (remitted to you: codStatus " +
          "REMITTED). Null while not collected, and without cash on delivery. Later versions may add places."
      },
      pickupDeadline: {
        type: ["string", "null"],
        format: "date-time",
        description:
          "UTC. The recipient must collect the parcel before this time; then it goes back to you (RETURN_PENDING, reason " +
          "PICKUP_EXPIRED) and the return fee is charged. Set when the parcel reaches its relay point (AT_RELAY), null before; " +
          "later after a pick-up extension."
      },
      returnFeeDzd: {
        type: ["number", "null"],
        minimum: 0,
        description:
          "What the parcel's return (expiry or refusal at the relay point) was charged to your wallet, in DZD; null while no return " +
          "fee was charged."
      },
      direction: {
        type: "string",
        enum: [...PARCEL_DIRECTIONS],
        description:
          "OUTBOUND: a parcel you created. RETURN: a customer's return, made when they dropped it off with a return code; it " +
          "comes to your return relay point, where you collect it with the return's collectionPin (GET /returns/{id})."
      },
      returnOf: nullable(uuidSchema("For a RETURN parcel, the delivered parcel it brings back; null for an OUTBOUND parcel.")),
      createdAt: dateTime("Creation time, UTC."),
      updatedAt: dateTime("Time of the last modification, UTC."),
      custody: CustodySummarySchema,
      warnings: RECIPIENT_WARNINGS_SCHEMA
    },
    {
      description: "A parcel as the API shows it. The recipient's name and phone are never returned.",
      examples: [SAMPLE_PARCEL],
      // custody, codCashAt: an event recorded before issues 44 and 45 (the events API, a redelivery) has none.
      optional: ["warnings", "custody", "codCashAt"]
    }
  )
);

/** A page of `item` schemas, as every paged list answers. */
export function pageSchema(
  name: string,
  item: JsonSchema,
  itemsDescription: string,
  description: string,
  more: Record<string, JsonSchema> = {}
): JsonSchema {
  return component(
    name,
    objectOf<Page<unknown>>(
      {
        items: { type: "array", items: item, description: itemsDescription },
        page: { type: "integer", format: "int32", minimum: 0, description: "Zero-based page number." },
        size: { type: "integer", format: "int32", minimum: 1, maximum: 100, description: "Page size asked for." },
        totalElements: { type: "integer", format: "int64", minimum: 0, description: "Number of matching items in all pages." },
        totalPages: { type: "integer", format: "int32", minimum: 0, description: "Number of pages at this size." },
        ...more
      },
      { description }
    )
  );
}

export const ParcelPageSchema = pageSchema(
  "ParcelPage",
  ParcelViewSchema,
  "The parcels of this page, newest first.",
  "One page of parcels.",
  {
    nextCursor: nullable({
      type: "string",
      description:
        "Pass it as `after` to read the page that follows this one, at the same cost however deep the list goes; null on the last page."
    })
  }
);
