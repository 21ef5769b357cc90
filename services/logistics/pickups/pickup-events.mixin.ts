import type { ServiceSchema, ServiceSettingSchema } from "moleculer";
import { defineAction } from "../../../lib/action";
import { BackgroundLoop } from "../../../lib/background-loop";
import { AppError } from "../../../lib/errors";
import { Joi } from "../../../lib/joi";
import type { PartnerMeta } from "../../../lib/principal";
import { uuid } from "../../../lib/schemas";
import type { LogisticsThis } from "../logistics-this";
import { PICKUP_IDEMPOTENCY_KEY_HEADER } from "../logistics.params";
import { PICKUP_OUTBOX_BATCH, relayPickupEvents } from "./pickup-events-relay";
import { purgeDispatched } from "./pickup-outbox.store";
import { viewsOf } from "./pickups";
import { type PickupView, PickupViewSchema } from "./pickups.params";
import { simulateVisit, simulatorPass } from "./sandbox-simulator";

interface PickupEventsThis extends LogisticsThis {
  /** The logistics outbox relay (decision 0054). */
  pickupEventsLoop: BackgroundLoop<number>;
  /** The sandbox's courier: completes sandbox pickups whose window opened. */
  sandboxPickupsLoop: BackgroundLoop<number>;
}

interface CompleteParams {
  id: string;
  missingParcelIds?: string[];
}

const CompleteSchema = Joi.object<CompleteParams, true>({
  id: uuid().required().description("Pickup id (uuid)."),
  missingParcelIds: Joi.array()
    .items(uuid())
    .unique()
    .max(500)
    .description("Parcels of the pickup the simulated courier does not find: they stay READY_FOR_PICKUP, listed in `missing`.")
}).unknown(true);

/** Dispatched outbox rows are kept this long, as parcels' (services/parcels/sweeper.ts). */
const OUTBOX_RETENTION_DAYS = 7;

/** How often the simulator looks for sandbox pickups whose window opened (and old outbox rows are purged). */
const SIMULATOR_INTERVAL_MS = 30_000;

/** Issue 44 B: the merchant's pickup webhooks (outbox relay) and the sandbox's simulated courier. */
const mixin: Partial<ServiceSchema<ServiceSettingSchema, object, PickupEventsThis>> = {
  actions: {
    completeSandboxPickup: defineAction<CompleteParams, PickupEventsThis, PartnerMeta>({
      rest: "POST /sandbox/pickups/:id/complete",
      api: "partner",
      scope: "parcels:write",
      schema: CompleteSchema,
      endpoint: {
        operationId: "completeSandboxPickup",
        summary: "Simulate the courier's visit (sandbox)",
        description:
          "Sandbox keys only. The simulator completes a sandbox pickup by itself once its window opens (readyAt); this does it " +
          "now. Every listed parcel but `missingParcelIds` moves to PICKED_UP, the pickup to COMPLETED (or PARTIALLY_COMPLETED " +
          "with `missing`), and the pickup.completed webhook goes out with sandbox=true, as a live courier's closed stop does. " +
          "Completing a completed pickup answers it again.",
        tag: "Sandbox",
        response: PickupViewSchema,
        responseDescription: "The completed pickup.",
        errors: ["SANDBOX_KEY_REQUIRED", "PICKUP_NOT_FOUND", "CONFLICT"],
        parameters: [PICKUP_IDEMPOTENCY_KEY_HEADER],
        body: { name: "SandboxPickupCompleteRequest", description: "What the simulated courier does not find (optional)." }
      },
      async handler(ctx): Promise<PickupView> {
        if (ctx.meta.auth.mode !== "sandbox") throw new AppError("SANDBOX_KEY_REQUIRED", "Only a sandbox key may simulate a pickup");
        const owner = { organizationId: ctx.meta.auth.organizationId, mode: ctx.meta.auth.mode };
        const pickup = await simulateVisit({ db: this.db, caller: ctx }, ctx.params.id, owner, ctx.params.missingParcelIds ?? []);
        void this.pickupEventsLoop?.kick();
        return (await viewsOf(this.db, [pickup]))[0];
      }
    })
  },

  started(this: PickupEventsThis) {
    // Made here, not in created: the documents' build creates the services without their configuration.
    this.pickupEventsLoop = new BackgroundLoop(
      () =>
        // Nothing before the database is open (another mixin's started opens it).
        (this.db
          ? relayPickupEvents({
              db: this.db,
              caller: this.broker,
              isAvailable: () => this.broker.registry.actions.isAvailable("webhooks.enqueueBatch")
            })
          : Promise.resolve(0)
        ).then(relayed => (relayed >= PICKUP_OUTBOX_BATCH && void this.pickupEventsLoop.kick(), relayed)),
      this.config.outboxIntervalMs,
      err => this.logger.warn("pickup events relay pass failed:", err.message)
    );
    this.sandboxPickupsLoop = new BackgroundLoop(
      async () => {
        if (!this.db) return 0;
        // Housekeeping on the same beat: dispatched outbox rows past their week.
        await purgeDispatched(this.db, OUTBOX_RETENTION_DAYS);
        return simulatorPass({ db: this.db, caller: this.broker });
      },
      SIMULATOR_INTERVAL_MS,
      err => this.logger.warn("sandbox pickup simulator pass failed:", err.message)
    );
    this.pickupEventsLoop.start();
    this.sandboxPickupsLoop.start();
  },

  async stopped(this: PickupEventsThis) {
    await Promise.all([this.pickupEventsLoop?.stop(), this.sandboxPickupsLoop?.stop()]);
  }
};

export const PickupEventsMixin = mixin as Partial<ServiceSchema>;
