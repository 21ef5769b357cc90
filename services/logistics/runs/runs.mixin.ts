import type { ServiceSchema, ServiceSettingSchema } from "moleculer";
import { defineAction } from "../../../lib/action";
import { RELAY_IDEMPOTENCY_KEY_HEADER } from "../../../lib/idempotency";
import type { StaffMeta } from "../../../lib/staff-keys";
import type { LogisticsThis } from "../logistics-this";
import { ScanAnswer, ScanAnswerSchema } from "../network/network.params";
import { occurredAtOf, StaffContext } from "../network/scans";
import { courierArrives, courierLoads, recordRelayArrival } from "./relay-leg";
import {
  ArrivalView,
  ArrivalViewSchema,
  ArriveParams,
  ArriveSchema,
  RelayArrivalNotice,
  RelayArrivalNoticeSchema,
  RelayScanParams,
  RelayScanSchema,
  RunQueryParams,
  RunQuerySchema,
  RunStopsParams,
  RunStopsSchema,
  RunView,
  RunViewSchema
} from "./runs.params";
import { adjustRun, runOf, todayInAlgiers } from "./runs";
import "./runs.contract";

type Meta = StaffMeta & { idempotencyKey?: string };

/** Runs in the back-office, and the courier's last leg: load at the hub, arrive at the relay point (issue 44 C, decision 0057). */
const mixin: Partial<ServiceSchema<ServiceSettingSchema, object, LogisticsThis>> = {
  actions: {
    getRun: defineAction<RunQueryParams, LogisticsThis>({
      rest: "GET /runs",
      api: "backoffice",
      schema: RunQuerySchema,
      endpoint: {
        operationId: "getRun",
        summary: "A courier's run",
        description:
          "The courier's day as ordered stops and what to do at each: the day's open pickups in the wilaya of the courier's hub, " +
          "the hub, each relay point it has parcels for, the hub again. Reading it keeps it (it gets an id) so that it can be adjusted.",
        tag: "Network",
        response: RunViewSchema,
        responseDescription: "The run.",
        errors: ["NOT_FOUND"]
      },
      handler(ctx): Promise<RunView> {
        return runOf(this.db, ctx, ctx.params.courierId, ctx.params.date ?? todayInAlgiers(), true);
      }
    }),

    putRunStops: defineAction<RunStopsParams, LogisticsThis>({
      rest: "PUT /runs/:id/stops",
      api: "backoffice",
      schema: RunStopsSchema,
      endpoint: {
        operationId: "putRunStops",
        summary: "Adjust a run",
        description:
          "Every stop in its new order (leave one out to remove it, add one to add it), and optionally another courier. A courier " +
          "who already has a run that day is 409 CONFLICT; a stop that is not a live pickup, a hub or a relay point's code is 400.",
        tag: "Network",
        response: RunViewSchema,
        responseDescription: "The run, adjusted.",
        errors: ["NOT_FOUND", "CONFLICT"],
        body: { name: "RunStopsRequest", description: "The stops, in order." }
      },
      handler(ctx): Promise<RunView> {
        return adjustRun(this.db, ctx, ctx.params);
      }
    }),

    courierLoad: defineAction<RelayScanParams, LogisticsThis, Meta>({
      rest: "POST /relays/:code/load",
      api: "courier",
      schema: RelayScanSchema,
      endpoint: {
        operationId: "loadForRelay",
        summary: "Load a relay point's parcel at the hub",
        description:
          "The courier takes a parcel sorted for the relay point `code` (of its hub's wilaya): custody courier, the hub its giver; " +
          "the merchant gets parcel.out_for_delivery (once; the status stays IN_TRANSIT). 409 WRONG_RELAY for a parcel addressed " +
          "elsewhere or a relay point off the hub's routes, CONFLICT for a parcel not IN_TRANSIT. Idempotency-Key: a repeat records nothing twice.",
        tag: "Courier",
        response: ScanAnswerSchema,
        responseDescription: "Loaded.",
        errors: ["PARCEL_NOT_FOUND", "WRONG_RELAY", "CONFLICT", "OCCURRED_AT_OUT_OF_RANGE", "IDEMPOTENCY_KEY_IN_USE"],
        parameters: [RELAY_IDEMPOTENCY_KEY_HEADER],
        body: { name: "CourierLoadRequest", description: "The scanned label." }
      },
      handler(ctx): Promise<ScanAnswer> {
        const at = occurredAtOf(ctx.meta.staff, ctx.params.occurredAt);
        return courierLoads(this.db, ctx as StaffContext, ctx.params.code, ctx.params.trackingNumber, at);
      }
    }),

    courierArrive: defineAction<ArriveParams, LogisticsThis, Meta>({
      rest: "POST /relays/:code/arrive",
      api: "courier",
      schema: ArriveSchema,
      endpoint: {
        operationId: "arriveAtRelay",
        summary: "Arrive at a relay point",
        description:
          "The courier scans the courier pass the relay point's counter app shows (a QR valid two minutes, signed by the server): " +
          "that proves it stands there, and the agent's arrival scans that follow name it as the giver. 400 VALIDATION_FAILED for a " +
          "pass forged, expired or another relay point's. The answer lists what to hand over and the returns to take.",
        tag: "Courier",
        response: ArrivalViewSchema,
        responseDescription: "The visit, and what to do there.",
        errors: ["OCCURRED_AT_OUT_OF_RANGE", "IDEMPOTENCY_KEY_IN_USE"],
        parameters: [RELAY_IDEMPOTENCY_KEY_HEADER],
        body: { name: "CourierArriveRequest", description: "The scanned courier pass." }
      },
      handler(ctx): Promise<ArrivalView> {
        const at = occurredAtOf(ctx.meta.staff, ctx.params.occurredAt);
        return courierArrives(this.db, ctx as StaffContext, this.encryptionKey, ctx.params, at);
      }
    }),

    // call logistics.relayArrival --parcelId <uuid> --relayCode DZ-… --occurredAt <iso>
    relayArrival: defineAction<RelayArrivalNotice, LogisticsThis>({
      visibility: "public",
      schema: RelayArrivalNoticeSchema,
      async handler(ctx): Promise<{ recorded: true }> {
        await recordRelayArrival(this.db, ctx.params);
        return { recorded: true };
      }
    })
  }
};

export const RunsMixin = mixin as Partial<ServiceSchema>;
