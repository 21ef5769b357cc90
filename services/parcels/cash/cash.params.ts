import { Joi } from "../../../lib/joi";
import type { KeyMode } from "../../../lib/api-keys";
import { toDzd } from "../../../lib/money";
import { occurredAtKey } from "../../../lib/occurred-at";
import { amountDzd, arrayOf, component, dateTime, nullable, objectOf, uuidSchema } from "../../../lib/openapi/json-schema";
import { Page, pageSchema, TRACKING_NUMBER_PATTERN } from "../../../lib/parcel-view";
import { relayCode, uuid } from "../../../lib/schemas";
import { calendarDate } from "../calendar-date";
import { pageKeys } from "../relay/relay.params";
import type * as store from "./cash.store";
import { Denominations, denominationsSchema, denominationsView } from "./denominations";
import type { Proposal } from "./remittance-proposals";

/** Params and answers of the cash custody endpoints (issue 45 B), each interface beside its schema. */

const counted = () => denominationsSchema().required();

export interface CollectParams {
  code: string;
  denominations: Denominations;
  closingIds: string[] | null;
  occurredAt: string | null;
}
export const CollectSchema = Joi.object<CollectParams, true>({
  code: relayCode().required(),
  denominations: counted(),
  closingIds: Joi.array()
    .items(uuid())
    .min(1)
    .max(100)
    .unique()
    .allow(null)
    .default(null)
    .description("The closings taken (GET /cash/uncollected of the relay API lists them); left out: every one not taken yet."),
  occurredAt: occurredAtKey()
});

export interface DepositParams {
  denominations: Denominations;
  occurredAt: string | null;
}
export const DepositSchema = Joi.object<DepositParams, true>({ denominations: counted(), occurredAt: occurredAtKey() });

export interface ConfirmParams {
  id: string;
  denominations: Denominations;
}
export const ConfirmSchema = Joi.object<ConfirmParams, true>({ id: uuid().required(), denominations: counted() });

export interface HandOffIdParams {
  id: string;
}
export const HandOffIdSchema = Joi.object<HandOffIdParams, true>({ id: uuid().required() });

/** A page of a list: the back-office's differences, the hub's deposits waiting. */
export interface CashPageParams {
  page: number;
  size: number;
}
export const CashPageSchema = Joi.object<CashPageParams, true>(pageKeys);

export interface ProposalsParams {
  organizationId: string;
}
export const ProposalsSchema = Joi.object<ProposalsParams, true>({ organizationId: uuid().required() });

export interface ApproveParams {
  organizationId: string;
  proposalId: string;
  reference: string;
  paidOn: string | null;
}
export const ApproveSchema = Joi.object<ApproveParams, true>({
  organizationId: uuid().required(),
  proposalId: uuid().required(),
  reference: Joi.string()
    .trim()
    .min(1)
    .max(100)
    .required()
    .description("The payout's reference (bank transfer, cash receipt).")
    .example("VIR-2026-03-0042"),
  paidOn: calendarDate().allow(null).default(null).description("The payout's date (YYYY-MM-DD); today in Algiers when left out.")
});

// Answers.

export interface CountView {
  by: "courier" | "agent" | "hub";
  keyId: string;
  countedDzd: number;
  denominations: Denominations;
}
const CountViewSchema = component(
  "CashCount",
  objectOf<CountView>({
    by: { type: "string", enum: ["courier", "agent", "hub"], description: "Who counted." },
    keyId: uuidSchema("The key (device) that sent the count."),
    countedDzd: amountDzd("What the count adds up to."),
    denominations: denominationsView("The count.")
  })
);

export interface CollectionView {
  id: string;
  relayCode: string;
  courierId: string;
  closingIds: string[];
  expectedDzd: number;
  previousCountDzd: number;
  counts: CountView[];
  status: "AT_COUNTER" | "COLLECTED" | "DEPOSITED" | "CANCELLED";
  occurredAt: string;
  confirmedAt: string | null;
}
export const CollectionViewSchema = component(
  "CashCollection",
  objectOf<CollectionView>({
    id: uuidSchema(),
    relayCode: { type: "string" },
    courierId: uuidSchema("The courier."),
    closingIds: arrayOf(uuidSchema(), "The till closings taken."),
    expectedDzd: amountDzd("The books: the cash hand-overs of those closings, what the merchants are owed."),
    previousCountDzd: amountDzd("What the agent counted at those closings."),
    counts: arrayOf(CountViewSchema, "The courier's count, then the agent's once confirmed."),
    status: {
      type: "string",
      enum: ["AT_COUNTER", "COLLECTED", "DEPOSITED", "CANCELLED"],
      description:
        "AT_COUNTER until the agent confirms; COLLECTED: with the courier; DEPOSITED: handed in at the hub; CANCELLED: the agent " +
        "cancelled it, its closings wait for the next courier (closingIds then empty)."
    },
    occurredAt: dateTime("When the courier counted."),
    confirmedAt: nullable(dateTime("When the agent confirmed."))
  })
);

export function toCollectionView(c: store.CollectionRecord): CollectionView {
  const counts: CountView[] = [
    { by: "courier", keyId: c.courierKeyId, countedDzd: toDzd(c.courierCountedCentimes), denominations: c.courierDenominations }
  ];
  if (c.agentCountedCentimes !== null && c.agentKeyId !== null) {
    counts.push({ by: "agent", keyId: c.agentKeyId, countedDzd: toDzd(c.agentCountedCentimes), denominations: c.agentDenominations ?? {} });
  }
  return {
    id: c.id,
    relayCode: c.relayCode,
    courierId: c.courierId,
    closingIds: c.closingIds,
    expectedDzd: toDzd(c.expectedCentimes),
    previousCountDzd: toDzd(c.previousCountCentimes),
    counts,
    status: c.cancelledAt !== null ? "CANCELLED" : c.confirmedAt === null ? "AT_COUNTER" : c.depositId === null ? "COLLECTED" : "DEPOSITED",
    occurredAt: c.occurredAt.toISOString(),
    confirmedAt: c.confirmedAt?.toISOString() ?? null
  };
}

export interface UncollectedClosingView {
  id: string;
  expectedDzd: number;
  countedDzd: number;
  closedAt: string;
  denominations: Denominations | null;
  pendingCollectionId: string | null;
}
export interface UncollectedView {
  countedDzd: number;
  expectedDzd: number;
  denominations: Denominations | null;
  closings: UncollectedClosingView[];
  pendingCollections: CollectionView[];
}
export const UncollectedViewSchema = component(
  "RelayUncollectedCash",
  objectOf<UncollectedView>({
    countedDzd: amountDzd("The cash closed and not yet collected, as the agent counted it at the closings."),
    expectedDzd: amountDzd("The same closings' books."),
    denominations: nullable(
      denominationsView("The closings' counts added up, when every one of them was counted by denomination; else null.")
    ),
    closings: arrayOf(
      component(
        "RelayUncollectedClosing",
        objectOf<UncollectedClosingView>({
          id: uuidSchema(),
          expectedDzd: amountDzd("The closing's books."),
          countedDzd: amountDzd("What the agent counted at the closing."),
          closedAt: dateTime("UTC."),
          denominations: nullable(denominationsView("The agent's count at the closing, when it gave one.")),
          pendingCollectionId: nullable(uuidSchema("A courier's collection of it waiting for the agent's confirmation."))
        })
      ),
      "Oldest first."
    ),
    pendingCollections: arrayOf(CollectionViewSchema, "Collections a courier recorded here, to confirm with the agent's own count.")
  })
);

export interface DepositView {
  id: string;
  hubId: string;
  courierId: string;
  collectionIds: string[];
  expectedDzd: number;
  previousCountDzd: number;
  counts: CountView[];
  status: "ABOARD" | "DEPOSITED";
  occurredAt: string;
  confirmedAt: string | null;
}
export const DepositViewSchema = component(
  "CashDeposit",
  objectOf<DepositView>({
    id: uuidSchema(),
    hubId: uuidSchema("The hub."),
    courierId: uuidSchema("The courier."),
    collectionIds: arrayOf(uuidSchema(), "The collections handed in."),
    expectedDzd: amountDzd("The books: the collections' cash hand-overs."),
    previousCountDzd: amountDzd("What the courier counted at those collections."),
    counts: arrayOf(CountViewSchema, "The courier's count, then the hub's once confirmed."),
    status: { type: "string", enum: ["ABOARD", "DEPOSITED"], description: "ABOARD until the hub confirms." },
    occurredAt: dateTime("When the courier counted."),
    confirmedAt: nullable(dateTime("When the hub confirmed."))
  })
);

export const PendingDepositPageSchema = pageSchema(
  "PendingCashDepositPage",
  DepositViewSchema,
  "Deposits ABOARD (not yet confirmed by this hub), the courier's declared time (occurredAt) newest first.",
  "One page of the deposits waiting for the hub's count."
);

export function toDepositView(d: store.DepositRecord): DepositView {
  const counts: CountView[] = [
    { by: "courier", keyId: d.courierKeyId, countedDzd: toDzd(d.courierCountedCentimes), denominations: d.courierDenominations }
  ];
  if (d.hubCountedCentimes !== null && d.hubKeyId !== null) {
    counts.push({ by: "hub", keyId: d.hubKeyId, countedDzd: toDzd(d.hubCountedCentimes), denominations: d.hubDenominations ?? {} });
  }
  return {
    id: d.id,
    hubId: d.hubId,
    courierId: d.courierId,
    collectionIds: d.collectionIds,
    expectedDzd: toDzd(d.expectedCentimes),
    previousCountDzd: toDzd(d.previousCountCentimes),
    counts,
    status: d.confirmedAt === null ? "ABOARD" : "DEPOSITED",
    occurredAt: d.occurredAt.toISOString(),
    confirmedAt: d.confirmedAt?.toISOString() ?? null
  };
}

export interface AboardView {
  aboardDzd: number;
}
export const AboardViewSchema = component(
  "CourierCashAboard",
  objectOf<AboardView>({ aboardDzd: amountDzd("Cash collected (the agents confirmed) and not yet confirmed by the hub.") })
);

export interface DifferenceView {
  id: string;
  stage: store.DifferenceStage;
  handOffId: string;
  relayCode: string | null;
  hubId: string | null;
  courierId: string | null;
  expectedDzd: number;
  previousCountDzd: number;
  counts: CountView[];
  recordedAt: string;
}
export const DifferenceViewSchema = component(
  "CashDifference",
  objectOf<DifferenceView>({
    id: uuidSchema(),
    stage: {
      type: "string",
      enum: ["CLOSING", "COLLECTION", "DEPOSIT"],
      description:
        "At a till's closing counted by denomination (the agent alone), at a relay point (courier and agent) or at a hub " +
        "(courier and hub)."
    },
    handOffId: uuidSchema("The closing, collection or deposit."),
    relayCode: nullable({ type: "string", description: "The relay point of a CLOSING or a COLLECTION." }),
    hubId: nullable(uuidSchema("The courier's hub; null for a CLOSING.")),
    courierId: nullable(uuidSchema("The courier; null for a CLOSING.")),
    expectedDzd: amountDzd("The books."),
    previousCountDzd: amountDzd("What the previous count found (for a CLOSING: the books, nothing was counted before)."),
    counts: arrayOf(CountViewSchema, "Who counted what."),
    recordedAt: dateTime("UTC.")
  })
);
export const DifferencePageViewSchema = pageSchema(
  "CashDifferencePage",
  DifferenceViewSchema,
  "Newest first.",
  "One page of cash differences."
);

export function toDifferenceView(d: store.DifferenceRecord): DifferenceView {
  return {
    id: d.id,
    stage: d.stage,
    handOffId: d.handOffId,
    relayCode: d.relayCode,
    hubId: d.hubId,
    courierId: d.courierId,
    expectedDzd: toDzd(d.expectedCentimes),
    previousCountDzd: toDzd(d.previousCountCentimes),
    counts: d.counts.map(c => ({ by: c.by, keyId: c.keyId, countedDzd: toDzd(c.centimes), denominations: c.denominations })),
    recordedAt: d.recordedAt instanceof Date ? d.recordedAt.toISOString() : new Date(d.recordedAt).toISOString()
  };
}

export interface ProposalView {
  id: string;
  mode: KeyMode;
  depositId: string;
  hubId: string;
  depositedAt: string;
  parcelCount: number;
  totalDzd: number;
  parcels: { parcelId: string; trackingNumber: string; codAmountDzd: number }[];
}
export const ProposalListSchema = component(
  "CodRemittanceProposals",
  objectOf<{ items: ProposalView[] }>({
    items: arrayOf(
      component(
        "CodRemittanceProposal",
        objectOf<ProposalView>({
          id: uuidSchema("Approve with this id."),
          mode: { type: "string", enum: ["live", "sandbox"] },
          depositId: uuidSchema("The hub deposit the cash is in."),
          hubId: uuidSchema("The hub."),
          depositedAt: dateTime("When the hub confirmed the deposit."),
          parcelCount: { type: "integer", minimum: 1 },
          totalDzd: amountDzd("The sum of the parcels' COD, computed."),
          parcels: arrayOf(
            objectOf<ProposalView["parcels"][number]>({
              parcelId: uuidSchema(),
              trackingNumber: { type: "string", pattern: TRACKING_NUMBER_PATTERN },
              codAmountDzd: amountDzd("The cash collected for it.")
            }),
            "COLLECTED parcels whose cash the hub confirmed."
          )
        })
      ),
      "Oldest deposit first."
    )
  })
);

export function toProposalView(p: Proposal): ProposalView {
  return {
    id: p.id,
    mode: p.mode,
    depositId: p.depositId,
    hubId: p.hubId,
    depositedAt: p.depositedAt.toISOString(),
    parcelCount: p.parcels.length,
    totalDzd: toDzd(p.totalCentimes),
    parcels: p.parcels.map(x => ({ parcelId: x.parcelId, trackingNumber: x.trackingNumber, codAmountDzd: toDzd(x.amountCentimes) }))
  };
}

export type { Page };
