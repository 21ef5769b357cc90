import type { Context, ServiceSchema, ServiceSettingSchema } from "moleculer";
import { defineAction } from "../../../lib/action";
import { Caller, call } from "../../../lib/contract";
import { encryptField } from "../../../lib/crypto";
import { AppError } from "../../../lib/errors";
import { ParcelStatus, assertCancellable, isCancellable, isParcelStatus } from "../../../lib/parcel-status";
import { ParcelViewSchema } from "../../../lib/parcel-view";
import type { PartnerMeta } from "../../../lib/principal";
import { requestLogger } from "../../../lib/request-context";
import { PinResetSchema, PinResetView, ResetPinParams, ResetPinSchema } from "../cod.params";
import { operatorTransition, resetPickupPin } from "../handover";
import {
  CancelParams,
  CancelSchema,
  OperatorTransitionParams,
  OperatorTransitionSchema,
  SandboxTriggerResponse,
  SandboxTriggerView,
  TO_STATUS_DOC,
  TRANSITION_DESCRIPTION,
  TransitionParams,
  TransitionSchema
} from "../parcels.params";
import * as store from "../parcels.store";
import { chargeReturnFee } from "../return-fees";
import { StatusChange, applyStatusChange } from "../status-change";
import { PARCEL_NOT_FOUND, ParcelsThis } from "../parcels-this";

/** Changes of a parcel's status: cancel, the sandbox trigger, the operator's transitions and PIN reset. */
const mixin: Partial<ServiceSchema<ServiceSettingSchema, object, ParcelsThis>> = {
  actions: {
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
        errors: ["INVALID_STATUS", "PIN_REQUIRED", "PARCEL_NOT_FOUND", "INVALID_TRANSITION", "PIN_INCORRECT", "PIN_REPLACED", "PIN_LOCKED"],
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
    })
  },

  methods: {
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

    async settleReturnFee(this: ParcelsThis, caller: Caller, parcel: store.ParcelRecord) {
      if (!parcel.returnFeePending) return parcel;
      const charged = await chargeReturnFee({ db: this.db, logger: this.logger, caller }, parcel);
      return charged ? { ...parcel, returnFeePending: false } : parcel;
    }
  }
};

export const StatusMixin = mixin as Partial<ServiceSchema>;
