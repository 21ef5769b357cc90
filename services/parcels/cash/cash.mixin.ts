import type { Context, Logger, ServiceSchema, ServiceSettingSchema } from "moleculer";
import { defineAction } from "../../../lib/action";
import type { Database } from "../../../lib/db/database";
import { idempotencyKeyOf, RELAY_IDEMPOTENCY_KEY_HEADER } from "../../../lib/idempotency";
import { pageOf } from "../../../lib/parcel-view";
import { requestLogger } from "../../../lib/request-context";
import { NoParams, NoParamsSchema } from "../../../lib/schemas";
import type { StaffMeta, StaffPrincipal } from "../../../lib/staff-keys";
import { toDzd } from "../../../lib/money";
import { occurredAtOf } from "../../../lib/staff-occurred-at";
import { detailOf } from "../cod.mixin";
import type { RemittanceDetail } from "../cod.params";
import { RemittanceDetailSchema } from "../cod.params";
import { IdempotentMeta, relayIdempotently } from "../relay/relay-idempotency";
import * as custody from "./cash-custody";
import { mayCollectAt } from "./courier-area";
import {
  AboardView,
  AboardViewSchema,
  ApproveParams,
  ApproveSchema,
  CollectionView,
  CollectionViewSchema,
  CollectParams,
  CollectSchema,
  ConfirmParams,
  ConfirmSchema,
  DepositParams,
  DepositSchema,
  DepositView,
  DepositViewSchema,
  CashPageParams,
  CashPageSchema,
  DifferencePageViewSchema,
  DifferenceView,
  HandOffIdParams,
  HandOffIdSchema,
  Page,
  PendingDepositPageSchema,
  ProposalListSchema,
  ProposalsParams,
  ProposalsSchema,
  ProposalView,
  toCollectionView,
  toDepositView,
  toDifferenceView,
  toProposalView,
  UncollectedView,
  UncollectedViewSchema
} from "./cash.params";
import * as store from "./cash.store";
import { sumOfCounts } from "./denominations";
import { approveProposal, proposalsOf } from "./remittance-proposals";

interface CashThis {
  db: Database;
  logger: Logger;
}

type StaffIdempotentMeta = StaffMeta & { idempotencyKey?: string };

const courierOf = (staff: StaffPrincipal): custody.CourierActor => ({ keyId: staff.keyId, courierId: staff.subjectId, hubId: staff.hubId });

/**
 * Cash on delivery from the till to the merchant (issue 45 B, decision 0063), in `parcels`, which
 * owns the tills and the remittances: the counter's uncollected cash and its confirmation (relay
 * API), the courier's collection and deposit (courier API), the hub's confirmation (hub API), the
 * differences and the proposed remittances (back-office API).
 */
const mixin: Partial<ServiceSchema<ServiceSettingSchema, object, CashThis>> = {
  actions: {
    relayUncollectedCash: defineAction<NoParams, CashThis, IdempotentMeta>({
      rest: "GET /cash/uncollected",
      api: "relay",
      schema: NoParamsSchema,
      endpoint: {
        operationId: "getRelayUncollectedCash",
        summary: "Cash closed and not yet collected",
        description:
          "The closings whose cash is still at the counter (no courier collection confirmed by the agent), by denomination " +
          "where the agent counted so at closing, with each courier collection waiting for the agent's count: the courier's " +
          "count by denomination.",
        tag: "Till",
        response: UncollectedViewSchema,
        responseDescription: "The cash waiting for a courier."
      },
      async handler(ctx): Promise<UncollectedView> {
        const closings = await custody.uncollected(this.db, ctx.meta.agent.relayCode);
        const pendingIds = [...new Set(closings.flatMap(c => (c.pendingCollectionId ? [c.pendingCollectionId] : [])))];
        const pending = (await Promise.all(pendingIds.map(id => store.findCollection(this.db, id)))).filter(c => c !== null);
        return {
          countedDzd: toDzd(closings.reduce((sum, c) => sum + c.countedCentimes, 0)),
          expectedDzd: toDzd(closings.reduce((sum, c) => sum + c.expectedCentimes, 0)),
          denominations: sumOfCounts(closings.map(c => c.denominations)),
          closings: closings.map(c => ({
            id: c.id,
            expectedDzd: toDzd(c.expectedCentimes),
            countedDzd: toDzd(c.countedCentimes),
            closedAt: c.closedAt.toISOString(),
            denominations: c.denominations,
            pendingCollectionId: c.pendingCollectionId
          })),
          pendingCollections: pending.map(toCollectionView)
        };
      }
    }),

    relayConfirmCollection: defineAction<ConfirmParams, CashThis, IdempotentMeta>({
      rest: "POST /cash/collections/:id/confirm",
      api: "relay",
      schema: ConfirmSchema,
      endpoint: {
        operationId: "confirmCashCollection",
        summary: "Confirm a courier's collection",
        description:
          "The agent's own count of the cash the courier takes: the cash leaves the counter. Counts that disagree (the courier's, " +
          "the agent's, the closings') are recorded as a cash difference with who counted what, never refused. Confirming again " +
          "keeps the first count.",
        tag: "Till",
        response: CollectionViewSchema,
        responseDescription: "The collection, confirmed.",
        errors: ["CASH_HAND_OFF_NOT_FOUND", "IDEMPOTENCY_KEY_REUSED", "IDEMPOTENCY_KEY_IN_USE", "CONFLICT"],
        parameters: [RELAY_IDEMPOTENCY_KEY_HEADER],
        body: { name: "CashCollectionConfirmation", description: "The agent's count." }
      },
      handler(ctx): Promise<CollectionView> {
        return relayIdempotently(this.db, ctx, "cash-collection-confirm", async () =>
          toCollectionView(await custody.confirmCollection(this.db, ctx.meta.agent, ctx.params.id, ctx.params.denominations))
        );
      }
    }),

    relayCancelCollection: defineAction<HandOffIdParams, CashThis, IdempotentMeta>({
      rest: "POST /cash/collections/:id/cancel",
      api: "relay",
      schema: HandOffIdSchema,
      endpoint: {
        operationId: "cancelCashCollection",
        summary: "Cancel a courier's collection",
        description:
          "The agent will not confirm it (the courier left without the cash, or took the wrong closings): its closings wait for " +
          "the next courier. A confirmed collection cannot be cancelled (409 CONFLICT: its cash has left); again: the same answer.",
        tag: "Till",
        response: CollectionViewSchema,
        responseDescription: "The collection, CANCELLED.",
        errors: ["CASH_HAND_OFF_NOT_FOUND", "CONFLICT", "IDEMPOTENCY_KEY_REUSED", "IDEMPOTENCY_KEY_IN_USE"],
        parameters: [RELAY_IDEMPOTENCY_KEY_HEADER]
      },
      handler(ctx): Promise<CollectionView> {
        return relayIdempotently(this.db, ctx, "cash-collection-cancel", async () =>
          toCollectionView(await custody.cancelCollection(this.db, ctx.meta.agent, ctx.params.id))
        );
      }
    }),

    courierCollectCash: defineAction<CollectParams, CashThis, StaffIdempotentMeta>({
      rest: "POST /relays/:code/cash-collections",
      api: "courier",
      schema: CollectSchema,
      endpoint: {
        operationId: "collectRelayCash",
        summary: "Collect a relay point's cash",
        description:
          "The courier takes the till's closed cash (the closings named, or every one not taken) with its count by denomination. " +
          "The cash stays the counter's until the agent confirms with its own count. A closing already taken, or of another " +
          "relay point, is named in details (409 CASH_NOT_COLLECTABLE) and nothing is recorded; nothing to take: 409 " +
          "NOTHING_TO_COLLECT. A relay point outside the wilaya of the courier's hub: 403 RELAY_OUTSIDE_COURIER_AREA. " +
          "Idempotency-Key: the same key records one collection, even sent concurrently.",
        tag: "Courier",
        status: 201,
        response: CollectionViewSchema,
        responseDescription: "Recorded, waiting for the agent.",
        errors: [
          "RELAY_POINT_NOT_FOUND",
          "RELAY_OUTSIDE_COURIER_AREA",
          "NOTHING_TO_COLLECT",
          "CASH_NOT_COLLECTABLE",
          "OCCURRED_AT_OUT_OF_RANGE"
        ],
        parameters: [RELAY_IDEMPOTENCY_KEY_HEADER],
        body: { name: "CashCollectionRequest", description: "The courier's count and the closings taken." }
      },
      async handler(ctx): Promise<CollectionView> {
        const courier = courierOf(ctx.meta.staff);
        await mayCollectAt(this.db, ctx, courier.hubId, ctx.params.code);
        const record = await custody.recordCollection(this.db, courier, {
          id: custody.handOffIdOf(courier.keyId, "collection", idempotencyKeyOf(ctx.meta)),
          relayCode: ctx.params.code,
          denominations: ctx.params.denominations,
          closingIds: ctx.params.closingIds,
          occurredAt: occurredAtOf(ctx.meta.staff, ctx.params.occurredAt ?? undefined)
        });
        return toCollectionView(record);
      }
    }),

    courierCashCollection: defineAction<HandOffIdParams, CashThis, StaffMeta>({
      rest: "GET /cash-collections/:id",
      api: "courier",
      schema: HandOffIdSchema,
      endpoint: {
        operationId: "getCourierCashCollection",
        summary: "A collection of this courier",
        description: "Its counts, and whether the agent confirmed (COLLECTED) and the hub took it (DEPOSITED).",
        tag: "Courier",
        response: CollectionViewSchema,
        responseDescription: "The collection.",
        errors: ["CASH_HAND_OFF_NOT_FOUND"]
      },
      async handler(ctx): Promise<CollectionView> {
        return toCollectionView(await custody.readCollectionForCourier(this.db, courierOf(ctx.meta.staff), ctx.params.id));
      }
    }),

    courierCashAboard: defineAction<NoParams, CashThis, StaffMeta>({
      rest: "GET /cash",
      api: "courier",
      schema: NoParamsSchema,
      endpoint: {
        operationId: "getCourierCashAboard",
        summary: "Cash aboard",
        description: "The cash the courier carries: collected (the agents confirmed) and not yet confirmed by the hub.",
        tag: "Courier",
        response: AboardViewSchema,
        responseDescription: "The cash aboard."
      },
      async handler(ctx): Promise<AboardView> {
        return { aboardDzd: toDzd(await store.aboardCentimes(this.db, ctx.meta.staff.subjectId)) };
      }
    }),

    courierDepositCash: defineAction<DepositParams, CashThis, StaffIdempotentMeta>({
      rest: "POST /cash-deposits",
      api: "courier",
      schema: DepositSchema,
      endpoint: {
        operationId: "depositCash",
        summary: "Hand the cash in at the hub",
        description:
          "Every collection confirmed and not yet handed in goes to the courier's hub with the courier's count by denomination. " +
          "The cash stays aboard until the hub confirms. Nothing aboard: 409 NOTHING_TO_DEPOSIT. Idempotency-Key: the same key " +
          "records one deposit, even sent concurrently.",
        tag: "Courier",
        status: 201,
        response: DepositViewSchema,
        responseDescription: "Recorded, waiting for the hub.",
        errors: ["NOTHING_TO_DEPOSIT", "OCCURRED_AT_OUT_OF_RANGE"],
        parameters: [RELAY_IDEMPOTENCY_KEY_HEADER],
        body: { name: "CashDepositRequest", description: "The courier's count." }
      },
      async handler(ctx): Promise<DepositView> {
        const courier = courierOf(ctx.meta.staff);
        const record = await custody.recordDeposit(this.db, courier, {
          id: custody.handOffIdOf(courier.keyId, "deposit", idempotencyKeyOf(ctx.meta)),
          denominations: ctx.params.denominations,
          occurredAt: occurredAtOf(ctx.meta.staff, ctx.params.occurredAt ?? undefined)
        });
        return toDepositView(record);
      }
    }),

    hubConfirmDeposit: defineAction<ConfirmParams, CashThis, StaffMeta>({
      rest: "POST /cash-deposits/:id/confirm",
      api: "hub",
      schema: ConfirmSchema,
      endpoint: {
        operationId: "confirmCashDeposit",
        summary: "Confirm a courier's cash deposit",
        description:
          "The hub's own count: the courier's cash aboard drops by the deposit. Counts that disagree are recorded as a cash " +
          "difference with who counted what, never refused. Confirming again keeps the first count. Another hub's deposit: 404.",
        tag: "Hub",
        response: DepositViewSchema,
        responseDescription: "The deposit, confirmed.",
        errors: ["CASH_HAND_OFF_NOT_FOUND"],
        parameters: [RELAY_IDEMPOTENCY_KEY_HEADER],
        body: { name: "CashDepositConfirmation", description: "The hub's count." }
      },
      async handler(ctx): Promise<DepositView> {
        const { keyId, hubId } = ctx.meta.staff;
        return toDepositView(await custody.confirmDeposit(this.db, { keyId, hubId }, ctx.params.id, ctx.params.denominations));
      }
    }),

    hubPendingDeposits: defineAction<CashPageParams, CashThis, StaffMeta>({
      rest: "GET /cash-deposits",
      api: "hub",
      schema: CashPageSchema,
      endpoint: {
        operationId: "listPendingCashDeposits",
        summary: "Cash deposits waiting for the hub",
        description:
          "The deposits couriers made at this hub and the hub has not confirmed yet (ABOARD), newest first by the courier's " +
          "declared time: each with its id (the reference to confirm with), the courier, the books and the courier's count by " +
          "denomination. Another hub's deposits are never listed.",
        tag: "Hub",
        response: PendingDepositPageSchema,
        responseDescription: "A page of deposits to count and confirm."
      },
      async handler(ctx): Promise<Page<DepositView>> {
        const { page, size } = ctx.params;
        const { records, total } = await store.pendingDepositsAt(this.db, ctx.meta.staff.hubId, page, size);
        return pageOf(records.map(toDepositView), page, size, total);
      }
    }),

    listCashDifferences: defineAction<CashPageParams, CashThis>({
      rest: "GET /cash/differences",
      api: "backoffice",
      schema: CashPageSchema,
      endpoint: {
        operationId: "listCashDifferences",
        summary: "List cash differences",
        description:
          "Every courier collection and hub deposit whose counts disagreed (with each other, or with the previous count), newest " +
          "first: the books, and who counted what, by denomination.",
        tag: "COD remittances",
        response: DifferencePageViewSchema,
        responseDescription: "A page of differences."
      },
      async handler(ctx: Context<CashPageParams>): Promise<Page<DifferenceView>> {
        const { page, size } = ctx.params;
        const { records, total } = await store.listDifferences(this.db, page, size);
        return pageOf(records.map(toDifferenceView), page, size, total);
      }
    }),

    listRemittanceProposals: defineAction<ProposalsParams, CashThis>({
      rest: "GET /organizations/:organizationId/cod/remittance-proposals",
      api: "backoffice",
      schema: ProposalsSchema,
      endpoint: {
        operationId: "listCodRemittanceProposals",
        summary: "Proposed COD remittances",
        description:
          "What the organisation can be paid, from cash a hub confirmed: one proposal per deposit and mode, each parcel COLLECTED " +
          "with its amount. Approve one to remit it; no amount is typed.",
        tag: "COD remittances",
        response: ProposalListSchema,
        responseDescription: "The proposals, oldest deposit first."
      },
      async handler(ctx: Context<ProposalsParams>): Promise<{ items: ProposalView[] }> {
        return { items: (await proposalsOf(this.db, ctx.params.organizationId)).map(toProposalView) };
      }
    }),

    approveRemittanceProposal: defineAction<ApproveParams, CashThis>({
      rest: "POST /organizations/:organizationId/cod/remittance-proposals/:proposalId/approve",
      api: "backoffice",
      schema: ApproveSchema,
      endpoint: {
        operationId: "approveCodRemittanceProposal",
        summary: "Approve a proposed COD remittance",
        description:
          "Remits the proposal's parcels still COLLECTED, as POST .../cod/remittances would with their ids: each becomes REMITTED " +
          "with a cod.remitted webhook, and is never paid twice (a proposal approved twice, or at once: the later is 404 " +
          "REMITTANCE_PROPOSAL_NOT_FOUND or 409 COD_NOT_REMITTABLE).",
        tag: "COD remittances",
        status: 201,
        response: RemittanceDetailSchema,
        responseDescription: "Remitted.",
        errors: ["REMITTANCE_PROPOSAL_NOT_FOUND", "COD_NOT_REMITTABLE", "NOTHING_TO_REMIT"],
        body: { name: "CodRemittanceApproval", description: "The payout's reference and date." }
      },
      async handler(ctx: Context<ApproveParams>): Promise<RemittanceDetail> {
        const remittance = await approveProposal({ db: this.db, logger: requestLogger(ctx, this.logger), caller: ctx }, ctx.params);
        this.logger.info(`COD remittance ${remittance.id} approved from proposal ${ctx.params.proposalId}`);
        return detailOf(this.db, remittance);
      }
    })
  }
};

export const CashMixin = mixin as Partial<ServiceSchema>;
