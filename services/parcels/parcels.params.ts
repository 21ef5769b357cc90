import type { ErrorBody } from "../../lib/http-errors";
import { Joi } from "../../lib/joi";
import { amountDzd, arrayOf, component, dateTime, nullable, objectOf, uuidSchema } from "../../lib/openapi/json-schema";
import { EVENT_SOURCES, ParcelEventView } from "./parcel-events";
import { CURSOR_PATTERN, decodeCursor } from "./list-cursor";
import { PRICE_ITEMS, PriceBreakdown } from "./tariff";
import { API_ERROR } from "../../lib/openapi/error-schema";
import { joiToJsonSchema } from "../../lib/openapi/joi-schema";
import type { Parameter } from "../../lib/openapi/types";
import { isParcelStatus, PARCEL_STATUSES, ParcelStatus } from "../../lib/parcel-status";
import {
  PARCEL_DIRECTIONS,
  ParcelDirection,
  ParcelStatusSchema,
  ParcelView,
  ParcelViewSchema,
  TRACKING_NUMBER_PATTERN
} from "../../lib/parcel-view";
import {
  IDEMPOTENCY_KEY_PATTERN,
  keyMode,
  moneyDzd,
  NoParams,
  NoParamsSchema,
  parcelStatus,
  queryInteger,
  relayCode,
  uuid
} from "../../lib/schemas";
import { MAX_LABELS_PER_DOCUMENT } from "../../lib/labels/label-data";
import { validateWith } from "../../lib/validation";
import { LANGUAGES, type Lang } from "../../lib/languages";
import { RECIPIENT_WARNINGS_SCHEMA } from "../../lib/openapi/recipient-warnings";
import type { RecipientWarning } from "../../lib/recipient-phone";
import { COD_DOCS_TAGS, pin } from "./cod.params";
import type { KeyMode } from "../../lib/api-keys";

/**
 * The params of every parcels action (each interface beside the Joi schema that validates it, with
 * the documentation of each field), the answers' schemas, and the longer texts of the endpoints.
 */

export type { NoParams };
export { NoParamsSchema };

export const parcelId = () => uuid().description("Parcel id (uuid).").example("3f6c8e1a-5b2d-4c7e-9a10-2b3c4d5e6f70");
const dimension = (what: string) =>
  Joi.number().integer().min(1).max(300).allow(null).default(null).description(`${what} in cm, 1 to 300.`);

export interface CreateParcelInput {
  recipientName: string;
  recipientPhone: string;
  weightG: number;
  destinationRelayCode: string;
  lengthCm: number | null;
  widthCm: number | null;
  heightCm: number | null;
  declaredValueDzd: number | null;
  codAmountDzd: number | null;
  /** Issue 30: the language of the recipient's SMS; absent, the organisation's default (else French). */
  recipientLanguage?: Lang;
}
const recipientName = () =>
  Joi.string()
    .min(1)
    .max(100)
    .pattern(/\S/)
    .description("Recipient's name, at most 100 characters and not blank. Stored encrypted, never shown publicly.")
    .example("Amina Benali");
// SPEC §2.2's pattern, plus at least eight digits: eight spaces are no phone number.
const recipientPhone = () =>
  Joi.string()
    .pattern(/^(?=(?:[^0-9]*[0-9]){8})\+?[0-9 ]{8,20}$/)
    .messages({ "string.pattern.base": "{{#label}} must be 8 to 20 digits or spaces with at least 8 digits, and an optional leading +" })
    .description(
      "Recipient's phone number: 8 to 20 digits or spaces (at least 8 digits), with an optional leading +. The pick-up SMS goes to it."
    )
    .example("+213 555 12 34 56");
const recipientLanguage = () =>
  Joi.string()
    .valid(...LANGUAGES)
    .description(
      "Language of the recipient's SMS and of the tracking page's first view: fr, ar or en. Omitted: your recipient " +
        "settings' defaultLanguage (GET /recipient-settings), French unless you changed it."
    )
    .example("ar");

/** The creation fields that price a parcel: create and quote validate them alike. */
const pricingKeys = {
  weightG: Joi.number()
    .integer()
    .min(1)
    .max(30000)
    .required()
    .description("Weight in grams, 1 to 30000; the price follows the weight tiers.")
    .example(1200),
  destinationRelayCode: relayCode()
    .required()
    .description("Public code of the destination relay point: DZ, a hyphen, then 3 to 30 characters among A-Z, 0-9 and hyphen.")
    .example("DZ-16-ALGER-CENTRE"),
  lengthCm: dimension("Length"),
  widthCm: dimension("Width"),
  heightCm: dimension("Height"),
  declaredValueDzd: moneyDzd()
    .allow(null)
    .default(null)
    .description("Declared value for insurance, in DZD: 0 to 10 000 000.")
    .example(2000),
  codAmountDzd: moneyDzd()
    .allow(null)
    .default(null)
    .description(
      "Cash to collect at hand-over, in DZD: 0 to 10 000 000. Omitted or null: no cash on delivery. Independent of declaredValueDzd."
    )
    .example(1500)
};

/** The fields of a creation request, shared by POST /parcels and each item of a batch. */
const CREATE_FIELDS = {
  recipientName: recipientName().required(),
  recipientPhone: recipientPhone().required(),
  recipientLanguage: recipientLanguage(),
  ...pricingKeys
};
export const CreateSchema = Joi.object<CreateParcelInput, true>(CREATE_FIELDS);

/** A quote takes the creation body; the recipient may be sent (it is checked, then ignored) or left out. */
export type QuoteInput = Omit<CreateParcelInput, "recipientName" | "recipientPhone"> & { recipientName?: string; recipientPhone?: string };
export const QuoteSchema = Joi.object<QuoteInput, true>({
  recipientName: recipientName(),
  recipientPhone: recipientPhone(),
  recipientLanguage: recipientLanguage(),
  ...pricingKeys
});

export const QUOTE_DESCRIPTION =
  "The price a parcel with these fields would cost, before creating it: the same fields as a creation (the recipient is " +
  "not needed; if sent, it is checked and ignored), the same validation and errors, the same tariff. Nothing is debited " +
  "or stored, and the price equals what creating the parcel with the same fields debits. A relay point closed today or " +
  "within CLOSURE_NOTICE_DAYS days is 409 RELAY_CLOSED, as for a creation.";

export interface ListParams {
  status: ParcelStatus | null;
  direction: ParcelDirection | null;
  page: number;
  size: number;
  /** Issue 48: the nextCursor of the page before; the page after it, at the same cost at any depth. */
  after: string | null;
}
export const ListSchema = Joi.object<ListParams, true>({
  status: parcelStatus().allow(null).default(null).description("Only parcels in this status (any of the 12 values)."),
  direction: Joi.string()
    .valid(...PARCEL_DIRECTIONS)
    .allow(null)
    .default(null)
    .description("Only your parcels (OUTBOUND) or only customers' return parcels (RETURN); both when omitted."),
  page: queryInteger().min(0).max(2_147_483_647).default(0).description("Zero-based page number."),
  size: queryInteger().min(1).max(100).default(20).description("Page size, 1 to 100."),
  after: Joi.string()
    .pattern(CURSOR_PATTERN)
    .custom((value: string, helpers) => (decodeCursor(value) ? value : helpers.error("cursor.invalid")))
    // The pattern says all the document can: the rest (a real instant and id inside) is checked here.
    .meta({ openapi: {} })
    .allow(null)
    .default(null)
    .messages({
      "string.pattern.base": "{{#label}} must be a nextCursor this API answered",
      "cursor.invalid": "{{#label}} must be a nextCursor this API answered"
    })
    .description(
      "The `nextCursor` of the page before: the page that follows it, in the same order and with the same filters, at the same " +
        "cost however deep. To walk the whole list, follow `nextCursor` rather than `page` numbers. With `after`, `page` is ignored " +
        "(the answer's `page` is 0: it counts from the cursor)."
    )
}).unknown(true);

export interface IdParams {
  id: string;
}
export const IdSchema = Joi.object<IdParams, true>({ id: parcelId().required() }).unknown(true);

export interface TrackingParams {
  trackingNumber: string;
}
export const TrackingSchema = Joi.object<TrackingParams, true>({
  trackingNumber: Joi.string()
    .min(1)
    .max(64)
    .required()
    .description(`Tracking number, e.g. RP123456785DZ (issued numbers match ${TRACKING_NUMBER_PATTERN}).`)
    .example("RP123456785DZ")
}).unknown(true);

export interface CancelParams {
  id: string;
  reason: string | null;
}
export const CancelSchema = Joi.object<CancelParams, true>({
  id: parcelId().required(),
  reason: Joi.string()
    .max(500)
    .allow(null, "")
    .default(null)
    .description("Why the parcel is cancelled, at most 500 characters; sent in the webhook.")
    .example("order cancelled by the customer")
});

export interface TransitionParams {
  id: string;
  toStatus: string;
  reason: string | null;
}
const transitionFields = {
  id: parcelId().required(),
  // Checked by hand: an unknown status is INVALID_STATUS (SPEC §4.7), not a generic validation error.
  toStatus: Joi.string().max(50).required().example("DELIVERED"),
  reason: Joi.string()
    .max(500)
    .allow(null, "")
    .default(null)
    .description("Free text, at most 500 characters; appears in the webhook payload.")
    .example("integration test")
};
export const TransitionSchema = Joi.object<TransitionParams, true>(transitionFields);

/** The back-office move: the sandbox trigger's fields and the pick-up PIN of a hand-over. */
export interface OperatorTransitionParams extends TransitionParams {
  pin: string | null;
}
export const OperatorTransitionSchema = Joi.object<OperatorTransitionParams, true>({ ...transitionFields, pin: pin() });

/** What the documents say of `toStatus`: one of the 12 statuses, which the handler checks (400 INVALID_STATUS). */
export const TO_STATUS_DOC = {
  description: "Target status, one of the 12 values (400 INVALID_STATUS otherwise).",
  handler: { schema: { enum: [...PARCEL_STATUSES] }, check: isParcelStatus }
};

export interface ParcelIdParams {
  parcelId: string;
}
export const ParcelIdSchema = Joi.object<ParcelIdParams, true>({ parcelId: uuid().required() });

export interface LabelDataOfParams {
  parcelIds: string[];
  owner?: { organizationId: string; mode: KeyMode };
}
export const LabelDataOfSchema = Joi.object<LabelDataOfParams, true>({
  parcelIds: Joi.array().items(uuid()).min(1).max(MAX_LABELS_PER_DOCUMENT).required(),
  owner: Joi.object({ organizationId: uuid().required(), mode: keyMode().required() })
});

export interface RelayCodeParams {
  code: string;
}
export const RelayCodeSchema = Joi.object<RelayCodeParams, true>({ code: Joi.string().max(40).required() });

export interface RelayNotifiedParams extends ParcelIdParams {
  reason: string | null;
}
export const RelayNotifiedSchema = Joi.object<RelayNotifiedParams, true>({
  parcelId: uuid().required(),
  reason: Joi.string().max(500).allow(null).default(null)
});

export interface SweepParams {
  olderThanSeconds?: number;
}
export const SweepSchema = Joi.object<SweepParams, true>({ olderThanSeconds: Joi.number().integer().min(0) });

/** The partner API's parcels collection: created in create/create.mixin.ts, listed in reads/reads.mixin.ts. */
export const PARCELS_PATH = "/parcels";

export const IDEMPOTENCY_KEY_HEADER: Parameter = {
  name: "Idempotency-Key",
  in: "header",
  required: false,
  description:
    "Your identifier of this creation (an order number, a UUID): 1 to 255 visible ASCII characters, kept 24 hours. " +
    "A retry with the same key and body returns the first parcel; another body is 422; a retry while the first is still running is 409.",
  schema: { type: "string", minLength: 1, maxLength: 255, pattern: IDEMPOTENCY_KEY_PATTERN.source },
  example: "order-2026-000123"
};

// --- batches -----------------------------------------------------------------------------------

/** The most items one batch request creates. */
export const MAX_BATCH_ITEMS = 100;

/** One item of a batch: a creation request, with its own optional idempotency key. */
export interface BatchItemInput extends CreateParcelInput {
  idempotencyKey: string | null;
}
export const BatchItemSchema = Joi.object<BatchItemInput, true>({
  ...CREATE_FIELDS,
  idempotencyKey: Joi.string()
    .pattern(IDEMPOTENCY_KEY_PATTERN)
    .allow(null)
    .default(null)
    .description(
      "This item's idempotency key, with the Idempotency-Key header's rules and meaning (1 to 255 visible ASCII " +
        "characters, kept 24 hours, shared with POST /parcels): a retry returns the first parcel without a second debit."
    )
    .example("order-2026-000123")
}).description("A parcel to create (the fields of POST /parcels) and its optional idempotencyKey. Unknown fields are refused.");

/** The items are checked one by one by the handler, so that a bad item fails alone; the array itself is checked here. */
export interface CreateBatchParams {
  items: unknown[];
}
export const CreateBatchSchema = Joi.object<CreateBatchParams, true>({
  items: Joi.array()
    .min(1)
    .max(MAX_BATCH_ITEMS)
    .required()
    .description(
      `1 to ${MAX_BATCH_ITEMS} parcels to create, each as the body of POST /parcels plus an optional idempotencyKey. An item ` +
        "that is not valid fails alone: its result carries the 400 that POST /parcels would answer."
    )
    .example([
      {
        recipientName: "Amina Benali",
        recipientPhone: "+213 555 12 34 56",
        weightG: 1200,
        destinationRelayCode: "DZ-16-ALGER-CENTRE",
        idempotencyKey: "order-2026-001041"
      }
    ])
});

/** What the document says of each item: a creation request, which the handler checks item by item. */
export const BATCH_ITEMS_DOC = {
  handler: {
    schema: { items: joiToJsonSchema(BatchItemSchema) },
    check: (items: unknown) => Array.isArray(items) && items.every(item => "value" in validateWith(BatchItemSchema, item))
  }
};

export const CREATE_BATCH_DESCRIPTION =
  `Creates up to ${MAX_BATCH_ITEMS} parcels in one call. Each item is created exactly as by POST /parcels, on its own: ` +
  "validated, priced and debited from the wallet alone, in the order given, so a bad item or an insufficient balance fails " +
  "only the items concerned and never the others.\n\n" +
  "The answer is 200 with one result per item, in the order sent: `status` 201 and the parcel view, or the status and " +
  "the error (in the normalised error shape) that POST /parcels would have answered for that item. `created` counts the " +
  "parcels this request made and paid, `replayed` the items answered with the parcel an earlier request made for their " +
  "`idempotencyKey` (`replayed: true` on the item), `failed` the others. Give each item an `idempotencyKey` to make " +
  "retrying the whole batch safe: items already created come back as they were, without a second debit. The `Idempotency-Key` header is refused here: the keys go on the items. " +
  "If the wallet cannot be reached, the items it has not paid answer 503: retry them.";

export const CREATE_DESCRIPTION =
  "Creates a parcel addressed to a relay point and debits its price from the wallet at once (the sandbox wallet for a " +
  "sandbox key). The price is the weight tier of the tariff plus, with cash on delivery, a COD fee. A tracking number " +
  "and a label URL come back; the recipient gets a pick-up SMS when the parcel reaches the relay point.\n\n" +
  "Always send an `Idempotency-Key`, and retry with the same one: for 24 hours, a request with the same key and the same " +
  "body returns the first parcel without a second debit; the same key with another body is refused (422). Without a key, " +
  "a request whose answer was lost (a reset connection, a time-out, a restart of the platform) may still have created " +
  "and paid its parcel, and a retry creates and pays a second one.\n\n" +
  "A relay point closed today or within the next CLOSURE_NOTICE_DAYS days (2) is refused with 409 RELAY_CLOSED before " +
  "anything is debited: its `details` name up to three nearest open relay points (`relayCode`, `distanceKm`).";

export const CREATE_EXAMPLES = {
  minimal: {
    summary: "Required fields only",
    value: { recipientName: "Amina Benali", recipientPhone: "+213 555 12 34 56", weightG: 1200, destinationRelayCode: "DZ-16-ALGER-CENTRE" }
  },
  cod: {
    summary: "With cash on delivery, declared value and dimensions",
    value: {
      recipientName: "Amina Benali",
      recipientPhone: "0555 12 34 56",
      weightG: 1200,
      destinationRelayCode: "DZ-16-ALGER-CENTRE",
      lengthCm: 30,
      widthCm: 20,
      heightCm: 10,
      declaredValueDzd: 2000,
      codAmountDzd: 1500
    }
  }
};

export const BATCH_EXAMPLES = {
  orders: {
    summary: "Two orders, each with its order number as idempotency key",
    value: {
      items: [
        { ...CREATE_EXAMPLES.minimal.value, idempotencyKey: "order-2026-001041" },
        { ...CREATE_EXAMPLES.cod.value, idempotencyKey: "order-2026-001042" }
      ]
    }
  }
};

export const TRANSITION_DESCRIPTION =
  "CREATED → READY_FOR_PICKUP → PICKED_UP → IN_TRANSIT | LOST | DAMAGED; IN_TRANSIT → AT_RELAY | RETURN_PENDING | LOST | DAMAGED; " +
  "AT_RELAY → RELAY_NOTIFIED | DELIVERED | RETURN_PENDING | LOST | DAMAGED; RELAY_NOTIFIED → DELIVERED | RETURN_PENDING; " +
  "RETURN_PENDING → RETURNED | LOST. Anything else is 409. Handing a live parcel over (DELIVERED) takes `pin`, the 6 digits of " +
  "the recipient's pick-up SMS: missing, 400 PIN_REQUIRED; wrong, 409 PIN_INCORRECT (the answer says how many tries are left, " +
  "never the PIN); after 5 wrong tries 423 PIN_LOCKED until an operator resets the PIN. Sandbox parcels take no PIN.";

// --- answers ------------------------------------------------------------------------------------

/** SPEC §2.7. */
export interface SandboxTriggerResponse {
  parcelId: string;
  trackingNumber: string;
  previousStatus: string;
  newStatus: string;
  triggeredAt: string;
}

export const SandboxTriggerView = component(
  "SandboxTriggerResponse",
  objectOf<SandboxTriggerResponse>({
    parcelId: uuidSchema("The parcel."),
    trackingNumber: { type: "string", pattern: TRACKING_NUMBER_PATTERN },
    previousStatus: ParcelStatusSchema,
    newStatus: ParcelStatusSchema,
    triggeredAt: dateTime("When the status changed, UTC.")
  })
);

/** One result of a batch: the created parcel (201), or the error POST /parcels would have answered for the item. */
export interface BatchItemResult {
  index: number;
  status: number;
  idempotencyKey: string | null;
  /** The parcel was made by an earlier request with this idempotencyKey and is answered again. */
  replayed: boolean;
  parcel: ParcelView | null;
  error: ErrorBody | null;
}

export interface BatchResult {
  created: number;
  replayed: number;
  failed: number;
  items: BatchItemResult[];
}

export const BatchResultView = component(
  "ParcelBatchResult",
  objectOf<BatchResult>({
    created: {
      type: "integer",
      minimum: 0,
      maximum: MAX_BATCH_ITEMS,
      description: "Items whose parcel this request created (status 201, not replayed): what it paid for."
    },
    replayed: {
      type: "integer",
      minimum: 0,
      maximum: MAX_BATCH_ITEMS,
      description:
        "Items answered with the parcel an earlier request made for their idempotencyKey (status 201, replayed): paid before, not again."
    },
    failed: { type: "integer", minimum: 0, maximum: MAX_BATCH_ITEMS, description: "Items whose status is 400 or more." },
    items: arrayOf(
      component(
        "ParcelBatchItemResult",
        objectOf<BatchItemResult>({
          index: { type: "integer", minimum: 0, maximum: MAX_BATCH_ITEMS - 1, description: "Position of the item in the request, from 0." },
          status: {
            type: "integer",
            minimum: 201,
            maximum: 599,
            description: "201 when the parcel was created (or returned again for its idempotencyKey), else the error's HTTP status."
          },
          idempotencyKey: {
            type: ["string", "null"],
            description: "The item's idempotencyKey, as sent; null without one or when the item was not valid."
          },
          replayed: {
            type: "boolean",
            description: "true when the parcel was made by an earlier request with this idempotencyKey (nothing was paid now)."
          },
          parcel: { ...nullable(ParcelViewSchema), description: "The parcel, when status is 201; else null." },
          error: { ...nullable(API_ERROR), description: "Why the item failed, in the normalised error shape; null when status is 201." }
        })
      ),
      "One result per item, in the order of the request."
    )
  })
);

export const ParcelEventsView = component(
  "ParcelHistory",
  objectOf<{ items: ParcelEventView[] }>({
    items: arrayOf(
      component(
        "ParcelHistoryEvent",
        objectOf<ParcelEventView>({
          status: ParcelStatusSchema,
          previousStatus: nullable(ParcelStatusSchema),
          occurredAt: dateTime("When the parcel reached this status, UTC."),
          reason: { type: ["string", "null"], description: "The note given with the change (a cancel reason, an operator's note)." },
          source: {
            type: "string",
            enum: [...EVENT_SOURCES],
            description:
              "Who made the change: merchant (a call with your key), operator (a courier or relay point), sandbox (the " +
              "sandbox trigger) or system (the platform itself, e.g. once the pick-up SMS is sent)."
          }
        })
      ),
      "Every status the parcel went through, oldest first; the first is its creation (previousStatus null)."
    )
  })
);

/** The price and what it is made of, and what a return of the parcel would cost (issue 18). */
export type ParcelQuote = PriceBreakdown & { returnFeeDzd: number; insuredValueDzd: number; warnings?: RecipientWarning[] };

export const ParcelQuoteView = component(
  "ParcelQuote",
  objectOf<ParcelQuote>(
    {
      priceDzd: amountDzd("What a creation with these fields debits."),
      returnFeeDzd: amountDzd(
        "What a return of this parcel would cost on top (not collected in time, or refused at the relay point): a share of " +
          "the shipping price (the weight tier; never of the insurance or the COD fee), charged to the wallet when the parcel " +
          "goes back. Nothing is charged while it does not."
      ),
      insuredValueDzd: amountDzd(
        "The value the insurance covers, and the most a claim can pay: declaredValueDzd (the free allowance, 5 000, when none " +
          "is declared), at most the claim cap (CLAIM_CAP_DZD, 150 000). Insurance is charged on it above the free allowance, " +
          "never on declared value above the cap."
      ),
      currency: { type: "string", const: "DZD" },
      breakdown: arrayOf(
        objectOf<PriceBreakdown["breakdown"][number]>({
          item: {
            type: "string",
            enum: [...PRICE_ITEMS],
            description: "shipping (the weight tier), insurance (insured value above the free allowance), cod (the cash-on-delivery fee)."
          },
          amountDzd: amountDzd("This part of the price.")
        }),
        "The shipping tier, then each fee that applies; the amounts add up to priceDzd."
      ),
      warnings: RECIPIENT_WARNINGS_SCHEMA
    },
    {
      examples: [
        {
          priceDzd: 500,
          returnFeeDzd: 225,
          insuredValueDzd: 5000,
          currency: "DZD",
          breakdown: [
            { item: "shipping", amountDzd: 450 },
            { item: "cod", amountDzd: 50 }
          ]
        }
      ],
      optional: ["warnings"]
    }
  )
);

export const PARCELS_DOCS = {
  tags: [
    { name: "Parcels", description: "Create, list, read and cancel parcels; operators move them along the logistics graph." },
    { name: "Sandbox", description: "Simulate status changes with a sandbox key." },
    { name: "Relay points", description: "The directory of relay points (pick-up points)." },
    { name: "Public tracking", description: "Where a parcel is, for anyone with its tracking number: no key, nothing personal." },
    {
      name: "Public relay points",
      description: "The relay-point search for a shop's checkout page, called from the customer's browser: no key, any origin, cached."
    },
    ...COD_DOCS_TAGS
  ]
};
