import type { Context, ServiceSchema, ServiceSettingSchema } from "moleculer";
import { defineAction } from "../../lib/action";
import { BackgroundLoop } from "../../lib/background-loop";
import type { Database } from "../../lib/db/database";
import type { ParcelView } from "../../lib/parcel-view";
import { ParcelViewSchema } from "../../lib/parcel-view";
import type { PartnerMeta } from "../../lib/principal";
import { configOf } from "../../mixins/config.mixin";
import { correctPickupDeadline, extendPickup } from "./deadline-changes";
import { useHoldingPolicy } from "./holding-period";
import { useClaimCap } from "./insurance";
import { holdingPass, HoldingPassResult } from "./holding-pass";
import { PickupDeadlineParams, PickupDeadlineSchema, PickupExtensionParams, PickupExtensionSchema } from "./holding.params";
import type { ParcelRecord } from "./parcels.store";

interface HoldingThis {
  db: Database;
  logger: import("moleculer").Logger;
  broker: import("moleculer").ServiceBroker;
  /** Deadlines (expiries, reminders) and return fees owed: one pass at a time in this instance. */
  holdingLoop: BackgroundLoop<HoldingPassResult>;
  owner(ctx: Context<unknown, PartnerMeta>): { organizationId: string; mode: PartnerMeta["auth"]["mode"] };
  viewsOf(ctx: Context, parcels: ParcelRecord[]): Promise<ParcelView[]>;
  runRelay(): Promise<number>;
}

/**
 * The holding period (issue 18), as actions of `parcels`: the merchant's extension, the operator's
 * correction, and the pass that reminds, expires and charges return fees. The deadline itself is
 * set, and the return fee fixed, on every status change (status-change.ts).
 */
const mixin: Partial<ServiceSchema<ServiceSettingSchema, object, HoldingThis>> = {
  actions: {
    extendPickup: defineAction<PickupExtensionParams, HoldingThis, PartnerMeta>({
      rest: "POST /parcels/:id/pickup-extension",
      api: "partner",
      scope: "parcels:write",
      schema: PickupExtensionSchema,
      endpoint: {
        operationId: "extendPickupDeadline",
        summary: "Give the recipient more days to collect",
        description:
          "Once per parcel, while it waits at its relay point (AT_RELAY or RELAY_NOTIFIED): its pickupDeadline moves `days` " +
          "later (1 to 7) and a parcel.pickup_extended webhook goes out. A second extension is 409 EXTENSION_ALREADY_USED; a " +
          "parcel not at its relay point, 409 PARCEL_NOT_AT_RELAY. Another organisation's parcel, or one of the other mode, is " +
          "reported as not found.",
        tag: "Parcels",
        response: ParcelViewSchema,
        responseDescription: "Extended: the parcel with its later pickupDeadline.",
        errors: ["PARCEL_NOT_FOUND", "PARCEL_NOT_AT_RELAY", "EXTENSION_ALREADY_USED"],
        body: { name: "PickupExtensionRequest", description: "How many days to add." }
      },
      async handler(ctx) {
        const parcel = await extendPickup(this.db, this.owner(ctx), ctx.params.id, ctx.params.days).finally(() => void this.runRelay());
        return (await this.viewsOf(ctx, [parcel]))[0];
      }
    }),

    setPickupDeadline: defineAction<PickupDeadlineParams, HoldingThis>({
      rest: "PUT /parcels/:id/pickup-deadline",
      api: "backoffice",
      schema: PickupDeadlineSchema,
      endpoint: {
        operationId: "setPickupDeadline",
        summary: "Correct a parcel's pick-up deadline",
        description:
          "For a parcel waiting at its relay point (AT_RELAY or RELAY_NOTIFIED), live or sandbox: the deadline becomes the one " +
          "given (a relay point closed for a holiday, say). A deadline already past is acted on at once: the parcel goes back " +
          "(RETURN_PENDING, PICKUP_EXPIRED) within seconds. The merchant's extension stays used or unused as it was.",
        tag: "Parcels",
        response: ParcelViewSchema,
        responseDescription: "The parcel with its new pickupDeadline.",
        errors: ["PARCEL_NOT_FOUND", "PARCEL_NOT_AT_RELAY"],
        body: { name: "PickupDeadlineRequest", description: "The new deadline." }
      },
      async handler(ctx) {
        const parcel = await correctPickupDeadline(this.db, ctx.params.id, new Date(ctx.params.pickupDeadline));
        if (parcel.pickupDeadline !== null && parcel.pickupDeadline.getTime() <= Date.now()) void this.holdingLoop.kick();
        return (await this.viewsOf(ctx, [parcel]))[0];
      }
    }),

    // call parcels.runHoldingPass
    runHoldingPass: defineAction<unknown, HoldingThis>({
      visibility: "public",
      handler(): Promise<HoldingPassResult> {
        return this.holdingLoop.runNow();
      }
    })
  },

  // The config is read from the broker: a mixin's created runs before ConfigMixin's sets this.config.
  created(this: HoldingThis) {
    const config = configOf(this.broker);
    useHoldingPolicy(config);
    useClaimCap(config);
    this.holdingLoop = new BackgroundLoop(
      () =>
        holdingPass({ db: this.db, logger: this.logger, caller: this.broker }).then(result => {
          if (result.expired + result.reminded > 0) void this.runRelay();
          return result;
        }),
      config.holdingIntervalMs,
      err => this.logger.warn("holding pass failed:", err.message)
    );
  }
  // Started and stopped by the service itself, beside its other loops: a mixin's started runs
  // before DbMixin's has opened the database.
};

export const HoldingMixin = mixin as Partial<ServiceSchema>;
