import { Joi } from "../../../lib/joi";
import { amountDzd, arrayOf, component, dateTime, nullable, objectOf, uuidSchema } from "../../../lib/openapi/json-schema";
import type { JsonSchema } from "../../../lib/openapi/types";
import { dateTimeText, relayCode, uuid } from "../../../lib/schemas";
import { pageSchema } from "../../../lib/parcel-view";
import { PickupViewSchema, type PickupPage } from "../pickups/pickups.params";
import type { StopKind } from "./runs.store";

/** Runs (a courier's day as ordered stops) and the courier's last leg: load, arrive (issue 44 C, decision 0057). */

const runDate = () =>
  Joi.string()
    .pattern(/^\d{4}-\d{2}-\d{2}$/)
    .description("The day (YYYY-MM-DD, Africa/Algiers); today when left out.")
    .example("2026-03-12");

/** One stop of a run and what to do there, computed when the run is read. */
export interface StopView {
  position: number;
  kind: StopKind;
  /** PICKUP: the pickup's id. */
  pickupId: string | null;
  confirmationNumber: string | null;
  /** PICKUP: the merchant's address (a shop's, not a person's). */
  address: { line1: string; city: string; wilaya: string } | null;
  readyAt: string | null;
  closeAt: string | null;
  /** HUB: the hub. */
  hubId: string | null;
  hubCode: string | null;
  /** RELAY: the relay point's code. */
  relayCode: string | null;
  /** PICKUP: parcels to collect; HUB: parcels to hand in; RELAY: parcels to deliver. */
  parcelCount: number;
  /** HUB: parcels to load for the run's relay points; RELAY: returns waiting to be collected. */
  otherCount: number;
  /** RELAY: the tracking numbers to deliver and the returns to collect. */
  deliver: string[];
  collectReturns: string[];
  /** HUB: the tracking numbers to hand in (what the courier still holds from merchants and relay points; the hub's scans take them off). */
  handIn: string[];
  /** RELAY: the till's cash closed and not yet collected there, in DZD (0 when none, and at other stops). */
  cashToCollect: number;
  /** RELAY: that cash by denomination ({"2000": 3}); null when none, or when a closing was counted as a total only. */
  cashByDenomination: Record<string, number> | null;
  /** What to do, one line (French, as the hub's sort answer). */
  instruction: string;
}

export interface RunView {
  id: string | null;
  date: string;
  courierId: string;
  hubId: string;
  /** false: computed from the day's pickups and the hub's sorted parcels; true: kept (an operator looked at or adjusted it). */
  kept: boolean;
  stops: StopView[];
}

export const StopViewSchema = component(
  "RunStop",
  objectOf<StopView>({
    position: { type: "integer", minimum: 0 },
    kind: { type: "string", enum: ["PICKUP", "HUB", "RELAY"] },
    pickupId: nullable(uuidSchema()),
    confirmationNumber: nullable({ type: "string" }),
    address: nullable(
      objectOf<{ line1: string; city: string; wilaya: string }>({
        line1: { type: "string" },
        city: { type: "string" },
        wilaya: { type: "string" }
      })
    ),
    readyAt: nullable(dateTime("PICKUP: the window's start.")),
    closeAt: nullable(dateTime("PICKUP: the window's end.")),
    hubId: nullable(uuidSchema()),
    hubCode: nullable({ type: "string" }),
    relayCode: nullable({ type: "string" }),
    parcelCount: { type: "integer", minimum: 0, description: "PICKUP: to collect; HUB: to hand in; RELAY: to deliver." },
    otherCount: { type: "integer", minimum: 0, description: "HUB: to load for the run's relay points; RELAY: returns to collect." },
    deliver: arrayOf({ type: "string" }, "RELAY: the tracking numbers to deliver."),
    collectReturns: arrayOf({ type: "string" }, "RELAY: the returns waiting there (tracking numbers)."),
    handIn: arrayOf(
      { type: "string" },
      "HUB: the tracking numbers to hand in (parcelCount of them): what the courier holds from merchants and relay points, until the hub scans each in."
    ),
    cashToCollect: amountDzd(
      "RELAY: the till's cash closed and not yet collected there (what the agents counted at closing), in DZD; 0 when none, " +
        "and at PICKUP and HUB stops. Collect it with POST /relays/{code}/cash-collections."
    ),
    cashByDenomination: nullable({
      type: "object",
      description:
        'RELAY: that cash by face value in DZD (how many of each note or coin, e.g. {"2000": 3, "500": 1}); null when ' +
        "there is none, or when a closing was counted as a total only.",
      additionalProperties: { type: "integer", minimum: 0 }
    }),
    instruction: { type: "string", description: 'One line: "Collecter 3 colis — 12 rue Didouche Mourad, Alger Centre (PU-…)".' }
  })
);

export const RunViewSchema: JsonSchema = component(
  "Run",
  objectOf<RunView>({
    id: nullable(uuidSchema("Null until the run is kept (an operator read or adjusted it).")),
    date: { type: "string", format: "date" },
    courierId: uuidSchema(),
    hubId: uuidSchema(),
    kept: { type: "boolean" },
    stops: arrayOf(StopViewSchema, "In order.")
  })
);

/** GET /run: the open pickups as before (items…), and the run's stops (additive). */
export type CourierRunAnswer = PickupPage & { run: RunView };
export const CourierRunAnswerSchema: JsonSchema = pageSchema(
  "CourierRun",
  PickupViewSchema,
  "The open pickups in the wilaya of the courier's hub, earliest window first (as before runs existed).",
  "Today's pickups, and the run: every stop in order and what to do there.",
  { run: RunViewSchema }
);

export interface CourierRunParams {
  date?: string;
}
export const CourierRunSchema = Joi.object<CourierRunParams, true>({ date: runDate() });

export interface RunQueryParams {
  date?: string;
  courierId: string;
}
export const RunQuerySchema = Joi.object<RunQueryParams, true>({
  date: runDate(),
  courierId: uuid().required().description("The courier.")
});

export interface RunStopsParams {
  id: string;
  courierId?: string;
  stops: Array<{ kind: StopKind; ref: string }>;
}
export const RunStopsSchema = Joi.object<RunStopsParams, true>({
  id: uuid().required().description("Run id (uuid)."),
  courierId: uuid().description("Give the run to this courier (of any hub: the run's hub becomes the courier's)."),
  stops: Joi.array()
    .items(
      Joi.object({
        kind: Joi.string().valid("PICKUP", "HUB", "RELAY").required(),
        ref: Joi.string().max(60).required().description("PICKUP: the pickup's id; HUB: the hub's id; RELAY: the relay point's code.")
      })
    )
    .max(100)
    .required()
    .description("Every stop, in the new order: leave one out to remove it, add one to add it.")
});

export interface RelayScanParams {
  code: string;
  trackingNumber: string;
  occurredAt?: string;
}
const occurredAt = () =>
  dateTimeText()
    .description("When it happened on the device (sent later when offline); now when left out.")
    .example("2026-03-12T10:15:00+01:00");
export const RelayScanSchema = Joi.object<RelayScanParams, true>({
  code: relayCode().required().description("The relay point's code."),
  trackingNumber: Joi.string()
    .pattern(/^[A-Z]{2}[0-9]{9}[A-Z]{2}$/)
    .required()
    .description("The label's tracking number, as scanned.")
    .example("RP123456785DZ"),
  occurredAt: occurredAt()
});

export interface ArriveParams {
  code: string;
  pass: string;
  occurredAt?: string;
}
export const ArriveSchema = Joi.object<ArriveParams, true>({
  code: relayCode().required().description("The relay point's code."),
  pass: Joi.string()
    .max(120)
    .required()
    .description("The courier pass the counter app shows (its QR), as scanned.")
    .example("RC1.DZ-16-ALGER-CENTRE.1773310500.0F3A…"),
  occurredAt: occurredAt()
});

export interface ArrivalView {
  visitId: string;
  relayCode: string;
  arrivedAt: string;
  /** Parcels this courier holds for the relay point: hand them over, the agent scans each in. */
  deliver: string[];
  /** Returns waiting there: the agent hands them over (return dispatch), the courier scans them. */
  collectReturns: string[];
}
export const ArrivalViewSchema = component(
  "CourierRelayArrival",
  objectOf<ArrivalView>({
    visitId: uuidSchema(),
    relayCode: { type: "string" },
    arrivedAt: dateTime("When the courier arrived."),
    deliver: arrayOf({ type: "string" }, "Tracking numbers this courier holds for the relay point."),
    collectReturns: arrayOf({ type: "string" }, "Returns waiting there for the courier.")
  })
);

export interface RelayArrivalNotice {
  parcelId: string;
  relayCode: string;
  occurredAt: string;
}
export const RelayArrivalNoticeSchema = Joi.object<RelayArrivalNotice, true>({
  parcelId: uuid().required(),
  relayCode: Joi.string().max(40).required(),
  occurredAt: dateTimeText().required()
});
