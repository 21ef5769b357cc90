import { amountDzd, arrayOf, component, dateTime, nullable, objectOf, uuidSchema } from "./openapi/json-schema";
import { ParcelStatusSchema, TRACKING_NUMBER_PATTERN } from "./parcel-view";
import type { ParcelStatus } from "./parcel-status";

/**
 * A claim as the API shows it (issue 22): the partner API and the back-office answer it, and the
 * claim.* webhooks carry it in `data.claim`; so it is shared by parcels and webhooks.
 */

export const CLAIM_TYPES = ["LOST", "DAMAGED", "MISSING_CONTENT"] as const;
export type ClaimType = (typeof CLAIM_TYPES)[number];

export const CLAIM_STATUSES = ["OPEN", "APPROVED", "REJECTED"] as const;
export type ClaimStatus = (typeof CLAIM_STATUSES)[number];

/** Who moved a parcel, as its events API says (services/parcels/parcel-events.ts). */
export type MovedBy = "merchant" | "operator" | "sandbox" | "system";

export interface EvidenceMove {
  status: ParcelStatus;
  previousStatus: ParcelStatus | null;
  occurredAt: string;
  reason: string | null;
  by: MovedBy;
  /** The relay point where it happened (arrival, hand-over, refusal at the counter); null elsewhere. */
  relayCode: string | null;
}

/** What the network holds about a parcel, taken when the claim is opened: the merchant supplies none of it. */
export interface ClaimEvidence {
  statusHistory: EvidenceMove[];
  /** The last time a courier or relay point handled the parcel, and how many hours before the claim. */
  lastScan: { status: ParcelStatus; occurredAt: string; ageHours: number; relayCode: string | null } | null;
  refusal: { reason: string | null; occurredAt: string; relayCode: string } | null;
  handover: { occurredAt: string; relayCode: string; codCollectedDzd: number | null } | null;
  declaredValueDzd: number | null;
  /** What the insurance covers: the declared value (or the free allowance), at most the claim cap; the claim's maxCompensationDzd. */
  insuredValueDzd: number;
  insurancePaidDzd: number;
  pricePaidDzd: number;
  /**
   * Issue 44 D: the custody trail (both sides of every hand-off) when the network opened the claim
   * itself for a parcel lost in its hands; absent on the claims a merchant opens.
   */
  custodyTrail?: CustodyHandoff[];
}

/** One hand-off of the custody trail, as a claim's evidence shows it: kinds and codes, no person's name. */
export interface CustodyHandoff {
  holder: string;
  givenBy: string | null;
  since: string;
  confirmedBy: string | null;
  scan: string;
}

export interface ClaimView {
  id: string;
  parcelId: string;
  trackingNumber: string;
  type: ClaimType;
  status: ClaimStatus;
  description: string;
  amountClaimedDzd: number;
  maxCompensationDzd: number;
  evidence: ClaimEvidence;
  createdAt: string;
  decidedAt: string | null;
  compensationDzd: number | null;
  note: string | null;
  /** What the wallet was credited: the compensation plus the shipping price; null until it acknowledged. */
  paidDzd: number | null;
}

const MOVED_BY = ["merchant", "operator", "sandbox", "system"] as const satisfies readonly MovedBy[];
const STATUS_OR_NULL = nullable(ParcelStatusSchema);

const EvidenceSchema = component(
  "ClaimEvidence",
  objectOf<ClaimEvidence>(
    {
      statusHistory: arrayOf(
        objectOf<EvidenceMove>({
          status: ParcelStatusSchema,
          previousStatus: STATUS_OR_NULL,
          occurredAt: dateTime("When, UTC."),
          reason: { type: ["string", "null"], description: "The note given with the change (a refusal's reason, an operator's note)." },
          by: {
            type: "string",
            enum: [...MOVED_BY],
            description: "Who moved it: you, an operator (courier, relay point), the sandbox or the platform."
          },
          relayCode: { type: ["string", "null"], description: "The relay point where it happened; null on the road." }
        }),
        "Every status the parcel went through, oldest first."
      ),
      lastScan: nullable(
        objectOf<NonNullable<ClaimEvidence["lastScan"]>>(
          {
            status: ParcelStatusSchema,
            occurredAt: dateTime("When, UTC."),
            ageHours: { type: "integer", minimum: 0, description: "Whole hours between that scan and the claim." },
            relayCode: { type: ["string", "null"] }
          },
          { description: "The last move made by a courier or a relay point; null if none ever handled it." }
        )
      ),
      refusal: nullable(
        objectOf<NonNullable<ClaimEvidence["refusal"]>>(
          { reason: { type: ["string", "null"] }, occurredAt: dateTime("When, UTC."), relayCode: { type: "string" } },
          { description: "The recipient's refusal at the relay point's counter, with the reason the agent recorded; null if none." }
        )
      ),
      handover: nullable(
        objectOf<NonNullable<ClaimEvidence["handover"]>>(
          {
            occurredAt: dateTime("When, UTC."),
            relayCode: { type: "string" },
            codCollectedDzd: { type: ["number", "null"], description: "The cash the agent took at the counter; null for none." }
          },
          { description: "The relay agent's hand-over record (DELIVERED); null if it was never handed over." }
        )
      ),
      declaredValueDzd: { type: ["number", "null"], description: "The value declared at creation; null if none was." },
      insuredValueDzd: amountDzd(
        "The value the insurance covers: the declared value (the free allowance when none was), at most the claim cap. The " +
          "claim's maxCompensationDzd."
      ),
      insurancePaidDzd: amountDzd("The insurance part of the price paid (on the insured value above the free allowance)."),
      pricePaidDzd: amountDzd("The price paid for the parcel (given back with an approved claim)."),
      custodyTrail: arrayOf(
        objectOf<CustodyHandoff>({
          holder: { type: "string", description: "Who took the parcel: merchant, courier, hub, relay or recipient." },
          givenBy: { type: ["string", "null"], description: "Who handed it over (the giver's side); null for the first." },
          since: dateTime("When, UTC."),
          confirmedBy: { type: ["string", "null"], description: "The scan that confirmed the hand-off (a hub's station, say)." },
          scan: { type: "string", description: "What recorded it: pickup.collected, hub.in, hub.out…" }
        }),
        "Only on a LOST claim the network opened itself: every hand-off, oldest first, the last one being where the parcel was lost."
      )
    },
    { description: "Filled in by the network when the claim is opened, from its own records.", optional: ["custodyTrail"] }
  )
);

export const ClaimViewSchema = component(
  "Claim",
  objectOf<ClaimView>({
    id: uuidSchema("Claim id."),
    parcelId: uuidSchema("The parcel claimed for."),
    trackingNumber: { type: "string", pattern: TRACKING_NUMBER_PATTERN },
    type: { type: "string", enum: [...CLAIM_TYPES], description: "LOST, DAMAGED or MISSING_CONTENT." },
    status: { type: "string", enum: [...CLAIM_STATUSES], description: "OPEN until an operator decides: APPROVED or REJECTED." },
    description: { type: "string", description: "What you wrote." },
    amountClaimedDzd: amountDzd("What you asked for."),
    maxCompensationDzd: amountDzd("The most this claim can pay: the declared value (or the free allowance), capped."),
    evidence: EvidenceSchema,
    createdAt: dateTime("When the claim was opened, UTC."),
    decidedAt: { type: ["string", "null"], format: "date-time", description: "When it was decided, UTC; null while OPEN." },
    compensationDzd: { type: ["number", "null"], description: "The compensation granted (APPROVED); null otherwise. In DZD." },
    note: { type: ["string", "null"], description: "The operator's note with the decision; null while OPEN." },
    paidDzd: {
      type: ["number", "null"],
      description: "Credited to your wallet (a CLAIM_COMPENSATION movement): the compensation plus the shipping price; null until credited."
    }
  })
);
