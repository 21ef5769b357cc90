import { Joi } from "../../../lib/joi";
import { amountDzd, component, dateTime, nullable, objectOf, uuidSchema } from "../../../lib/openapi/json-schema";
import type { JsonSchema } from "../../../lib/openapi/types";
import { Page, pageSchema, TRACKING_NUMBER_PATTERN } from "../../../lib/parcel-view";
import { MAX_TRACKING_INPUT_LENGTH } from "../../../lib/tracking-number";
import { PARCEL_STATUSES, ParcelStatus } from "../../../lib/parcel-status";
import { dateTimeText, moneyDzd, queryInteger, relayCode } from "../../../lib/schemas";
import { pin } from "../cod.params";
import { Denominations, denominationsSchema, denominationsView, DENOMINATIONS_DZD } from "../cash/denominations";
import { occurredAtKey } from "../../../lib/occurred-at";
import { COUNTER_STATUSES } from "./relay.store";

/** The relay API's params and answers (each interface beside the Joi schema that validates it), and the back-office's till reading. */

export const pageKeys = {
  page: queryInteger().min(0).max(2_147_483_647).default(0).description("Zero-based page number."),
  size: queryInteger().min(1).max(100).default(20).description("Page size, 1 to 100.")
};

const trackingNumber = () =>
  Joi.string()
    .min(1)
    .max(MAX_TRACKING_INPUT_LENGTH)
    .description("The tracking number as scanned or typed: case, spaces and dashes do not matter.")
    .example("RP123456785DZ");

export type CounterStatus = (typeof COUNTER_STATUSES)[number];

export interface CounterListParams {
  status: CounterStatus | "DELIVERED" | null;
  hint: string | null;
  since: string | null;
  page: number;
  size: number;
}
export const CounterListSchema = Joi.object<CounterListParams, true>({
  status: Joi.string()
    .valid(...COUNTER_STATUSES, "DELIVERED")
    .allow(null)
    .default(null)
    .description(
      "IN_TRANSIT: coming to this relay point; AT_RELAY and RELAY_NOTIFIED: on the shelf; RETURN_PENDING: refused or expired, " +
        "waiting for the courier; READY_FOR_PICKUP: customers' returns dropped off here (POST /drop-offs), waiting for the " +
        "courier. All five when omitted. With since: DELIVERED (hand-overs), RETURN_PENDING (refusals) or READY_FOR_PICKUP " +
        "(drop-offs) done at this counter since then, whatever became of them."
    ),
  hint: Joi.string()
    .max(20)
    .allow(null)
    .default(null)
    .description(
      "Searches the parcels at the counter by what the recipient says: the last digits of the phone (56, 3456), the first " +
        "letter of the name (A), or both (A56)."
    )
    .example("A56"),
  since: dateTimeText()
    .allow(null)
    .default(null)
    .description(
      "The day's operations: with status DELIVERED, RETURN_PENDING or READY_FOR_PICKUP, the parcels this counter moved there " +
        "at or after this date-time, by the time of the operation (the scan's, for an operation sent later), oldest first."
    )
    .example("2026-11-26T00:00:00+01:00"),
  ...pageKeys
}).unknown(true);

export interface ParcelNumberParams {
  trackingNumber: string;
}
export const ParcelNumberSchema = Joi.object<ParcelNumberParams, true>({ trackingNumber: trackingNumber().required() });

export interface TrackingBody {
  trackingNumber: string;
  occurredAt: string | null;
}
export const ArrivalSchema = Joi.object<TrackingBody, true>({ trackingNumber: trackingNumber().required(), occurredAt: occurredAtKey() });

export interface HandoverParams {
  trackingNumber: string;
  pin: string | null;
  codCollectedDzd: number | null;
  occurredAt: string | null;
  offline: boolean;
  pinVersion: number | null;
  tender: "cash" | "card" | "qr";
  tenderReference: string | null;
  pass: string | null;
  offlineWrongTries: number;
}
export const HandoverSchema = Joi.object<HandoverParams, true>({
  trackingNumber: trackingNumber().required(),
  pass: Joi.string()
    .trim()
    .max(200)
    .allow(null)
    .default(null)
    .description(
      "The recipient's pickup pass (the QR of their tracking page, as scanned), instead of pin: the server's signature over " +
        "this parcel, this relay point and its current version. 409 PICKUP_PASS_INVALID when it is not, PICKUP_PASS_VOID when a " +
        "new PIN or a redirect replaced it. It costs no PIN try."
    )
    .example("RP1.RP123456785DZ.1.ABCD…"),
  offlineWrongTries: Joi.number()
    .integer()
    .min(0)
    .max(1000)
    .default(0)
    .description(
      "With offline: the wrong PINs the device refused for this parcel before this hand-over. They count against the parcel's " +
        "five tries like the server's own; more than five offline on one parcel flags it for the operators."
    ),
  occurredAt: occurredAtKey(),
  offline: Joi.boolean()
    .default(false)
    .description(
      "true for a hand-over the device checked offline, against the recipient's pickup pass or against GET /offline-verifiers: " +
        "refused with 409 PARCEL_REDIRECTED, PARCEL_EXPIRED, PIN_RESET or PICKUP_PASS_VOID if the parcel changed meanwhile, and " +
        "409 OFFLINE_PIN_REFUSED for a PIN one outside the operator's limits (COD, declared value, per device and day). Cash only."
    ),
  pinVersion: Joi.number()
    .integer()
    .min(0)
    .max(4_294_967_295)
    .allow(null)
    .default(null)
    .description("With offline and a PIN: the pinVersion of the verifier the device checked the PIN with."),
  tender: Joi.string()
    .valid("cash", "card", "qr")
    .default("cash")
    .description("How the COD was paid: cash (the default, the only one offline), or card or qr with a tenderReference."),
  tenderReference: Joi.string()
    .trim()
    .max(100)
    .allow(null)
    .default(null)
    .description("The card terminal's or the QR payment's reference, for card and qr."),
  pin: pin(),
  codCollectedDzd: moneyDzd()
    .allow(null)
    .default(null)
    .description("The cash taken from the recipient, in DZD: exactly the parcel's COD amount (required for a COD parcel).")
});

export interface RefusalParams {
  trackingNumber: string;
  reason: string;
  occurredAt: string | null;
}
export const RefusalSchema = Joi.object<RefusalParams, true>({
  trackingNumber: trackingNumber().required(),
  occurredAt: occurredAtKey(),
  reason: Joi.string()
    .trim()
    .min(1)
    .max(500)
    .required()
    .description("Why the recipient refused the parcel, at most 500 characters; sent to the merchant in the webhook.")
    .example("Colis endommagé, refusé par le destinataire")
});

export interface CloseTillParams {
  countedDzd: number | null;
  denominations: Denominations | null;
}
export const CloseTillSchema = Joi.object<CloseTillParams, true>({
  countedDzd: moneyDzd()
    .allow(null)
    .default(null)
    .description("The cash counted in the till, in DZD. Required without denominations; with them, their sum (or left out)."),
  denominations: denominationsSchema()
    .allow(null)
    .default(null)
    .description(
      "The count by denomination, optional: how many of each note or coin, by face value in DZD " +
        `(${DENOMINATIONS_DZD.join(", ")}). The closing's count is their sum; a sum that is not the till's cash is ` +
        "recorded as a cash difference (stage CLOSING), never refused."
    )
});

export interface DispatchParams {
  trackingNumbers: string[];
}
export const DispatchSchema = Joi.object<DispatchParams, true>({
  trackingNumbers: Joi.array()
    .items(trackingNumber())
    .min(1)
    .max(100)
    .required()
    .description("The returns handed to the courier, 1 to 100.")
});

export interface ClosingsParams {
  code: string;
  page: number;
  size: number;
}
export const ClosingsSchema = Joi.object<ClosingsParams, true>({
  code: relayCode().required().description("The relay point's code.").example("DZ-16-ALGER-CENTRE"),
  ...pageKeys
}).unknown(true);

// --- the back-office relay-point body ------------------------------------------------------------

export const relaySettingsKeys = () => ({
  capacity: Joi.number()
    .integer()
    .min(0)
    .max(100_000)
    .default(150)
    .description("Parcels the shelf holds; an arrival beyond it is refused (409 RELAY_FULL). 150 when omitted."),
  holdingDays: Joi.number()
    .integer()
    .min(1)
    .max(60)
    .allow(null)
    .default(null)
    .description("Days a parcel waits on the shelf before it goes back; null or omitted: the platform's HOLDING_DAYS (7).")
});

export const RELAY_SETTINGS_FIELDS: Record<"capacity" | "holdingDays", JsonSchema> = {
  capacity: { type: "integer", minimum: 0, description: "Parcels the shelf holds." },
  holdingDays: { type: "integer", minimum: 1, description: "Days a parcel waits on the shelf before it goes back to its sender." }
};

// --- answers ------------------------------------------------------------------------------------

export interface CounterView {
  relayCode: string;
  name: string;
  nameAr: string | null;
  /** Two digits, and its names, so the counter shows where the point is now (its code may still carry an older number). */
  wilaya: string | null;
  wilayaName: string | null;
  wilayaNameAr: string | null;
  capacity: number;
  onShelf: number;
  holdingDays: number;
  pickupPassKey: string | null;
}

export const CounterViewSchema = component(
  "RelayCounter",
  objectOf<CounterView>({
    relayCode: { type: "string", examples: ["DZ-16-ALGER-CENTRE"] },
    name: { type: "string" },
    nameAr: {
      type: ["string", "null"],
      description: "Its name in Arabic script, which the counter app shows in Arabic; null when unknown."
    },
    wilaya: {
      type: ["string", "null"],
      pattern: "^[0-9]{2}$",
      description: "The point's wilaya, 01 to 69 (a point of the wilayas of 2026 keeps a code with its former number).",
      examples: ["68"]
    },
    wilayaName: { type: ["string", "null"], examples: ["Bou Saâda"] },
    wilayaNameAr: { type: ["string", "null"], examples: ["بوسعادة"] },
    capacity: RELAY_SETTINGS_FIELDS.capacity,
    onShelf: { type: "integer", minimum: 0, description: "Parcels on the shelf now: arrived, not handed over, returns not yet gone." },
    holdingDays: RELAY_SETTINGS_FIELDS.holdingDays,
    pickupPassKey: nullable({
      type: "string",
      format: "byte",
      description:
        "The Ed25519 public key (32 bytes, base64) that verifies recipients' pickup passes offline (WebCrypto's raw import); " +
        "null when the server signs none."
    })
  })
);

export interface RelayParcelView {
  trackingNumber: string;
  status: ParcelStatus;
  weightG: number;
  arrivedAt: string | null;
  pickupDeadline: string | null;
  codToCollectDzd: number | null;
  recipientHint: string;
  passVersion: number;
}

export const RelayParcelViewSchema = component(
  "RelayParcel",
  objectOf<RelayParcelView>(
    {
      trackingNumber: { type: "string", pattern: TRACKING_NUMBER_PATTERN },
      status: { type: "string", enum: [...PARCEL_STATUSES] },
      weightG: { type: "integer", minimum: 1 },
      arrivedAt: nullable(dateTime("When the parcel reached this shelf, UTC; null while it is coming.")),
      pickupDeadline: nullable(dateTime("The recipient collects it before this time, UTC; null until it arrives.")),
      codToCollectDzd: nullable(amountDzd("The cash to take at hand-over; null when there is none (left to collect).")),
      recipientHint: {
        type: "string",
        description: "Enough to find the parcel on the shelf and no more: the initial of the name and the phone's last two digits.",
        examples: ["A. ••56"]
      },
      passVersion: {
        type: "integer",
        minimum: 1,
        description:
          "The version of the parcel's current pickup pass: a pass of another version (shown before a new PIN or a redirect) is void."
      }
    },
    { description: "A parcel as the counter sees it: no organisation, price, full name or phone." }
  )
);

export const RelayParcelPageSchema = pageSchema(
  "RelayParcelPage",
  RelayParcelViewSchema,
  "The parcels of this page, oldest first.",
  "One page of this relay point's parcels."
);

export interface TillView {
  openSince: string;
  count: number;
  amountDzd: number;
  byTender: { cash: number; card: number; qr: number };
  items: Array<{ trackingNumber: string; amountDzd: number; deliveredAt: string; tender: "cash" | "card" | "qr" }>;
}

export const TillViewSchema = component(
  "RelayTill",
  objectOf<TillView>({
    openSince: dateTime("The last closing (or the relay point's creation), UTC."),
    count: { type: "integer", minimum: 0 },
    amountDzd: amountDzd("The cash the till should hold (cash hand-overs only)."),
    byTender: objectOf<TillView["byTender"]>(
      { cash: amountDzd("Paid in cash."), card: amountDzd("Paid by card."), qr: amountDzd("Paid by QR.") },
      { description: "The COD taken since the last closing, by how it was paid." }
    ),
    items: {
      type: "array",
      description: "The COD hand-overs since the last closing, oldest first.",
      items: objectOf<TillView["items"][number]>({
        trackingNumber: { type: "string", pattern: TRACKING_NUMBER_PATTERN },
        amountDzd: amountDzd("Cash taken."),
        deliveredAt: dateTime("Handed over at, UTC."),
        tender: { type: "string", enum: ["cash", "card", "qr"], description: "How it was paid." }
      })
    }
  })
);

export interface ClosingView {
  id: string;
  expectedDzd: number;
  countedDzd: number;
  differenceDzd: number;
  denominations: Denominations | null;
  count: number;
  closedAt: string;
}

export const ClosingViewSchema = component(
  "RelayTillClosing",
  objectOf<ClosingView>({
    id: uuidSchema(),
    expectedDzd: amountDzd("The COD paid in cash since the previous closing (card and QR payments are closed, not counted)."),
    countedDzd: amountDzd("What the agent counted."),
    differenceDzd: amountDzd("countedDzd − expectedDzd: negative when cash is missing. Recorded as it is."),
    denominations: nullable(denominationsView("The agent's count by denomination, when it gave one.")),
    count: { type: "integer", minimum: 0, description: "Hand-overs this closing takes." },
    closedAt: dateTime("UTC.")
  })
);

export const ClosingPageSchema = pageSchema("RelayTillClosingPage", ClosingViewSchema, "Newest first.", "One page of till closings.");

export const DispatchViewSchema = component(
  "RelayReturnDispatch",
  objectOf<{ dispatched: number }>({ dispatched: { type: "integer", minimum: 1, description: "Returns that left the shelf." } })
);

export type { Page };

export const RELAY_DOCS_TAGS = [
  { name: "Counter", description: "This relay point and its parcels." },
  { name: "Shelf", description: "Parcels in, handed over, refused, and returns out." },
  { name: "Till", description: "The cash on delivery taken at the counter, and its closings." }
];
