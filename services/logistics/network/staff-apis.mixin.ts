import type { ServiceSchema, ServiceSettingSchema } from "moleculer";
import { defineAction } from "../../../lib/action";
import { AppError } from "../../../lib/errors";
import { RELAY_IDEMPOTENCY_KEY_HEADER } from "../../../lib/idempotency";
import type { StaffMeta } from "../../../lib/staff-keys";
import type { LogisticsThis } from "../logistics-this";
import { viewsOf } from "../pickups/pickups";
import { PickupView, PickupViewSchema } from "../pickups/pickups.params";
import { CourierRunAnswer, CourierRunAnswerSchema, CourierRunParams, CourierRunSchema } from "../runs/runs.params";
import { runOf, todayInAlgiers } from "../runs/runs";
import { closePickup } from "../pickups/reconcile";
import { closeWithMerchantCount } from "../manifests/close-with-count";
import * as pickups from "../pickups/pickups.store";
import {
  PickupCloseParams,
  PickupCloseSchema,
  PickupScanParams,
  PickupScanSchema,
  ScanAnswer,
  ScanAnswerSchema,
  ScanParams,
  ScanSchema
} from "./network.params";
import { courierCollects, hubScanIn, hubScanOut, occurredAtOf, pickupOnCourierRun, StaffContext } from "./scans";
import * as store from "./network.store";

type Meta = StaffMeta & { idempotencyKey?: string };
const SCAN_ERRORS = ["PARCEL_NOT_FOUND", "OCCURRED_AT_OUT_OF_RANGE", "IDEMPOTENCY_KEY_IN_USE"] as const;

/** The courier API (`/api/courier/v1`) and the hub API (`/api/hub/v1`), each with a staff key of its role (issue 44 C). */
const mixin: Partial<ServiceSchema<ServiceSettingSchema, object, LogisticsThis>> = {
  actions: {
    courierRun: defineAction<CourierRunParams, LogisticsThis, Meta>({
      rest: "GET /run",
      api: "courier",
      schema: CourierRunSchema,
      endpoint: {
        operationId: "getCourierRun",
        summary: "Today's run",
        description:
          "The pickups to make (`items`): open pickups (CONFIRMED, IN_PROGRESS) in the wilaya of the courier's hub, earliest window " +
          "first; and `run`: the day's stops in order (merchants, the hub, relay points) with what to do at each, as the operator " +
          "adjusted them or else computed.",
        tag: "Courier",
        response: CourierRunAnswerSchema,
        responseDescription: "The pickups and the run's stops, in order."
      },
      async handler(ctx): Promise<CourierRunAnswer> {
        const hub = await store.findHub(this.db, ctx.meta.staff.hubId);
        const ids = hub ? await store.openPickupIdsOfWilaya(this.db, hub.wilaya) : [];
        const records = (await Promise.all(ids.map(id => pickups.findPickup(this.db, id, null)))).filter(p => p !== null);
        const items = await viewsOf(this.db, records);
        const run = await runOf(this.db, ctx, ctx.meta.staff.subjectId, ctx.params.date ?? todayInAlgiers(), false);
        return { items, page: 0, size: Math.max(items.length, 1), totalElements: items.length, totalPages: items.length > 0 ? 1 : 0, run };
      }
    }),

    courierCollect: defineAction<PickupScanParams, LogisticsThis, Meta>({
      rest: "POST /pickups/:id/scans",
      api: "courier",
      schema: PickupScanSchema,
      endpoint: {
        operationId: "scanAtPickup",
        summary: "Scan a parcel at a merchant",
        description:
          "A parcel of the pickup is collected: PICKED_UP, in the courier's custody (the merchant's hand-off). A parcel not " +
          "listed is recorded as unexpected. Idempotency-Key: the same scan sent again changes nothing twice.",
        tag: "Courier",
        response: ScanAnswerSchema,
        responseDescription: "What the scan did.",
        errors: ["PICKUP_NOT_FOUND", "CONFLICT", ...SCAN_ERRORS],
        parameters: [RELAY_IDEMPOTENCY_KEY_HEADER],
        body: { name: "PickupScanRequest", description: "The scanned label." }
      },
      handler(ctx): Promise<ScanAnswer> {
        const at = occurredAtOf(ctx.meta.staff, ctx.params.occurredAt);
        return courierCollects(this.db, ctx as StaffContext, ctx.params.id, ctx.params.trackingNumber, at);
      }
    }),

    courierClose: defineAction<PickupCloseParams, LogisticsThis, Meta>({
      rest: "POST /pickups/:id/close",
      api: "courier",
      schema: PickupCloseSchema,
      endpoint: {
        operationId: "closePickupStop",
        summary: "Close the pickup stop",
        description:
          "Reconciles at once: listed parcels not scanned are `missing` (they stay READY_FOR_PICKUP), scanned ones not listed " +
          "`unexpected`; the pickup is COMPLETED or PARTIALLY_COMPLETED. Closing again answers the same. With the merchant's " +
          "`countCode` and `count` (equal to the parcels listed), every listed parcel not scanned is collected first " +
          "(PICKED_UP, confirmed by the merchant's count); a wrong code is 409 COUNT_CODE_INCORRECT, five of them 423 COUNT_CODE_LOCKED.",
        tag: "Courier",
        response: PickupViewSchema,
        responseDescription: "The pickup, reconciled.",
        errors: [
          "PICKUP_NOT_FOUND",
          "CONFLICT",
          "OCCURRED_AT_OUT_OF_RANGE",
          "COUNT_CODE_INCORRECT",
          "PICKUP_COUNT_MISMATCH",
          "COUNT_CODE_LOCKED"
        ],
        parameters: [RELAY_IDEMPOTENCY_KEY_HEADER],
        body: {
          name: "PickupCloseRequest",
          required: false,
          description: "When the stop was closed, if not now; the merchant's count, if given."
        }
      },
      async handler(ctx): Promise<PickupView> {
        const at = occurredAtOf(ctx.meta.staff, ctx.params.occurredAt);
        const pickup = await pickupOnCourierRun(this.db, ctx.meta.staff, ctx.params.id);
        await closeWithMerchantCount(this, ctx as StaffContext, pickup, ctx.params, at);
        const closed = await closePickup(this.db, ctx.params.id);
        return (await viewsOf(this.db, [closed]))[0];
      }
    }),

    hubScanIn: defineAction<ScanParams, LogisticsThis, Meta>({
      rest: "POST /scans/in",
      api: "hub",
      schema: ScanSchema,
      endpoint: {
        operationId: "hubScanIn",
        summary: "Scan a parcel in",
        description: "The hub takes the parcel (custody hub, IN_TRANSIT); the answer says where it goes, in one line (`sort`).",
        tag: "Hub",
        response: ScanAnswerSchema,
        responseDescription: "What the scan did, and where the parcel goes.",
        errors: [...SCAN_ERRORS],
        parameters: [RELAY_IDEMPOTENCY_KEY_HEADER],
        body: { name: "HubScanRequest", description: "The scanned label." }
      },
      handler(ctx): Promise<ScanAnswer> {
        return hubScanIn(this.db, ctx as StaffContext, ctx.params.trackingNumber, occurredAtOf(ctx.meta.staff, ctx.params.occurredAt));
      }
    }),

    hubScanOut: defineAction<ScanParams, LogisticsThis, Meta>({
      rest: "POST /scans/out",
      api: "hub",
      schema: ScanSchema,
      endpoint: {
        operationId: "hubScanOut",
        summary: "Scan a parcel out",
        description: "The parcel leaves the hub with a courier (the hub's side of the hand-off); its status stays IN_TRANSIT.",
        tag: "Hub",
        response: ScanAnswerSchema,
        responseDescription: "Recorded.",
        errors: [...SCAN_ERRORS],
        parameters: [RELAY_IDEMPOTENCY_KEY_HEADER],
        body: { name: "HubScanOutRequest", description: "The scanned label." }
      },
      async handler(ctx): Promise<ScanAnswer> {
        const answer = await hubScanOut(
          this.db,
          ctx as StaffContext,
          ctx.params.trackingNumber,
          occurredAtOf(ctx.meta.staff, ctx.params.occurredAt)
        );
        if (answer.status !== "IN_TRANSIT") throw new AppError("CONFLICT", `A parcel ${answer.status} is not in a hub`);
        return answer;
      }
    })
  }
};

export const StaffApisMixin = mixin as Partial<ServiceSchema>;
