import { RELAY_IDEMPOTENCY_KEY_HEADER } from "../../../lib/idempotency";
import { IdempotentMeta, relayIdempotently } from "../relay/relay-idempotency";
import { occurredAtOf } from "../../../lib/occurred-at";
import { pairedAtOf } from "../../../lib/agent-keys";
import type { Context, ServiceSchema, ServiceSettingSchema } from "moleculer";
import { defineAction } from "../../../lib/action";
import { BackgroundLoop } from "../../../lib/background-loop";
import { decryptField } from "../../../lib/crypto";
import type { Database } from "../../../lib/db/database";
import { AppError } from "../../../lib/errors";
import { pageOf } from "../../../lib/parcel-view";
import type { PartnerMeta } from "../../../lib/principal";
import { ReturnView, ReturnViewSchema } from "../../../lib/returns";
import { NoParams, NoParamsSchema } from "../../../lib/schemas";
import { configOf } from "../../../mixins/config.mixin";
import * as parcels from "../parcels.store";
import { RelayParcelView, RelayParcelViewSchema } from "../relay/relay.params";
import { readShelfParcel } from "../relay/relay.store";
import { toRelayParcelView } from "../relay/relay-view";
import { dropOff, DropOffDeps } from "./drop-off";
import { activeRelayOrRefuse, cancelReturn, openReturn, RETURN_NOT_FOUND } from "./open-return";
import { toReturnView } from "./return-events";
import {
  DropOffParams,
  DropOffSchema,
  OpenReturnParams,
  OpenReturnSchema,
  ReturnExpiryParams,
  ReturnExpirySchema,
  ReturnIdParams,
  ReturnIdSchema,
  ReturnListParams,
  ReturnListSchema,
  ReturnPage,
  ReturnPageSchema,
  ReturnSettings,
  ReturnSettingsParams,
  ReturnSettingsSchema,
  ReturnSettingsView,
  SandboxDropOffParams,
  SandboxDropOffSchema
} from "./returns.params";
import { returnsPass, ReturnsPassResult } from "./returns-pass";
import * as store from "./returns.store";

interface ReturnsThis {
  db: Database;
  encryptionKey: string;
  logger: import("moleculer").Logger;
  broker: import("moleculer").ServiceBroker;
  /** Expiries and shipment fees owed: one pass at a time in this instance; started by the service. */
  returnsLoop: BackgroundLoop<ReturnsPassResult>;
  owner(ctx: Context<unknown, PartnerMeta>): parcels.Owner;
  runRelay(): Promise<number>;
}

const ON_SHELF: readonly string[] = ["AT_RELAY", "RELAY_NOTIFIED"];

const deps = (self: ReturnsThis, ctx: Context): DropOffDeps => ({
  db: self.db,
  encryptionKey: self.encryptionKey,
  logger: self.logger,
  caller: ctx
});

/** The merchant's view of a return: with the collection PIN while its return parcel waits at the relay point. */
async function viewOf(self: ReturnsThis, r: store.ReturnRecord): Promise<ReturnView> {
  const carried = r.returnParcelId === null ? null : await parcels.findParcel(self.db, r.returnParcelId);
  const waiting = carried !== null && ON_SHELF.includes(carried.status) && carried.pickupPinEnc !== null;
  return toReturnView(r, waiting ? decryptField(carried.pickupPinEnc!, self.encryptionKey) : null);
}

const CREATE_DESCRIPTION =
  "For a DELIVERED parcel, within RETURN_WINDOW_DAYS (14) of its delivery: a return with an 8-character code, valid until " +
  "expiresAt (14 days). The parcel's recipient gets the code and the deadline by SMS; its public tracking says a return code " +
  "was sent (never the code). The customer says the code at any relay point: a return parcel is made then, and only then is " +
  "feeDzd debited from your wallet (RETURN_SHIPMENT). Creating a return costs nothing. destinationRelayCode defaults to your " +
  "return relay point (PUT /return-settings); with neither, 400. 409 PARCEL_NOT_RETURNABLE when the parcel is not delivered or " +
  "the window has passed; 409 RETURN_ALREADY_OPEN when a return of it is waiting or dropped off. Another organisation's parcel, " +
  "or one of the other mode, is reported as not found.";

/**
 * Customers' returns (issue 21), as actions of `parcels`: the merchant's side (open, list, read,
 * cancel, settings), the counter's drop-off (relay API) and its sandbox twin, and the pass that
 * expires returns and retries shipment fees. The rules are in open-return.ts, drop-off.ts and
 * returns-pass.ts; the return parcel's arrival is handled by the status change (return-events.ts).
 */
const mixin: Partial<ServiceSchema<ServiceSettingSchema, object, ReturnsThis>> = {
  actions: {
    openReturn: defineAction<OpenReturnParams, ReturnsThis, PartnerMeta>({
      rest: "POST /parcels/:id/returns",
      api: "partner",
      scope: "parcels:write",
      schema: OpenReturnSchema,
      endpoint: {
        operationId: "createReturn",
        summary: "Open a customer's return",
        description: CREATE_DESCRIPTION,
        tag: "Returns",
        status: 201,
        location: { action: "parcels.getReturn", params: { id: "response.id" } },
        response: ReturnViewSchema,
        responseDescription: "Opened: the return, AWAITING_DROP_OFF, with its code. Location points to it.",
        errors: ["RELAY_NOT_FOUND", "PARCEL_NOT_FOUND", "PARCEL_NOT_RETURNABLE", "RETURN_ALREADY_OPEN"],
        body: { name: "ReturnCreateRequest", description: "Why, what, and where it goes." }
      },
      async handler(ctx): Promise<ReturnView> {
        const config = configOf(this.broker);
        const { id, reason, items, destinationRelayCode } = ctx.params;
        const created = await openReturn(
          this.db,
          this.owner(ctx),
          { parcelId: id, reason, items, destinationRelayCode },
          { windowDays: config.returnWindowDays, codeDays: config.returnCodeDays }
        ).finally(() => void this.runRelay());
        return toReturnView(created);
      }
    }),

    listReturns: defineAction<ReturnListParams, ReturnsThis, PartnerMeta>({
      rest: "GET /returns",
      api: "partner",
      scope: "parcels:read",
      schema: ReturnListSchema,
      endpoint: {
        operationId: "listReturns",
        summary: "List customers' returns",
        description: "The returns of the key's organisation (live or sandbox, as the key), newest first, one page at a time.",
        tag: "Returns",
        response: ReturnPageSchema,
        responseDescription: "A page of returns."
      },
      async handler(ctx): Promise<ReturnPage> {
        const { status, page, size } = ctx.params;
        const { records, total } = await store.listReturns(this.db, this.owner(ctx), { status, page, size });
        return pageOf(await Promise.all(records.map(r => viewOf(this, r))), page, size, total);
      }
    }),

    getReturn: defineAction<ReturnIdParams, ReturnsThis, PartnerMeta>({
      rest: "GET /returns/:id",
      api: "partner",
      scope: "parcels:read",
      schema: ReturnIdSchema,
      endpoint: {
        operationId: "getReturn",
        summary: "Read a customer's return",
        description:
          "A return of the key's organisation. While its return parcel waits at your relay point, collectionPin is the PIN to " +
          "give the counter to collect it (the customer gets no SMS about it). Another organisation's return is reported as not found.",
        tag: "Returns",
        response: ReturnViewSchema,
        responseDescription: "The return.",
        errors: ["RETURN_NOT_FOUND"]
      },
      async handler(ctx): Promise<ReturnView> {
        const found = await store.findReturn(this.db, this.owner(ctx), ctx.params.id);
        if (!found) throw RETURN_NOT_FOUND();
        return viewOf(this, found);
      }
    }),

    cancelReturn: defineAction<ReturnIdParams, ReturnsThis, PartnerMeta>({
      rest: "POST /returns/:id/cancel",
      api: "partner",
      scope: "parcels:write",
      schema: ReturnIdSchema,
      endpoint: {
        operationId: "cancelReturn",
        summary: "Cancel a customer's return",
        description:
          "A return still AWAITING_DROP_OFF becomes CANCELLED (its code no longer works; nothing is charged) and return.cancelled " +
          "goes out. 409 RETURN_NOT_CANCELLABLE once dropped off, expired or cancelled.",
        tag: "Returns",
        response: ReturnViewSchema,
        responseDescription: "Cancelled.",
        errors: ["RETURN_NOT_FOUND", "RETURN_NOT_CANCELLABLE"]
      },
      async handler(ctx): Promise<ReturnView> {
        const cancelled = await cancelReturn(this.db, this.owner(ctx), ctx.params.id).finally(() => void this.runRelay());
        return toReturnView(cancelled);
      }
    }),

    getReturnSettings: defineAction<NoParams, ReturnsThis, PartnerMeta>({
      rest: "GET /return-settings",
      api: "partner",
      scope: "parcels:read",
      schema: NoParamsSchema,
      endpoint: {
        operationId: "getReturnSettings",
        summary: "Read the return settings",
        description: "Where your customers' returns go unless a return names its own relay point (per mode: live or sandbox, as the key).",
        tag: "Returns",
        response: ReturnSettingsView,
        responseDescription: "The settings."
      },
      async handler(ctx): Promise<ReturnSettings> {
        return { returnRelayCode: await store.returnRelayOf(this.db, this.owner(ctx)) };
      }
    }),

    putReturnSettings: defineAction<ReturnSettingsParams, ReturnsThis, PartnerMeta>({
      rest: "PUT /return-settings",
      api: "partner",
      scope: "parcels:write",
      schema: ReturnSettingsSchema,
      endpoint: {
        operationId: "setReturnSettings",
        summary: "Set the return relay point",
        description: "Sets the relay point your customers' returns go to (an active one; 400 RELAY_NOT_FOUND otherwise).",
        tag: "Returns",
        response: ReturnSettingsView,
        responseDescription: "The settings, as stored.",
        errors: ["RELAY_NOT_FOUND"],
        body: { name: "ReturnSettingsRequest", description: "The return relay point." }
      },
      async handler(ctx): Promise<ReturnSettings> {
        await activeRelayOrRefuse(this.db, ctx.params.returnRelayCode, "returnRelayCode");
        await store.setReturnRelay(this.db, this.owner(ctx), ctx.params.returnRelayCode);
        return { returnRelayCode: ctx.params.returnRelayCode };
      }
    }),

    relayDropOff: defineAction<DropOffParams, ReturnsThis, IdempotentMeta>({
      rest: "POST /drop-offs",
      api: "relay",
      schema: DropOffSchema,
      endpoint: {
        operationId: "dropOffReturn",
        summary: "Take a customer's return",
        description:
          "The customer says their return code: a new parcel is made (its own tracking number to write on the package, the " +
          "original's weight unless weightG is given), READY_FOR_PICKUP in this relay point's list until the courier takes it. " +
          "Scanning the same code again here answers the same parcel. 404 RETURN_CODE_NOT_FOUND for an unknown code; 409 " +
          "RETURN_CODE_USED when it was dropped off already (at another relay point, or by a counter that scanned it at the same " +
          "moment); 409 RETURN_CODE_EXPIRED past its deadline.",
        tag: "Shelf",
        status: 201,
        response: RelayParcelViewSchema,
        responseDescription: "The return parcel, READY_FOR_PICKUP here.",
        errors: [
          "RETURN_CODE_NOT_FOUND",
          "RETURN_CODE_USED",
          "RETURN_CODE_EXPIRED",
          "RELAY_POINT_NOT_FOUND",
          "OCCURRED_AT_OUT_OF_RANGE",
          "IDEMPOTENCY_KEY_REUSED",
          "IDEMPOTENCY_KEY_IN_USE",
          "CONFLICT"
        ],
        parameters: [RELAY_IDEMPOTENCY_KEY_HEADER],
        body: { name: "RelayDropOffRequest", description: "The return code the customer gives." }
      },
      handler(ctx): Promise<RelayParcelView> {
        return relayIdempotently(this.db, ctx, "drop-off", async () => {
          const relayCode = ctx.meta.agent.relayCode;
          if (!(await parcels.findRelayPoint(this.db, relayCode))) {
            throw new AppError("RELAY_POINT_NOT_FOUND", `Relay point ${relayCode} does not exist`);
          }
          const { parcel } = await dropOff(
            deps(this, ctx),
            { relayCode, mode: "live", at: occurredAtOf(ctx.params.occurredAt), pairedAt: pairedAtOf(ctx.meta.agent) },
            ctx.params.returnCode,
            ctx.params.weightG
          ).finally(() => void this.runRelay());
          return toRelayParcelView(await readShelfParcel(this.db, parcel.id), this.encryptionKey);
        });
      }
    }),

    sandboxDropOff: defineAction<SandboxDropOffParams, ReturnsThis, PartnerMeta>({
      rest: "POST /sandbox/returns/:id/drop-off",
      api: "partner",
      scope: "parcels:write",
      schema: SandboxDropOffSchema,
      endpoint: {
        operationId: "dropOffSandboxReturn",
        summary: "Simulate a customer's drop-off (sandbox)",
        description:
          "Sandbox keys only. Does what a relay point's drop-off does for a sandbox return AWAITING_DROP_OFF: the return parcel " +
          "(READY_FOR_PICKUP), return.dropped_off, the fee from the sandbox wallet. Then move the return parcel with the sandbox " +
          "trigger (POST /sandbox/parcels/{id}/trigger-event): at AT_RELAY, return.ready_for_collection and its collectionPin.",
        tag: "Sandbox",
        status: 201,
        location: { action: "parcels.getReturn", params: { id: "response.id" } },
        response: ReturnViewSchema,
        responseDescription: "The return, DROPPED_OFF, with its returnParcelId.",
        errors: ["SANDBOX_KEY_REQUIRED", "RETURN_NOT_FOUND", "RETURN_CODE_USED", "RETURN_CODE_EXPIRED", "RELAY_NOT_FOUND"],
        body: { name: "SandboxDropOffRequest", required: false, description: "Where it is dropped off." }
      },
      async handler(ctx): Promise<ReturnView> {
        if (ctx.meta.auth.mode !== "sandbox") throw new AppError("SANDBOX_KEY_REQUIRED", "Only a sandbox key may simulate a drop-off");
        const owner = this.owner(ctx);
        const found = await store.findReturn(this.db, owner, ctx.params.id);
        if (!found) throw RETURN_NOT_FOUND();
        const relayCode = ctx.params.relayCode ?? found.destinationRelayCode;
        await activeRelayOrRefuse(this.db, relayCode, "relayCode");
        const place = { relayCode, mode: "sandbox" as const, organizationId: owner.organizationId };
        const { returned } = await dropOff(deps(this, ctx), place, found.returnCode, null).finally(() => void this.runRelay());
        return viewOf(this, returned);
      }
    }),

    setReturnExpiry: defineAction<ReturnExpiryParams, ReturnsThis>({
      rest: "PUT /returns/:id/expires-at",
      api: "backoffice",
      schema: ReturnExpirySchema,
      endpoint: {
        operationId: "setReturnExpiry",
        summary: "Correct a return code's deadline",
        description:
          "For a return AWAITING_DROP_OFF, live or sandbox: its code is valid until the time given (the customer was ill, say). A " +
          "time already past expires the return within seconds (return.expired, nothing charged). 409 RETURN_NOT_CANCELLABLE when " +
          "the return is no longer waiting.",
        tag: "Parcels",
        response: ReturnViewSchema,
        responseDescription: "The return with its new expiresAt.",
        errors: ["RETURN_NOT_FOUND", "RETURN_NOT_CANCELLABLE"],
        body: { name: "ReturnExpiryRequest", description: "The new deadline." }
      },
      async handler(ctx): Promise<ReturnView> {
        const corrected = await store.setExpiry(this.db, ctx.params.id, new Date(ctx.params.expiresAt));
        if (!corrected) {
          const found = await store.findAnyReturn(this.db, ctx.params.id);
          if (!found) throw RETURN_NOT_FOUND();
          throw new AppError(
            "RETURN_NOT_CANCELLABLE",
            `Only a return AWAITING_DROP_OFF has a deadline to correct; this one is ${found.status}`
          );
        }
        if (corrected.expiresAt.getTime() <= Date.now()) void this.returnsLoop.kick();
        return toReturnView(corrected);
      }
    }),

    // call parcels.runReturnsPass
    runReturnsPass: defineAction<unknown, ReturnsThis>({
      visibility: "public",
      handler(): Promise<ReturnsPassResult> {
        return this.returnsLoop.runNow();
      }
    })
  },

  // The config is read from the broker: a mixin's created runs before ConfigMixin's sets this.config.
  created(this: ReturnsThis) {
    const config = configOf(this.broker);
    this.returnsLoop = new BackgroundLoop(
      () =>
        returnsPass({ db: this.db, logger: this.logger, caller: this.broker }).then(result => {
          if (result.expired > 0) void this.runRelay();
          return result;
        }),
      config.holdingIntervalMs,
      err => this.logger.warn("returns pass failed:", err.message)
    );
  }
};

export const ReturnsMixin = mixin as Partial<ServiceSchema>;
