import type { Context, ServiceSchema, ServiceSettingSchema } from "moleculer";
import { defineAction } from "../../../lib/action";
import { idempotencyKeyOf } from "../../../lib/idempotency";
import { pageOf } from "../../../lib/parcel-view";
import type { PartnerMeta } from "../../../lib/principal";
import { requestLogger } from "../../../lib/request-context";
import type { LogisticsThis } from "../logistics-this";
import { PICKUP_IDEMPOTENCY_KEY_HEADER } from "../logistics.params";
import { cancelPickup, createPickup, PICKUP_NOT_FOUND, PickupDeps, viewsOf } from "./pickups";
import {
  CreatePickupParams,
  CreatePickupSchema,
  PickupIdParams,
  PickupIdSchema,
  PickupListParams,
  PickupListSchema,
  PickupPage,
  PickupPageSchema,
  PickupView,
  PickupViewSchema
} from "./pickups.params";
import * as store from "./pickups.store";
import { countCodeFor } from "../manifests/count-code";

function deps(service: LogisticsThis, ctx: Context): PickupDeps {
  return {
    db: service.db,
    caller: ctx,
    logger: requestLogger(ctx, service.logger),
    encryptionKey: service.encryptionKey,
    rules: service.config.pickups
  };
}

const ownerOf = (ctx: Context<unknown, PartnerMeta>): store.Owner => ({
  organizationId: ctx.meta.auth.organizationId,
  mode: ctx.meta.auth.mode
});

const CREATE_DESCRIPTION =
  "Books the courier's visit to collect parcels at your address, in a window (`readyAt` to `closeAt`): at least 2 hours, " +
  "the same day; a pickup for today is taken until 15:00 Algiers time; Friday is no pickup day (both set by the operator). " +
  "The parcels are those named in `parcelIds`, or with `allCreated` every CREATED parcel of yours; each moves to " +
  "READY_FOR_PICKUP (a webhook as for every status). The answer gives the confirmation number, the confirmed window and " +
  "`cancelBy`. A parcel already in another pickup, or past CREATED, is 409 PARCEL_NOT_PICKABLE.";

/** The partner API's pickups (issue 44 B). */
const mixin: Partial<ServiceSchema<ServiceSettingSchema, object, LogisticsThis>> = {
  actions: {
    createPickup: defineAction<CreatePickupParams, LogisticsThis, PartnerMeta & { idempotencyKey?: string }>({
      rest: "POST /pickups",
      api: "partner",
      scope: "parcels:write",
      schema: CreatePickupSchema,
      endpoint: {
        operationId: "createPickup",
        summary: "Book a pickup",
        description: CREATE_DESCRIPTION,
        tag: "Pickups",
        status: 201,
        location: { action: "logistics.getPickup", params: { id: "response.id" } },
        response: PickupViewSchema,
        responseDescription: "Booked and confirmed. Location points to the pickup.",
        errors: [
          "PICKUP_WINDOW_INVALID",
          "PARCEL_NOT_FOUND",
          "PARCEL_NOT_PICKABLE",
          "PICKUP_ADDRESS_MISSING",
          "IDEMPOTENCY_KEY_IN_USE",
          "IDEMPOTENCY_KEY_REUSED"
        ],
        parameters: [PICKUP_IDEMPOTENCY_KEY_HEADER],
        body: { name: "PickupCreateRequest", description: "The pickup to book. Unknown fields are refused." }
      },
      async handler(ctx): Promise<PickupView> {
        const pickup = await createPickup(deps(this, ctx), ownerOf(ctx), ctx.params, idempotencyKeyOf(ctx.meta));
        return (await viewsOf(this.db, [pickup]))[0];
      }
    }),

    listPickups: defineAction<PickupListParams, LogisticsThis, PartnerMeta>({
      rest: "GET /pickups",
      api: "partner",
      scope: "parcels:read",
      schema: PickupListSchema,
      endpoint: {
        operationId: "listPickups",
        summary: "List pickups",
        description: "Your pickups of the key's mode, newest first, optionally in one status.",
        tag: "Pickups",
        response: PickupPageSchema,
        responseDescription: "A page of pickups."
      },
      async handler(ctx): Promise<PickupPage> {
        const { records, total } = await store.listPickups(this.db, ownerOf(ctx), ctx.params);
        return pageOf(await viewsOf(this.db, records), ctx.params.page, ctx.params.size, total);
      }
    }),

    getPickup: defineAction<PickupIdParams, LogisticsThis, PartnerMeta>({
      rest: "GET /pickups/:id",
      api: "partner",
      scope: "parcels:read",
      schema: PickupIdSchema,
      endpoint: {
        operationId: "getPickup",
        summary: "Read a pickup",
        description:
          "A pickup of yours, its parcels and, once the courier closed the stop, what was missing or unexpected. While the " +
          "courier may come, `countCode`: tell it to the courier with the number of parcels you hand over, to confirm them all at once.",
        tag: "Pickups",
        response: PickupViewSchema,
        responseDescription: "The pickup.",
        errors: ["PICKUP_NOT_FOUND"]
      },
      async handler(ctx): Promise<PickupView> {
        const pickup = await store.findPickup(this.db, ctx.params.id, ownerOf(ctx));
        if (!pickup) throw PICKUP_NOT_FOUND();
        // Only here, to the pickup's merchant: the code the courier must hear from them (issue 44 C).
        return { ...(await viewsOf(this.db, [pickup]))[0], countCode: countCodeFor(pickup, this.encryptionKey) };
      }
    }),

    cancelPickup: defineAction<PickupIdParams, LogisticsThis, PartnerMeta>({
      rest: "POST /pickups/:id/cancel",
      api: "partner",
      scope: "parcels:write",
      schema: PickupIdSchema,
      endpoint: {
        operationId: "cancelPickup",
        summary: "Cancel a pickup",
        description:
          "Until the pickup's `cancelBy`, and before the courier came: the pickup is CANCELLED and its parcels go back to " +
          "CREATED (a webhook each). Cancelling a cancelled pickup answers it again. Otherwise 409 PICKUP_NOT_CANCELLABLE.",
        tag: "Pickups",
        response: PickupViewSchema,
        responseDescription: "Cancelled.",
        errors: ["PICKUP_NOT_FOUND", "PICKUP_NOT_CANCELLABLE"]
      },
      async handler(ctx): Promise<PickupView> {
        const pickup = await cancelPickup(deps(this, ctx), ownerOf(ctx), ctx.params.id);
        return (await viewsOf(this.db, [pickup]))[0];
      }
    })
  }
};

export const PickupsMixin = mixin as Partial<ServiceSchema>;
