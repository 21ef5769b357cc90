import { HOLDER_KINDS, HolderKind } from "../../../lib/custody";
import { Joi } from "../../../lib/joi";
import { component, dateTime, nullable, objectOf, uuidSchema } from "../../../lib/openapi/json-schema";
import { ParcelStatusSchema, pageSchema, TRACKING_NUMBER_PATTERN } from "../../../lib/parcel-view";
import { dateTimeText, uuid } from "../../../lib/schemas";
import { pageKeys } from "../relay/relay.params";
import type { LossPassResult } from "./loss-pass";

/** Custody and investigations (issue 44 D): what logistics tells parcels, the loss pass, and the back-office queue. */

export interface RecordCustodyParams {
  parcelId: string;
  holder: HolderKind;
  /** When the hand-off happened (the scan's occurredAt). */
  since: string;
  name?: string | null;
  wilaya?: string | null;
}
export const RecordCustodySchema = Joi.object<RecordCustodyParams, true>({
  parcelId: uuid().required(),
  holder: Joi.string()
    .valid(...HOLDER_KINDS)
    .required(),
  since: dateTimeText().required(),
  name: Joi.string().max(60).allow(null),
  wilaya: Joi.string()
    .pattern(/^[0-9]{2}$/)
    .allow(null)
});

export interface RunLossPassParams {
  /** The pass's clock (ISO date-time); now when not given. Tests move it forward instead of waiting. */
  now?: string;
}
export const RunLossPassSchema = Joi.object<RunLossPassParams, true>({ now: dateTimeText() });
export type { LossPassResult };

export interface InvestigationPageParams {
  page: number;
  size: number;
}
export const InvestigationPageSchema = Joi.object<InvestigationPageParams, true>(pageKeys).unknown(true);

export interface InvestigationView {
  id: string;
  parcelId: string;
  trackingNumber: string;
  status: string;
  reason: "NO_SCAN" | "HANDOVER_DISPUTED";
  lastHolder: { holder: string; name: string | null; since: string } | null;
  disputeId: string | null;
  openedAt: string;
  /** null while open. */
  closedAt: string | null;
  outcome: "FOUND" | "LOST" | "DISMISSED" | null;
}

export interface InvestigationIdParams {
  id: string;
}
export const InvestigationIdSchema = Joi.object<InvestigationIdParams, true>({ id: uuid().required() }).unknown(true);

/** One investigation, as the queue lists it and POST /investigations/{id}/close answers it. */
export const InvestigationViewSchema = component(
  "Investigation",
  objectOf<InvestigationView>({
    id: uuidSchema(),
    parcelId: uuidSchema(),
    trackingNumber: { type: "string", pattern: TRACKING_NUMBER_PATTERN },
    status: ParcelStatusSchema,
    reason: {
      type: "string",
      enum: ["NO_SCAN", "HANDOVER_DISPUTED"],
      description: "NO_SCAN: silent too long in a courier's or a hub's hands; HANDOVER_DISPUTED: the recipient's \"not me\"."
    },
    lastHolder: nullable(
      objectOf<NonNullable<InvestigationView["lastHolder"]>>(
        {
          holder: { type: "string", enum: [...HOLDER_KINDS] },
          name: { type: ["string", "null"], description: "The courier's first name, the hub's or relay point's code." },
          since: dateTime("Since when it held the parcel: its last scan, UTC.")
        },
        { description: "Who held the parcel last (GET /parcels/{id}/custody has the whole trail); null when unknown." }
      )
    ),
    disputeId: nullable(uuidSchema("The hand-over dispute (GET /handover-disputes), for HANDOVER_DISPUTED.")),
    openedAt: dateTime("When the investigation opened, UTC."),
    closedAt: { type: ["string", "null"], format: "date-time", description: "When it closed, UTC; null while open." },
    outcome: {
      type: ["string", "null"],
      enum: ["FOUND", "LOST", "DISMISSED", null],
      description: "null while open; FOUND (a scan), LOST (past LOSS_LOST_DAYS), DISMISSED (arrived otherwise, or closed by an operator)."
    }
  })
);

export const InvestigationPageViewSchema = pageSchema(
  "InvestigationPage",
  InvestigationViewSchema,
  "Oldest first.",
  "Open investigations: parcels the network is looking for."
);
