/**
 * The parcels service. Owns parcels, their status history and events, the outbox, COD
 * remittances, the relay-point directory and its search, the tariff and tracking numbers, in the
 * `parcels` schema; its code is this file and services/parcels/.
 * Others may call (types in parcels/parcels.contract.ts): `parcels.labelData`,
 * `parcels.labelDataOf` (labels), `parcels.recipientContact`, `parcels.relayPoint`,
 * `parcels.markRelayNotified` (notifications), `parcels.trackingPage` (gateway's tracking page);
 * bin/demo.ts uses `parcels.create`. Everything else is reached over HTTP through the gateway.
 */
import type { Context, ServiceSchema } from "moleculer";
import relayDirectory from "../resources/relay-points.json";
import { defineAction } from "../lib/action";
import { detached, RELAY_POINTS_PATH } from "../lib/endpoint";
import { BackgroundLoop } from "../lib/background-loop";
import { call, Caller } from "../lib/contract";
import { decryptField, encryptField } from "../lib/crypto";
import { AppError, errorCodeOf } from "../lib/errors";
import type { ParcelEvent } from "../lib/events";
import { assertCancellable, isCancellable, isParcelStatus, ParcelStatus } from "../lib/parcel-status";
import { ParcelEventView, redirectHistoryLine, toParcelEventView } from "./parcels/parcel-events";
import { Page, pageOf, ParcelPage, ParcelPageSchema, ParcelView, ParcelViewSchema } from "../lib/parcel-view";
import type { PartnerMeta } from "../lib/principal";
import { PublicTracking, PublicTrackingSource, toPublicTracking, toTrackingPageParcel, TrackingPageParcel } from "../lib/public-tracking";
import { positionProblems } from "../lib/relay-points";
import { relaySearchProblems, RelayPointResult } from "./parcels/relay-search";
import { idempotencyKeyOf } from "../lib/idempotency";
import { requireSecret } from "../lib/secrets";
import { toDzd } from "../lib/money";
import { priceBreakdown } from "./parcels/tariff";
import { parseTrackingInput } from "../lib/tracking-number";
import { ConfigMixin, ConfigVars } from "../mixins/config.mixin";
import { DbMixin, DbVars } from "../mixins/db.mixin";
import { freshLabelUrls } from "../mixins/label-urls";
import { requestLogger } from "../lib/request-context";
import type { ParcelLabelData, RelayPoint, SweepResult } from "./parcels/parcels.contract";
import { CodMixin } from "./parcels/cod.mixin";
import { RelayMixin } from "./parcels/relay/relay.mixin";
import { RELAY_DOCS_TAGS } from "./parcels/relay/relay.params";
import { RelayPointWithSettings, setRelaySettings, withRelaySettings } from "./parcels/relay/relay-settings";
import { HoldingMixin } from "./parcels/holding.mixin";
import { RedirectMixin } from "./parcels/redirect/redirect.mixin";
import { PinResendMixin } from "./parcels/pin-resend.mixin";
import { redirectsOf } from "./parcels/redirect/redirect.store";
import { ClosuresMixin } from "./parcels/relay/closures.mixin";
import { PublicRelaySearchMixin } from "./parcels/relay/public-search.mixin";
import { OfflineMixin } from "./parcels/relay/offline.mixin";
import { assertRelayOpenForNewParcels, ClosureStatus, withClosureStatus } from "./parcels/relay/closures";
import { ClaimsMixin } from "./parcels/claims/claims.mixin";
import { CLAIMS_DOCS_TAGS } from "./parcels/claims/claims.params";
import { ReturnsMixin } from "./parcels/returns/returns.mixin";
import type { ReturnsPassResult } from "./parcels/returns/returns-pass";
import { RETURNS_DOCS_TAGS } from "./parcels/returns/returns.params";
import type { HoldingPassResult } from "./parcels/holding-pass";
import { PinResetSchema, PinResetView, ResetPinParams, ResetPinSchema } from "./parcels/cod.params";
import { createBatch } from "./parcels/create-batch";
import { HandoverDeps, operatorTransition, resetPickupPin } from "./parcels/handover";
import { createParcel, priceParcel, SagaDeps } from "./parcels/create-parcel";
import { acceptRecipientPhone } from "./parcels/recipient/phone-policy";
import { recipientSettingsOf } from "./parcels/recipient/recipient-settings.store";
import { RecipientMixin } from "./parcels/recipient/recipient.mixin";
import { normaliseStoredPhones } from "./parcels/recipient/phone-normalisation";
import { phoneOfItem, withRecipientWarnings } from "./parcels/recipient/recipient-warnings";
import { createGroups, CreateGroups } from "./parcels/create-groups";
import { toLabelData } from "./parcels/label-data";
import { relayOutbox, releaseLease } from "./parcels/outbox-relay";
import { VisibleParcelCache } from "./parcels/visible-parcel-cache";
import {
  BATCH_EXAMPLES,
  BATCH_ITEMS_DOC,
  BatchResult,
  BatchResultView,
  CancelParams,
  CancelSchema,
  CREATE_BATCH_DESCRIPTION,
  CreateBatchParams,
  CreateBatchSchema,
  CREATE_DESCRIPTION,
  CREATE_EXAMPLES,
  CreateParcelInput,
  CreateSchema,
  IDEMPOTENCY_KEY_HEADER,
  IdParams,
  IdSchema,
  LabelDataOfParams,
  LabelDataOfSchema,
  ListParams,
  ListSchema,
  NoParams,
  NoParamsSchema,
  OperatorTransitionParams,
  OperatorTransitionSchema,
  ParcelIdParams,
  ParcelIdSchema,
  ParcelEventsView,
  ParcelQuote,
  ParcelQuoteView,
  PARCELS_DOCS,
  QUOTE_DESCRIPTION,
  QuoteInput,
  QuoteSchema,
  RelayCodeParams,
  RelayCodeSchema,
  RelayNotifiedParams,
  RelayNotifiedSchema,
  SandboxTriggerResponse,
  SandboxTriggerView,
  SweepParams,
  SweepSchema,
  TO_STATUS_DOC,
  TrackingParams,
  TrackingSchema,
  TRANSITION_DESCRIPTION,
  TransitionParams,
  TransitionSchema
} from "./parcels/parcels.params";
import { toParcelView } from "./parcels/parcel-view";
import {
  PUBLIC_TRACKING_DESCRIPTION,
  PublicTrackingParams,
  PublicTrackingSchema,
  PublicTrackingView
} from "./parcels/public-tracking.params";
import {
  RELAY_POINT_DESCRIPTION,
  RELAY_SEARCH_DESCRIPTION,
  RelayPointListView,
  RelayPointPageView,
  RelayPointParams,
  RelayPointSchema,
  RelayPointSearchQuery,
  RelayPointSearchSchema,
  RelayPointView
} from "./parcels/relay-points.params";
import * as store from "./parcels/parcels.store";
import { applyStatusChange, StatusChange } from "./parcels/status-change";
import { settlePendingAtStart, sweep } from "./parcels/sweeper";
import { returnFeeCentimes } from "./parcels/holding-period";
import { chargeReturnFee } from "./parcels/return-fees";
import { measureOutboxLag } from "./parcels/outbox-lag";
import { compensationCounter } from "../lib/metrics";

interface ParcelsVars extends DbVars, ConfigVars {
  encryptionKey: string;
  /** The create path's writes, committed in groups (docs/decisions/0025). */
  createGroups: CreateGroups;
  relayLoop: BackgroundLoop<number>;
  sweepLoop: BackgroundLoop<SweepResult>;
  /** Made by HoldingMixin (holding.mixin.ts); started here, once the database is open. */
  holdingLoop: BackgroundLoop<HoldingPassResult>;
  /** Made by ReturnsMixin (returns/returns.mixin.ts); started here, like the holding loop. */
  returnsLoop: BackgroundLoop<ReturnsPassResult>;
  /** Made at the first read, for the database of this start. */
  visibleCache?: VisibleParcelCache;
}

interface ParcelsMethods {
  owner(ctx: Context<unknown, PartnerMeta>): store.Owner;
  sagaDeps(ctx: Context): SagaDeps;
  handoverDeps(ctx: Context): HandoverDeps;
  viewsOf(ctx: Context, parcels: store.ParcelRecord[]): Promise<ParcelView[]>;
  visibleOrNotFound(ctx: Context<unknown, PartnerMeta>, by: { id: string } | { trackingNumber: string }): Promise<store.ParcelRecord>;
  publicSourceOf(typed: string): Promise<PublicTrackingSource | null>;
  changeStatus(
    id: string,
    decide: (parcel: store.ParcelRecord) => void,
    change: StatusChange
  ): Promise<{ before: store.ParcelRecord; after: store.ParcelRecord }>;
  refundCancelled(ctx: Context, parcel: store.ParcelRecord): Promise<void>;
  runRelay(): Promise<number>;
  settleCrashedCreates(): Promise<void>;
  /**
   * After a change that may owe a return fee: asks the wallet now, so that the answer shows the fee
   * charged; if the wallet cannot answer, the fee stays owed and the holding pass asks again.
   */
  settleReturnFee(caller: Caller, parcel: store.ParcelRecord): Promise<store.ParcelRecord>;
}

type ParcelsThis = ParcelsVars &
  ParcelsMethods & {
    broker: import("moleculer").ServiceBroker;
    logger: import("moleculer").Logger;
    waitForServices: import("moleculer").Service["waitForServices"];
  };

const PARCEL_NOT_FOUND = () => new AppError("PARCEL_NOT_FOUND", "Parcel not found");

/** What Joi cannot see (a field that depends on another), refused as Joi refuses: 400, field by field. */
function refuseProblems(problems: { field: string; message: string }[]): void {
  if (problems.length > 0) throw new AppError("VALIDATION_FAILED", "The request is not valid", { details: problems });
}

/** Parcels, their status history and events, the relay directory and the create-parcel saga. */
const ParcelsService: ServiceSchema<{ openapi: typeof PARCELS_DOCS }, ParcelsMethods, ParcelsVars> = {
  name: "parcels",
  mixins: [
    DbMixin({ schema: "parcels" }),
    ConfigMixin,
    CodMixin,
    RelayMixin,
    HoldingMixin,
    ClaimsMixin,
    ReturnsMixin,
    RedirectMixin,
    ClosuresMixin,
    PublicRelaySearchMixin,
    RecipientMixin,
    OfflineMixin,
    PinResendMixin
  ],
  settings: {
    openapi: detached({ ...PARCELS_DOCS, tags: [...PARCELS_DOCS.tags, ...RELAY_DOCS_TAGS, ...CLAIMS_DOCS_TAGS, ...RETURNS_DOCS_TAGS] })
  },

  actions: {
    create: defineAction<CreateParcelInput, ParcelsThis, PartnerMeta & { idempotencyKey?: string }>({
      rest: "POST /parcels",
      api: "partner",
      scope: "parcels:write",
      schema: CreateSchema,
      endpoint: {
        operationId: "createParcel",
        summary: "Create a parcel",
        description: CREATE_DESCRIPTION,
        tag: "Parcels",
        status: 201,
        location: { action: "parcels.get", params: { id: "response.id" } },
        response: ParcelViewSchema,
        responseDescription: "Created and paid. Location points to the parcel.",
        errors: [
          "RELAY_NOT_FOUND",
          "RECIPIENT_PHONE_INVALID",
          "RELAY_CLOSED",
          "INVALID_TARIFF",
          "INSUFFICIENT_BALANCE",
          "IDEMPOTENCY_KEY_IN_USE",
          "IDEMPOTENCY_KEY_REUSED"
        ],
        parameters: [IDEMPOTENCY_KEY_HEADER],
        body: { name: "ParcelCreateRequest", description: "A parcel to create. Unknown fields are refused.", examples: CREATE_EXAMPLES }
      },
      async handler(ctx) {
        const key = idempotencyKeyOf(ctx.meta);
        const owner = this.owner(ctx);
        const deps = { ...this.sagaDeps(ctx), recipient: await recipientSettingsOf(this.db, owner) };
        const { parcel } = await createParcel(deps, owner, ctx.params, key);
        void this.runRelay();
        return withRecipientWarnings((await this.viewsOf(ctx, [parcel]))[0], ctx.params.recipientPhone);
      }
    }),

    quote: defineAction<QuoteInput, ParcelsThis, PartnerMeta>({
      rest: "POST /parcels/quote",
      api: "partner",
      scope: "parcels:read",
      schema: QuoteSchema,
      endpoint: {
        operationId: "quoteParcel",
        summary: "Quote a parcel's price",
        description: QUOTE_DESCRIPTION,
        tag: "Parcels",
        response: ParcelQuoteView,
        responseDescription: "The price, and what it is made of.",
        errors: ["RELAY_NOT_FOUND", "RECIPIENT_PHONE_INVALID", "RELAY_CLOSED", "INVALID_TARIFF"],
        body: {
          name: "ParcelQuoteRequest",
          description: "The fields of a creation; the recipient may be left out.",
          examples: CREATE_EXAMPLES
        }
      },
      async handler(ctx): Promise<ParcelQuote> {
        const { relay, quote } = await priceParcel(this.db, ctx.params);
        if (ctx.params.recipientPhone !== undefined) {
          acceptRecipientPhone(ctx.params.recipientPhone, await recipientSettingsOf(this.db, this.owner(ctx)));
        }
        await assertRelayOpenForNewParcels({ db: this.db, noticeDays: this.config.closureNoticeDays }, relay.code);
        const price = {
          ...priceBreakdown(quote),
          returnFeeDzd: toDzd(returnFeeCentimes(quote.basePriceCentimes)),
          insuredValueDzd: toDzd(quote.insuredValueCentimes)
        };
        return withRecipientWarnings(price, ctx.params.recipientPhone);
      }
    }),

    createBatch: defineAction<CreateBatchParams, ParcelsThis, PartnerMeta & { idempotencyKey?: string }>({
      rest: "POST /parcels/batch",
      api: "partner",
      scope: "parcels:write",
      schema: CreateBatchSchema,
      // A hundred sagas one after the other; each wallet call keeps its own 10 s (create-batch.ts).
      timeout: 120_000,
      endpoint: {
        operationId: "createParcelBatch",
        summary: "Create up to 100 parcels",
        description: CREATE_BATCH_DESCRIPTION,
        tag: "Parcels",
        response: BatchResultView,
        responseDescription: "One result per item, created or not: see each item's status.",
        fields: { items: BATCH_ITEMS_DOC },
        body: { name: "ParcelBatchRequest", description: "The parcels to create.", examples: BATCH_EXAMPLES },
        // A hundred items with every field, 100-character names and 255-character keys.
        maxBodyBytes: 256 * 1024
      },
      async handler(ctx): Promise<BatchResult> {
        if (ctx.meta.idempotencyKey !== undefined) {
          throw new AppError("VALIDATION_FAILED", "The request is not valid", {
            details: [{ field: "Idempotency-Key", message: "is not accepted on a batch: give each item its own idempotencyKey" }]
          });
        }
        const owner = this.owner(ctx);
        const deps = { ...this.sagaDeps(ctx), recipient: await recipientSettingsOf(this.db, owner) };
        const outcomes = await createBatch(deps, owner, ctx.params.items);
        void this.runRelay();
        const parcels = outcomes.flatMap(o => ("parcel" in o ? [o.parcel] : []));
        const views = new Map((await this.viewsOf(ctx, parcels)).map(view => [view.id, view]));
        const items = outcomes.map(o =>
          "parcel" in o
            ? {
                index: o.index,
                status: 201,
                idempotencyKey: o.idempotencyKey,
                replayed: o.replayed,
                parcel: withRecipientWarnings(views.get(o.parcel.id)!, phoneOfItem(ctx.params.items[o.index])),
                error: null
              }
            : { index: o.index, status: o.error.status, idempotencyKey: o.idempotencyKey, replayed: false, parcel: null, error: o.error }
        );
        const replayed = items.filter(item => item.replayed).length;
        return { created: parcels.length - replayed, replayed, failed: items.length - parcels.length, items };
      }
    }),

    list: defineAction<ListParams, ParcelsThis, PartnerMeta>({
      rest: "GET /parcels",
      api: "partner",
      scope: "parcels:read",
      schema: ListSchema,
      endpoint: {
        operationId: "listParcels",
        summary: "List parcels",
        description:
          "The parcels of the key's organisation (live or sandbox, as the key), newest first, one page at a time. Other query parameters are ignored.",
        tag: "Parcels",
        response: ParcelPageSchema,
        responseDescription: "A page of parcels."
      },
      async handler(ctx): Promise<ParcelPage> {
        const { status, direction, page, size } = ctx.params;
        const { records, total } = await store.listVisible(this.db, this.owner(ctx), { status, direction, page, size });
        return pageOf(await this.viewsOf(ctx, records), page, size, total);
      }
    }),

    get: defineAction<IdParams, ParcelsThis, PartnerMeta>({
      rest: "GET /parcels/:id",
      api: "partner",
      scope: "parcels:read",
      schema: IdSchema,
      endpoint: {
        operationId: "getParcel",
        summary: "Read a parcel",
        description: "A parcel of the key's organisation, with a fresh label URL. Another organisation's parcel is reported as not found.",
        tag: "Parcels",
        response: ParcelViewSchema,
        responseDescription: "The parcel.",
        errors: ["PARCEL_NOT_FOUND"]
      },
      async handler(ctx) {
        this.visibleCache ??= new VisibleParcelCache(this.db);
        const parcel = await this.visibleCache.find(this.owner(ctx), ctx.params.id);
        if (!parcel) throw PARCEL_NOT_FOUND();
        return (await this.viewsOf(ctx, [parcel]))[0];
      }
    }),

    events: defineAction<IdParams, ParcelsThis, PartnerMeta>({
      rest: "GET /parcels/:id/events",
      api: "partner",
      scope: "parcels:read",
      schema: IdSchema,
      endpoint: {
        operationId: "listParcelEvents",
        summary: "List a parcel's events",
        description:
          "Every status a parcel of the key's organisation went through, oldest first, with the note given and who made the change. " +
          "Another organisation's parcel, or one of the other mode, is reported as not found.",
        tag: "Parcels",
        response: ParcelEventsView,
        responseDescription: "The parcel's history.",
        errors: ["PARCEL_NOT_FOUND"]
      },
      async handler(ctx): Promise<{ items: ParcelEventView[] }> {
        const parcel = await this.visibleOrNotFound(ctx, { id: ctx.params.id });
        const [history, redirects] = await Promise.all([store.parcelHistory(this.db, parcel.id), redirectsOf(this.db, parcel.id)]);
        const lines = [...history, ...redirects.map(redirectHistoryLine)].sort((a, b) => a.createdAt.getTime() - b.createdAt.getTime());
        return { items: lines.map(toParcelEventView).filter((event): event is ParcelEventView => event !== null) };
      }
    }),

    getByTracking: defineAction<TrackingParams, ParcelsThis, PartnerMeta>({
      rest: "GET /parcels/by-tracking/:trackingNumber",
      api: "partner",
      scope: "parcels:read",
      schema: TrackingSchema,
      endpoint: {
        operationId: "getParcelByTracking",
        summary: "Find a parcel by tracking number",
        description:
          "Looks the tracking number up among the organisation's parcels (case and surrounding spaces do not matter). " +
          "`by-tracking` is a literal segment, tried before any parcel id.",
        tag: "Parcels",
        response: ParcelViewSchema,
        responseDescription: "The parcel.",
        errors: ["PARCEL_NOT_FOUND"]
      },
      async handler(ctx) {
        const parcel = await this.visibleOrNotFound(ctx, { trackingNumber: ctx.params.trackingNumber.trim().toUpperCase() });
        return (await this.viewsOf(ctx, [parcel]))[0];
      }
    }),

    cancel: defineAction<CancelParams, ParcelsThis, PartnerMeta>({
      rest: "POST /parcels/:id/cancel",
      api: "partner",
      scope: "parcels:write",
      schema: CancelSchema,
      endpoint: {
        operationId: "cancelParcel",
        summary: "Cancel a parcel",
        description:
          "Cancels a parcel that is still CREATED or READY_FOR_PICKUP and refunds its price to the wallet. After pick-up, cancelling goes through support (409).",
        tag: "Parcels",
        response: ParcelViewSchema,
        responseDescription: "Cancelled: the parcel, in status CANCELLED.",
        errors: ["PARCEL_NOT_FOUND", "PARCEL_NOT_CANCELLABLE"],
        body: { name: "CancelRequest", required: false, description: "Optional cancel details." }
      },
      async handler(ctx) {
        const parcel = await this.visibleOrNotFound(ctx, { id: ctx.params.id });
        const { after } = await this.changeStatus(parcel.id, current => assertCancellable(current.status as ParcelStatus), {
          to: "CANCELLED",
          reason: ctx.params.reason || null,
          actor: "merchant",
          refundPending: true
        });
        await this.refundCancelled(ctx, after);
        return (await this.viewsOf(ctx, [after]))[0];
      }
    }),

    /**
     * Money follows the live rules where they exist: a trigger to CANCELLED from a cancellable
     * status refunds the sandbox wallet exactly as a cancel does; no other trigger moves money (a
     * refunded parcel stays refunded whatever it is moved to next, and is never charged twice).
     */
    triggerSandboxEvent: defineAction<TransitionParams, ParcelsThis, PartnerMeta>({
      rest: "POST /sandbox/parcels/:id/trigger-event",
      api: "partner",
      scope: "parcels:write",
      schema: TransitionSchema,
      endpoint: {
        operationId: "triggerSandboxEvent",
        summary: "Simulate a status change (sandbox)",
        description:
          "Sandbox keys only. Moves a sandbox parcel of your organisation to any status and sends the webhook for it, with sandbox=true and your reason in the payload.",
        tag: "Sandbox",
        status: 202,
        response: SandboxTriggerView,
        responseDescription: "Event scheduled: the status changed and the webhook is on its way.",
        errors: ["INVALID_STATUS", "SANDBOX_KEY_REQUIRED", "NOT_SANDBOX_PARCEL", "FORBIDDEN", "PARCEL_NOT_FOUND"],
        fields: { toStatus: TO_STATUS_DOC },
        body: { name: "SandboxTriggerRequest", description: "The status to move the sandbox parcel to." }
      },
      async handler(ctx): Promise<SandboxTriggerResponse> {
        if (ctx.meta.auth.mode !== "sandbox") throw new AppError("SANDBOX_KEY_REQUIRED", "Only a sandbox key may trigger sandbox events");
        const toStatus = ctx.params.toStatus;
        if (!isParcelStatus(toStatus)) {
          throw new AppError("INVALID_STATUS", `toStatus must be one of the 12 parcel statuses (got "${toStatus}")`, {
            details: [{ field: "toStatus", message: "unknown status" }]
          });
        }
        let refunds = false;
        const { before, after } = await this.changeStatus(
          ctx.params.id,
          current => {
            if (current.organizationId !== ctx.meta.auth.organizationId)
              throw new AppError("FORBIDDEN", "This parcel belongs to another organisation");
            if (current.mode !== "sandbox") throw new AppError("NOT_SANDBOX_PARCEL", "Only sandbox parcels can be moved by the trigger");
            refunds = toStatus === "CANCELLED" && isCancellable(current.status as ParcelStatus);
          },
          {
            to: toStatus,
            reason: ctx.params.reason || null,
            actor: "sandbox",
            refundPending: refunds,
            // Only a sandbox return parcel gets a PIN (its collection PIN); other sandbox parcels have none.
            sealPin: pin => encryptField(pin, this.encryptionKey)
          }
        );
        if (refunds) await this.refundCancelled(ctx, after);
        return {
          parcelId: after.id,
          trackingNumber: after.trackingNumber,
          previousStatus: before.status,
          newStatus: after.status,
          triggeredAt: after.updatedAt.toISOString()
        };
      }
    }),

    transition: defineAction<OperatorTransitionParams, ParcelsThis>({
      rest: "POST /parcels/:id/transitions",
      api: "backoffice",
      schema: OperatorTransitionSchema,
      endpoint: {
        operationId: "transitionParcel",
        summary: "Move a live parcel along the operator graph",
        description: TRANSITION_DESCRIPTION,
        tag: "Parcels",
        response: ParcelViewSchema,
        responseDescription: "The parcel after the change.",
        errors: ["INVALID_STATUS", "PIN_REQUIRED", "PARCEL_NOT_FOUND", "INVALID_TRANSITION", "PIN_INCORRECT", "PIN_LOCKED"],
        fields: { toStatus: TO_STATUS_DOC, reason: { description: "Operator note, at most 500 characters; sent in the webhook." } },
        body: { name: "TransitionRequest", description: "The status to move to." }
      },
      async handler(ctx) {
        const toStatus = ctx.params.toStatus;
        if (!isParcelStatus(toStatus))
          throw new AppError("INVALID_STATUS", `toStatus must be one of the 12 parcel statuses (got "${toStatus}")`);
        const after = await operatorTransition(this.handoverDeps(ctx), {
          id: ctx.params.id,
          toStatus,
          reason: ctx.params.reason || null,
          pin: ctx.params.pin
        }).finally(() => void this.runRelay());
        const charged = await this.settleReturnFee(ctx, after);
        return (await this.viewsOf(ctx, [charged]))[0];
      }
    }),

    resetPickupPin: defineAction<ResetPinParams, ParcelsThis>({
      rest: "POST /parcels/:id/pickup-pin/reset",
      api: "backoffice",
      schema: ResetPinSchema,
      endpoint: {
        operationId: "resetPickupPin",
        summary: "Give a live parcel a new pick-up PIN",
        description:
          "For a live parcel waiting at its relay point (AT_RELAY or RELAY_NOTIFIED): a new PIN replaces the old one, the wrong tries " +
          "are forgotten (a locked parcel is unlocked) and the recipient gets a pick-up SMS with the new PIN. The answer never " +
          "contains the PIN. 409 CONFLICT for a sandbox parcel or one in another status.",
        tag: "Parcels",
        response: PinResetSchema,
        responseDescription: "Reset; smsQueued false means the SMS could not be queued now: reset again.",
        errors: ["PARCEL_NOT_FOUND", "CONFLICT"]
      },
      handler(ctx): Promise<PinResetView> {
        return resetPickupPin(this.handoverDeps(ctx), ctx.params.id);
      }
    }),

    listRelayPoints: defineAction<NoParams, ParcelsThis>({
      rest: `GET ${RELAY_POINTS_PATH}`,
      api: "backoffice",
      schema: NoParamsSchema,
      endpoint: {
        operationId: "listRelayPoints",
        summary: "List the relay-point directory",
        description: "The relay points parcels may be sent to, active or not.",
        tag: "Relay points",
        response: RelayPointListView,
        responseDescription: "Every relay point, by code."
      },
      async handler(): Promise<RelayPointWithSettings[]> {
        return withRelaySettings(this.db, await store.listRelayPoints(this.db), this.config.holdingDays);
      }
    }),

    upsertRelayPoint: defineAction<RelayPointParams, ParcelsThis>({
      rest: `POST ${RELAY_POINTS_PATH}`,
      api: "backoffice",
      schema: RelayPointSchema,
      endpoint: {
        operationId: "upsertRelayPoint",
        summary: "Add or replace a relay point",
        description: RELAY_POINT_DESCRIPTION,
        tag: "Relay points",
        status: 201,
        location: { action: "parcels.listRelayPoints", params: {} },
        response: RelayPointView,
        responseDescription: "Stored.",
        body: { name: "RelayPointRequest", description: "The relay point." }
      },
      async handler(ctx): Promise<RelayPointWithSettings> {
        refuseProblems(positionProblems(ctx.params));
        const { capacity, holdingDays } = ctx.params;
        const stored = await this.db.transaction(async tx => {
          const entry = await store.upsertRelayPoint(tx, ctx.params);
          await setRelaySettings(tx, entry.code, { capacity, holdingDays });
          return entry;
        });
        return { ...stored, capacity, holdingDays: holdingDays ?? this.config.holdingDays };
      }
    }),

    // The partner API's search, on the same path as the back-office directory under its own base.
    searchRelayPoints: defineAction<RelayPointSearchQuery, ParcelsThis, PartnerMeta>({
      rest: `GET ${RELAY_POINTS_PATH}`,
      api: "partner",
      scope: "parcels:read",
      schema: RelayPointSearchSchema,
      endpoint: {
        operationId: "searchRelayPoints",
        summary: "Search relay points",
        description: RELAY_SEARCH_DESCRIPTION,
        tag: "Relay points",
        response: RelayPointPageView,
        responseDescription: "A page of active relay points."
      },
      async handler(ctx): Promise<Page<RelayPointWithSettings<RelayPointResult> & ClosureStatus>> {
        refuseProblems(relaySearchProblems(ctx.params));
        const found = await store.searchRelayPoints(this.db, ctx.params);
        const items = await withRelaySettings(this.db, found.items, this.config.holdingDays);
        return { ...found, items: await withClosureStatus(this.db, items) };
      }
    }),

    publicTracking: defineAction<PublicTrackingParams, ParcelsThis>({
      rest: "GET /tracking/:trackingNumber",
      api: "public",
      schema: PublicTrackingSchema,
      endpoint: {
        operationId: "trackParcel",
        summary: "Track a parcel (public, no key)",
        description: PUBLIC_TRACKING_DESCRIPTION,
        tag: "Public tracking",
        response: PublicTrackingView,
        responseDescription: "Where the parcel is.",
        errors: ["PARCEL_NOT_FOUND"]
      },
      async handler(ctx): Promise<PublicTracking> {
        const tracking = await this.publicSourceOf(ctx.params.trackingNumber).then(source => source && toPublicTracking(source));
        if (!tracking) throw PARCEL_NOT_FOUND();
        return tracking;
      }
    }),

    // For the gateway's /track pages: the public view with what a page adds (Arabic names, position).
    trackingPage: defineAction<PublicTrackingParams, ParcelsThis>({
      visibility: "public",
      schema: PublicTrackingSchema,
      async handler(ctx): Promise<TrackingPageParcel | null> {
        const source = await this.publicSourceOf(ctx.params.trackingNumber);
        return source && toTrackingPageParcel(source);
      }
    }),

    // For labels: what a label prints of a parcel, and nothing for the partner API.
    labelData: defineAction<ParcelIdParams, ParcelsThis>({
      visibility: "public",
      schema: ParcelIdSchema,
      async handler(ctx): Promise<ParcelLabelData> {
        const [record] = await store.labelRecords(this.db, [ctx.params.parcelId], null);
        if (!record) throw PARCEL_NOT_FOUND();
        const { parcelId: _id, ...label } = toLabelData(record);
        return label;
      }
    }),

    // call parcels.labelDataOf --parcelIds '["<uuid>"]'
    labelDataOf: defineAction<LabelDataOfParams, ParcelsThis>({
      visibility: "public",
      schema: LabelDataOfSchema,
      async handler(ctx) {
        const found = new Map(
          (await store.labelRecords(this.db, ctx.params.parcelIds, ctx.params.owner ?? null)).map(r => [r.parcel.id, toLabelData(r)])
        );
        return {
          labels: ctx.params.parcelIds.flatMap(id => found.get(id) ?? []),
          missing: ctx.params.parcelIds.filter(id => !found.has(id))
        };
      }
    }),

    recipientContact: defineAction<ParcelIdParams, ParcelsThis>({
      visibility: "public",
      schema: ParcelIdSchema,
      async handler(ctx) {
        const parcel = await store.findParcel(this.db, ctx.params.parcelId);
        if (!parcel) throw PARCEL_NOT_FOUND();
        return {
          name: decryptField(parcel.recipientNameEnc, this.encryptionKey),
          phone: decryptField(parcel.recipientPhoneEnc, this.encryptionKey),
          language: parcel.recipientLanguage,
          // Only for the pick-up SMS, which is the one place the PIN goes.
          pickupPin: parcel.pickupPinEnc === null ? null : decryptField(parcel.pickupPinEnc, this.encryptionKey)
        };
      }
    }),

    relayPoint: defineAction<RelayCodeParams, ParcelsThis>({
      visibility: "public",
      schema: RelayCodeSchema,
      async handler(ctx) {
        const relay = await store.findRelayPoint(this.db, ctx.params.code);
        if (!relay) throw new AppError("RELAY_NOT_FOUND", `Relay point ${ctx.params.code} does not exist`);
        return relay;
      }
    }),

    markRelayNotified: defineAction<RelayNotifiedParams, ParcelsThis>({
      visibility: "public",
      schema: RelayNotifiedSchema,
      async handler(ctx) {
        try {
          await this.changeStatus(
            ctx.params.parcelId,
            current => {
              if (current.status !== "AT_RELAY") throw new AppError("INVALID_TRANSITION", "not at relay");
            },
            { to: "RELAY_NOTIFIED", reason: ctx.params.reason ?? "pick-up SMS sent", actor: "notifications" }
          );
          return { changed: true };
        } catch (err) {
          if (errorCodeOf(err) === "INVALID_TRANSITION") return { changed: false };
          throw err;
        }
      }
    }),

    // call parcels.relayOutbox
    relayOutbox: defineAction<unknown, ParcelsThis>({
      visibility: "public",
      async handler() {
        return { relayed: await this.runRelay() };
      }
    }),

    // call parcels.sweep --olderThanSeconds 0
    sweep: defineAction<SweepParams, ParcelsThis>({
      visibility: "public",
      schema: SweepSchema,
      handler(ctx) {
        return sweep(
          { db: this.db, logger: this.logger, caller: this.broker },
          ctx.params.olderThanSeconds ?? this.config.pendingSweepAfterSeconds
        );
      }
    })
  },

  methods: {
    owner(ctx: Context<unknown, PartnerMeta>): store.Owner {
      return { organizationId: ctx.meta.auth.organizationId, mode: ctx.meta.auth.mode };
    },

    /** What the create-parcel saga (single or batch) works with, for this call. */
    sagaDeps(this: ParcelsThis, ctx: Context): SagaDeps {
      return {
        db: this.db,
        encryptionKey: this.encryptionKey,
        logger: requestLogger(ctx, this.logger),
        caller: ctx,
        groups: this.createGroups,
        onCompensation: compensationCounter(this.broker),
        closureNoticeDays: this.config.closureNoticeDays
      };
    },

    handoverDeps(this: ParcelsThis, ctx: Context): HandoverDeps {
      return { db: this.db, encryptionKey: this.encryptionKey, logger: requestLogger(ctx, this.logger), caller: ctx };
    },

    async visibleOrNotFound(this: ParcelsThis, ctx: Context<unknown, PartnerMeta>, by: { id: string } | { trackingNumber: string }) {
      const parcel = await store.findVisible(this.db, this.owner(ctx), by);
      if (!parcel) throw PARCEL_NOT_FOUND();
      return parcel;
    },

    /** What public tracking reads of a parcel, from a number as people type it; null when there is nothing to show. */
    async publicSourceOf(this: ParcelsThis, typed: string) {
      const parsed = parseTrackingInput(typed);
      return parsed.ok ? store.publicTrackingSource(this.db, parsed.trackingNumber) : null;
    },

    /**
     * Locks the parcel, lets `decide` refuse the change (it throws), then applies it with its
     * history line and outbox event, all in one transaction.
     */
    async changeStatus(this: ParcelsThis, id: string, decide: (parcel: store.ParcelRecord) => void, change: StatusChange) {
      return this.db
        .transaction(async tx => {
          const before = await store.lockParcel(tx, id);
          if (!before || before.status === "PENDING") throw PARCEL_NOT_FOUND();
          decide(before);
          const { row } = await applyStatusChange(tx, before, change);
          return { before, after: row };
        })
        .then(async changed => ({ before: changed.before, after: await this.settleReturnFee(this.broker, changed.after) }))
        .finally(() => void this.runRelay());
    },

    /** Gives a cancelled parcel's price back; if the wallet cannot answer now, the sweeper repeats it until it does. */
    async refundCancelled(this: ParcelsThis, ctx: Context, parcel: store.ParcelRecord) {
      try {
        await call(ctx, "wallet.refund", {
          parcelId: parcel.id,
          organizationId: parcel.organizationId,
          mode: parcel.mode,
          reason: "cancelled"
        });
        await store.clearRefundPending(this.db, parcel.id);
      } catch (err) {
        requestLogger(ctx, this.logger).warn(`parcel ${parcel.id}: refund deferred (${(err as Error).message})`);
      }
    },

    /** Views with a fresh pre-signed label URL each, or null when the labels service cannot answer right now (SPEC §2.1). */
    async viewsOf(this: ParcelsThis, ctx: Context, parcels: store.ParcelRecord[]): Promise<ParcelView[]> {
      if (parcels.length === 0) return [];
      const urls = await freshLabelUrls(
        ctx,
        this.broker,
        parcels.map(p => p.id)
      );
      return parcels.map(parcel => toParcelView(parcel, urls[parcel.id] ?? null));
    },

    /**
     * Before the first create is taken (Moleculer registers the actions once `started` resolves),
     * every create a crash cut short is finished or compensated. Embedded, this process owns the
     * database alone, so every PENDING row is an orphan; distributed, a row younger than the
     * create's time limit (PENDING_SWEEP_AFTER_SECONDS) may be a sibling's create in flight.
     */
    async settleCrashedCreates(this: ParcelsThis): Promise<void> {
      await this.waitForServices(["wallet"]);
      const olderThanSeconds = this.config.embedded ? 0 : this.config.pendingSweepAfterSeconds;
      const settled = await settlePendingAtStart({ db: this.db, logger: this.logger, caller: this.broker }, olderThanSeconds);
      if (settled.finished + settled.discarded + settled.deferred > 0) {
        this.logger.info(
          `creates cut short by a stop: ${settled.finished} finished, ${settled.discarded} discarded, ${settled.deferred} left to the sweeper`
        );
      }
    },

    async settleReturnFee(this: ParcelsThis, caller: Caller, parcel: store.ParcelRecord) {
      if (!parcel.returnFeePending) return parcel;
      const charged = await chargeReturnFee({ db: this.db, logger: this.logger, caller }, parcel);
      return charged ? { ...parcel, returnFeePending: false } : parcel;
    },

    /** Wakes the outbox relay now (one pass at a time; see BackgroundLoop). */
    async runRelay(this: ParcelsThis): Promise<number> {
      return (await this.relayLoop.kick()) ?? 0;
    }
  },

  created(this: ParcelsThis) {
    this.encryptionKey = requireSecret(this.config, "encryptionKey");
    this.createGroups = createGroups(() => this.db, this.config.groupCommit);
    this.relayLoop = new BackgroundLoop(
      () =>
        relayOutbox({
          db: this.db,
          logger: this.logger,
          holder: this.broker.nodeID,
          handOver: (consumer, events: ParcelEvent[]) => call(this.broker, consumer, { events }),
          isAvailable: action => this.broker.registry.actions.isAvailable(action)
        }).finally(() => measureOutboxLag(this.db, this.broker).catch(() => undefined)),
      this.config.outboxIntervalMs,
      err => this.logger.warn("outbox relay pass failed:", err.message)
    );
    this.sweepLoop = new BackgroundLoop(
      () => sweep({ db: this.db, logger: this.logger, caller: this.broker }, this.config.pendingSweepAfterSeconds),
      this.config.sweepIntervalMs,
      err => this.logger.warn("sweeper pass failed:", err.message)
    );
  },

  async started(this: ParcelsThis) {
    await store.seedRelayPoints(this.db, relayDirectory as RelayPoint[]);
    await this.settleCrashedCreates();
    // Rows from before migration parcels/020 (decision 0036): in the background, so that a large table does not hold the start.
    void normaliseStoredPhones(this.db, this.encryptionKey, this.logger).catch(err =>
      this.logger.warn(`recipient phones not normalised at start (${(err as Error).message}); retried at the next start`)
    );
    this.relayLoop.start();
    this.sweepLoop.start();
    // Started here, not in HoldingMixin: a mixin's started may run before the database is open.
    this.holdingLoop.start();
    this.returnsLoop.start();
  },

  async stopped(this: ParcelsThis) {
    await Promise.all([this.relayLoop.stop(), this.sweepLoop.stop(), this.holdingLoop.stop(), this.returnsLoop.stop()]);
    await releaseLease(this.db, this.broker.nodeID).catch(() => undefined);
    this.visibleCache = undefined;
  }
};

export default ParcelsService;
