import type { KeyObject } from "node:crypto";
import { RELAY_IDEMPOTENCY_KEY_HEADER } from "../../../lib/idempotency";
import { passPublicKey } from "../pickup-pass/pass-signature";
import { confirmOfflineHandovers } from "./handover-confirmation";
import { IdempotentMeta, relayIdempotently } from "./relay-idempotency";
import type { Context, ServiceSchema, ServiceSettingSchema } from "moleculer";
import { defineAction } from "../../../lib/action";
import type { AgentMeta } from "../../../lib/agent-keys";
import type { AppConfig } from "../../../lib/config";
import type { Caller } from "../../../lib/contract";
import type { Database } from "../../../lib/db/database";
import { RELAY_POINTS_PATH } from "../../../lib/endpoint";
import { AppError } from "../../../lib/errors";
import { wilayaName } from "../../../lib/wilayas";
import { pageOf } from "../../../lib/parcel-view";
import { isDateTime, NoParams, NoParamsSchema } from "../../../lib/schemas";
import { normaliseTrackingNumber } from "../../../lib/tracking-number";
import { arrive, CounterDeps, handOver, refuse } from "./counter";
import { reportIfWrongRelay } from "./wrong-relay";
import { tellLogisticsOfArrival } from "./arrival-custody";
import {
  ArrivalSchema,
  ClosingPageSchema,
  ClosingsParams,
  ClosingsSchema,
  ClosingView,
  ClosingViewSchema,
  CloseTillParams,
  CloseTillSchema,
  CounterListParams,
  CounterListSchema,
  CounterView,
  CounterViewSchema,
  DispatchParams,
  DispatchSchema,
  DispatchViewSchema,
  HandoverParams,
  HandoverSchema,
  Page,
  ParcelNumberParams,
  ParcelNumberSchema,
  RefusalParams,
  RefusalSchema,
  RelayParcelPageSchema,
  RelayParcelView,
  RelayParcelViewSchema,
  TillView,
  TillViewSchema,
  TrackingBody
} from "./relay.params";
import * as store from "./relay.store";
import type { ParcelRecord } from "../parcels.store";
import { openRecipient, toRelayParcelView } from "./relay-view";
import { matchesHint, parseHint } from "./shelf-search";
import { closeTill, dispatchReturns, openTill, toClosingView } from "./till";

interface RelayThis {
  db: Database;
  /** PickupPassMixin's (issue 43). */
  passSigningKey: KeyObject | null;
  config: AppConfig;
  encryptionKey: string;
  logger: import("moleculer").Logger;
  broker: import("moleculer").ServiceBroker;
  runRelay(): Promise<number>;
  /** The holding period's: charges a return fee now that a refusal owes (the holding pass retries it otherwise). */
  settleReturnFee(caller: Caller, parcel: ParcelRecord): Promise<ParcelRecord>;
}

/** The day's operations take DELIVERED, RETURN_PENDING or READY_FOR_PICKUP, and since; 400 otherwise. */
function operationStatusOf(status: CounterListParams["status"], since: string | null): store.OperationStatus {
  if (since === null) throw invalidQuery("since", "is required with status DELIVERED (the day's hand-overs since then)");
  if (!(store.OPERATION_STATUSES as readonly (string | null)[]).includes(status)) {
    throw invalidQuery("status", `must be ${store.OPERATION_STATUSES.join(", ")} with since`);
  }
  return status as store.OperationStatus;
}

function sinceOf(since: string | null): Date {
  if (!isDateTime(since)) throw invalidQuery("since", "must be a date-time such as 2026-11-26T00:00:00+01:00");
  return new Date(since);
}

const invalidQuery = (field: string, message: string) =>
  new AppError("VALIDATION_FAILED", "The request is not valid", { details: [{ field, message }] });

const deps = (self: RelayThis): CounterDeps => ({
  db: self.db,
  encryptionKey: self.encryptionKey,
  logger: self.logger,
  passSigningKey: self.passSigningKey,
  offlinePin: self.config.offlinePin
});
const view = (self: RelayThis, shelf: store.ShelfParcel) => toRelayParcelView(shelf, self.encryptionKey);

/**
 * The relay API (`api: "relay"`, a relay-agent key): the counter app of one relay point, which
 * sees that relay point's live parcels only (`ctx.meta.agent.relayCode`, set by the gateway from
 * the key). Actions of `parcels`, which owns the parcels, the directory and the tills; the rules
 * are in counter.ts and till.ts.
 */
const mixin: Partial<ServiceSchema<ServiceSettingSchema, object, RelayThis>> = {
  actions: {
    relayMe: defineAction<NoParams, RelayThis, AgentMeta>({
      rest: "GET /me",
      api: "relay",
      schema: NoParamsSchema,
      endpoint: {
        operationId: "getRelayCounter",
        summary: "This relay point",
        description:
          "The relay point the key works for, its wilaya (named in French and Arabic), its shelf's capacity, how many parcels are on it now, " +
          "its holding days, and the public key that verifies recipients' pickup passes offline.",
        tag: "Counter",
        response: CounterViewSchema,
        responseDescription: "The relay point.",
        errors: ["RELAY_POINT_NOT_FOUND"]
      },
      async handler(ctx): Promise<CounterView> {
        const relay = await store.findCounter(this.db, ctx.meta.agent.relayCode);
        if (!relay) throw new AppError("RELAY_POINT_NOT_FOUND", `Relay point ${ctx.meta.agent.relayCode} does not exist`);
        return {
          relayCode: relay.code,
          name: relay.name,
          nameAr: relay.nameAr,
          wilaya: relay.wilaya,
          wilayaName: wilayaName(relay.wilaya, "fr"),
          wilayaNameAr: wilayaName(relay.wilaya, "ar"),
          capacity: relay.capacity,
          onShelf: await store.countOnShelf(this.db, relay.code),
          holdingDays: relay.holdingDays ?? this.config.holdingDays,
          pickupPassKey: this.passSigningKey ? passPublicKey(this.passSigningKey) : null
        };
      }
    }),

    relayParcels: defineAction<CounterListParams, RelayThis, AgentMeta>({
      rest: "GET /parcels",
      api: "relay",
      schema: CounterListSchema,
      endpoint: {
        operationId: "listRelayParcels",
        summary: "This relay point's parcels",
        description:
          "Coming in (IN_TRANSIT, addressed here), on the shelf (AT_RELAY, RELAY_NOTIFIED) and waiting to leave (RETURN_PENDING, " +
          "not yet handed to the courier; READY_FOR_PICKUP, customers' returns dropped off here), oldest first. Live parcels only. " +
          "hint searches them by the recipient's phone digits and initial. since lists the day's operations instead: hand-overs " +
          "(DELIVERED), refusals (RETURN_PENDING) or drop-offs (READY_FOR_PICKUP) done here since then, by their time.",
        tag: "Counter",
        response: RelayParcelPageSchema,
        responseDescription: "A page of parcels."
      },
      async handler(ctx): Promise<Page<RelayParcelView>> {
        const { status, hint, since, page, size } = ctx.params;
        const code = ctx.meta.agent.relayCode;
        if (since !== null || status === "DELIVERED") {
          const { records, total } = await store.listOperations(this.db, code, {
            status: operationStatusOf(status, since),
            since: sinceOf(since),
            page,
            size
          });
          return pageOf(
            records.map(shelf => view(this, shelf)),
            page,
            size,
            total
          );
        }
        if (hint !== null) {
          const wanted = parseHint(hint);
          const found = (await store.allAtCounter(this.db, code, status)).filter(shelf =>
            matchesHint(wanted, openRecipient(shelf, this.encryptionKey))
          );
          return pageOf(
            found.slice(page * size, (page + 1) * size).map(shelf => view(this, shelf)),
            page,
            size,
            found.length
          );
        }
        const { records, total } = await store.listAtCounter(this.db, code, { status, page, size });
        return pageOf(
          records.map(shelf => view(this, shelf)),
          page,
          size,
          total
        );
      }
    }),

    relayParcel: defineAction<ParcelNumberParams, RelayThis, AgentMeta>({
      rest: "GET /parcels/:trackingNumber",
      api: "relay",
      schema: ParcelNumberSchema,
      endpoint: {
        operationId: "getRelayParcel",
        summary: "One parcel, by its number",
        description:
          "A parcel of this relay point (addressed here, or a customer's return dropped off here), whatever its status, by its " +
          "number as typed or scanned. 404 for any other.",
        tag: "Counter",
        response: RelayParcelViewSchema,
        responseDescription: "The parcel.",
        errors: ["PARCEL_NOT_FOUND"]
      },
      async handler(ctx): Promise<RelayParcelView> {
        const trackingNumber = normaliseTrackingNumber(ctx.params.trackingNumber);
        const shelf = await store.findAtCounter(this.db, ctx.meta.agent.relayCode, trackingNumber);
        if (!shelf) throw new AppError("PARCEL_NOT_FOUND", `Parcel ${trackingNumber} is not one of this relay point's parcels`);
        return view(this, shelf);
      }
    }),

    relayArrival: defineAction<TrackingBody, RelayThis, IdempotentMeta>({
      rest: "POST /arrivals",
      api: "relay",
      schema: ArrivalSchema,
      endpoint: {
        operationId: "scanArrival",
        summary: "Scan a parcel in",
        description:
          "An IN_TRANSIT parcel addressed here becomes AT_RELAY: its pick-up PIN is drawn and the pick-up SMS sent to the recipient, " +
          "then it is RELAY_NOTIFIED (both in its history, both webhooks). 409 WRONG_RELAY for a parcel addressed elsewhere, " +
          "INVALID_TRANSITION when not in transit (a parcel already on the shelf included: a second scan changes and sends nothing; " +
          "a retry with the same Idempotency-Key gets the first answer), RELAY_FULL when the shelf holds its capacity; 404 for an " +
          "unknown number.",
        tag: "Shelf",
        response: RelayParcelViewSchema,
        responseDescription: "The parcel, on the shelf.",
        errors: [
          "PARCEL_NOT_FOUND",
          "RELAY_POINT_NOT_FOUND",
          "WRONG_RELAY",
          "INVALID_TRANSITION",
          "RELAY_FULL",
          "OCCURRED_AT_OUT_OF_RANGE",
          "IDEMPOTENCY_KEY_REUSED",
          "IDEMPOTENCY_KEY_IN_USE",
          "CONFLICT"
        ],
        parameters: [RELAY_IDEMPOTENCY_KEY_HEADER],
        body: { name: "RelayArrivalRequest", description: "The parcel scanned." }
      },
      handler(ctx): Promise<RelayParcelView> {
        return relayIdempotently(this.db, ctx, "arrival", async () => {
          const shelf = await arrive(deps(this), ctx.meta.agent, ctx.params).catch(err =>
            reportIfWrongRelay(this, ctx, { relayCode: ctx.meta.agent.relayCode, trackingNumber: ctx.params.trackingNumber }, err)
          );
          void this.runRelay();
          await tellLogisticsOfArrival(ctx, this.logger, shelf);
          return view(this, shelf);
        });
      }
    }),

    relayHandover: defineAction<HandoverParams, RelayThis, IdempotentMeta>({
      rest: "POST /handovers",
      api: "relay",
      schema: HandoverSchema,
      endpoint: {
        operationId: "handOverParcel",
        summary: "Hand a parcel over",
        description:
          "A parcel on this shelf is DELIVERED against the recipient's pick-up PIN, or their pickup pass (pass). A COD parcel needs codCollectedDzd equal to its " +
          "amount, checked first: otherwise 422 COD_AMOUNT_MISMATCH and nothing changes. Then the PIN: 400 PIN_REQUIRED, 409 " +
          "PIN_INCORRECT with the tries left, 423 PIN_LOCKED after five wrong ones (an operator resets it); the PIN of an earlier SMS, " +
          "replaced by a new one, is 409 PIN_REPLACED and costs no try. The cash enters this " +
          "relay point's open till. 404 for a parcel not addressed here; 409 INVALID_TRANSITION when it is not on the shelf.",
        tag: "Shelf",
        response: RelayParcelViewSchema,
        responseDescription: "The parcel, DELIVERED.",
        errors: [
          "PIN_REQUIRED",
          "PARCEL_NOT_FOUND",
          "INVALID_TRANSITION",
          "PIN_INCORRECT",
          "PIN_REPLACED",
          "COD_AMOUNT_MISMATCH",
          "PIN_LOCKED",
          "OCCURRED_AT_OUT_OF_RANGE",
          "PARCEL_REDIRECTED",
          "PARCEL_EXPIRED",
          "PIN_RESET",
          "PICKUP_PASS_INVALID",
          "PICKUP_PASS_VOID",
          "OFFLINE_PIN_REFUSED",
          "IDEMPOTENCY_KEY_REUSED",
          "IDEMPOTENCY_KEY_IN_USE",
          "CONFLICT"
        ],
        parameters: [RELAY_IDEMPOTENCY_KEY_HEADER],
        body: { name: "RelayHandoverRequest", description: "The parcel, the recipient's PIN and the cash taken." }
      },
      handler(ctx): Promise<RelayParcelView> {
        return relayIdempotently(this.db, ctx, "handover", async () => {
          const shelf = await handOver(deps(this), ctx.meta.agent, ctx.params).finally(() => void this.runRelay());
          if (ctx.params.offline && ctx.params.pass === null) {
            // The recipient hears of it now; the holding pass asks again if notifications is away.
            void confirmOfflineHandovers({ db: this.db, logger: this.logger, caller: this.broker }, { parcelId: shelf.parcel.id });
          }
          return view(this, shelf);
        });
      }
    }),

    relayRefusal: defineAction<RefusalParams, RelayThis, IdempotentMeta>({
      rest: "POST /refusals",
      api: "relay",
      schema: RefusalSchema,
      endpoint: {
        operationId: "refuseParcel",
        summary: "Record a refusal",
        description:
          "The recipient refuses a parcel on this shelf: it becomes RETURN_PENDING with the reason (in the merchant's webhook), its " +
          "cash on delivery NOT_COLLECTED, and waits on the shelf for the courier (see return dispatches).",
        tag: "Shelf",
        response: RelayParcelViewSchema,
        responseDescription: "The parcel, RETURN_PENDING.",
        errors: [
          "PARCEL_NOT_FOUND",
          "INVALID_TRANSITION",
          "OCCURRED_AT_OUT_OF_RANGE",
          "IDEMPOTENCY_KEY_REUSED",
          "IDEMPOTENCY_KEY_IN_USE",
          "CONFLICT"
        ],
        parameters: [RELAY_IDEMPOTENCY_KEY_HEADER],
        body: { name: "RelayRefusalRequest", description: "The parcel and why it was refused." }
      },
      handler(ctx): Promise<RelayParcelView> {
        return relayIdempotently(this.db, ctx, "refusal", async () => {
          const shelf = await refuse(deps(this), ctx.meta.agent, ctx.params).finally(() => void this.runRelay());
          return view(this, { ...shelf, parcel: await this.settleReturnFee(ctx, shelf.parcel) });
        });
      }
    }),

    relayTill: defineAction<NoParams, RelayThis, AgentMeta>({
      rest: "GET /cash",
      api: "relay",
      schema: NoParamsSchema,
      endpoint: {
        operationId: "getRelayTill",
        summary: "The till",
        description: "The cash on delivery taken at this counter since the last closing, hand-over by hand-over.",
        tag: "Till",
        response: TillViewSchema,
        responseDescription: "The open till.",
        errors: ["RELAY_POINT_NOT_FOUND"]
      },
      handler(ctx): Promise<TillView> {
        return openTill(this.db, ctx.meta.agent.relayCode);
      }
    }),

    relayCloseTill: defineAction<CloseTillParams, RelayThis, IdempotentMeta>({
      rest: "POST /cash/closings",
      api: "relay",
      schema: CloseTillSchema,
      endpoint: {
        operationId: "closeRelayTill",
        summary: "Close the till",
        description:
          "Closes what is open: the expected cash (every COD hand-over since the last closing), what was counted, and the " +
          "difference, recorded as it is (never refused). The count is a total (countedDzd) or, optionally, notes and coins " +
          "(denominations, the courier's shape): then a sum that differs from the books is also a cash difference (stage " +
          "CLOSING, GET /cash/differences of the back-office API). Two closings at once never count one hand-over twice.",
        tag: "Till",
        status: 201,
        response: ClosingViewSchema,
        responseDescription: "Closed.",
        errors: ["RELAY_POINT_NOT_FOUND", "IDEMPOTENCY_KEY_REUSED", "IDEMPOTENCY_KEY_IN_USE", "CONFLICT"],
        parameters: [RELAY_IDEMPOTENCY_KEY_HEADER],
        body: { name: "RelayTillClosingRequest", description: "The cash counted: a total, or by denomination." }
      },
      handler(ctx): Promise<ClosingView> {
        return relayIdempotently(this.db, ctx, "closing", async () => {
          return closeTill(this.db, ctx.meta.agent, ctx.params);
        });
      }
    }),

    relayReturnDispatch: defineAction<DispatchParams, RelayThis, IdempotentMeta>({
      rest: "POST /return-dispatches",
      api: "relay",
      schema: DispatchSchema,
      endpoint: {
        operationId: "dispatchReturns",
        summary: "Hand returns to the courier",
        description:
          "Returns (RETURN_PENDING) handed to the courier leave the shelf: onShelf drops. All or nothing: any number that is not a " +
          "return waiting on this shelf is named in details (trackingNumbers.<index>) and none leaves. A number sent again after " +
          "it left counts as left.",
        tag: "Shelf",
        response: DispatchViewSchema,
        responseDescription: "They left.",
        errors: ["RETURN_NOT_DISPATCHABLE", "IDEMPOTENCY_KEY_REUSED", "IDEMPOTENCY_KEY_IN_USE", "CONFLICT"],
        parameters: [RELAY_IDEMPOTENCY_KEY_HEADER],
        body: { name: "RelayReturnDispatchRequest", description: "The returns handed over." }
      },
      handler(ctx): Promise<{ dispatched: number }> {
        return relayIdempotently(this.db, ctx, "return-dispatch", async () => {
          return dispatchReturns(this.db, ctx.meta.agent, ctx.params.trackingNumbers);
        });
      }
    }),

    listCashClosings: defineAction<ClosingsParams, RelayThis>({
      rest: `GET ${RELAY_POINTS_PATH}/:code/cash-closings`,
      api: "backoffice",
      schema: ClosingsSchema,
      endpoint: {
        operationId: "listRelayCashClosings",
        summary: "List a relay point's till closings",
        description: "Every closing of the relay point's till, newest first, with what was expected, counted, and the difference.",
        tag: "Relay points",
        response: ClosingPageSchema,
        responseDescription: "A page of closings.",
        errors: ["RELAY_POINT_NOT_FOUND"]
      },
      async handler(ctx: Context<ClosingsParams>): Promise<Page<ClosingView>> {
        const { code, page, size } = ctx.params;
        if (!(await store.findCounter(this.db, code))) throw new AppError("RELAY_POINT_NOT_FOUND", `Relay point ${code} does not exist`);
        const { records, total } = await store.listClosings(this.db, code, { page, size });
        return pageOf(records.map(toClosingView), page, size, total);
      }
    })
  }
};

export const RelayMixin = mixin as Partial<ServiceSchema>;
