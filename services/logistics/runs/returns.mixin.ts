import type { ServiceSchema, ServiceSettingSchema } from "moleculer";
import { defineAction } from "../../../lib/action";
import { RELAY_IDEMPOTENCY_KEY_HEADER } from "../../../lib/idempotency";
import { Joi } from "../../../lib/joi";
import { objectOf, uuidSchema } from "../../../lib/openapi/json-schema";
import type { PartnerMeta } from "../../../lib/principal";
import { uuid } from "../../../lib/schemas";
import type { StaffMeta } from "../../../lib/staff-keys";
import type { LogisticsThis } from "../logistics-this";
import { ScanAnswer, ScanAnswerSchema, ScanParams, ScanSchema } from "../network/network.params";
import { occurredAtOf, StaffContext } from "../network/scans";
import { courierCollectsReturn, courierTakesReturnOut, merchantReceivesReturn } from "./returns-leg";
import { RelayScanParams, RelayScanSchema } from "./runs.params";

type Meta = StaffMeta & { idempotencyKey?: string };
const SCAN_ERRORS = ["PARCEL_NOT_FOUND", "CONFLICT", "OCCURRED_AT_OUT_OF_RANGE", "IDEMPOTENCY_KEY_IN_USE"] as const;

interface ReceiptParams {
  id: string;
}
const ReceiptSchema = Joi.object<ReceiptParams, true>({ id: uuid().required().description("Parcel id (uuid).") });

/** Returns on their way back through the network, and the merchant's confirmation (issue 44 C, decision 0057). */
const mixin: Partial<ServiceSchema<ServiceSettingSchema, object, LogisticsThis>> = {
  actions: {
    courierCollectReturn: defineAction<RelayScanParams, LogisticsThis, Meta>({
      rest: "POST /relays/:code/returns",
      api: "courier",
      schema: RelayScanSchema,
      endpoint: {
        operationId: "collectReturnAtRelay",
        summary: "Take a return at a relay point",
        description:
          "A return waiting at relay point `code` (RETURN_PENDING; the agent hands it over with its return dispatch) is in the " +
          "courier's custody, the relay point its giver; the status does not change. 409 WRONG_RELAY for another relay point's " +
          "parcel, CONFLICT for a parcel that is no return.",
        tag: "Courier",
        response: ScanAnswerSchema,
        responseDescription: "Taken.",
        errors: ["WRONG_RELAY", ...SCAN_ERRORS],
        parameters: [RELAY_IDEMPOTENCY_KEY_HEADER],
        body: { name: "CourierReturnCollectRequest", description: "The scanned label." }
      },
      handler(ctx): Promise<ScanAnswer> {
        const at = occurredAtOf(ctx.meta.staff, ctx.params.occurredAt);
        return courierCollectsReturn(this.db, ctx as StaffContext, ctx.params.code, ctx.params.trackingNumber, at);
      }
    }),

    courierReturnOut: defineAction<ScanParams, LogisticsThis, Meta>({
      rest: "POST /returns/out",
      api: "courier",
      schema: ScanSchema,
      endpoint: {
        operationId: "takeReturnOutOfHub",
        summary: "Take a return out of the hub for its merchant",
        description:
          "At the hub, the courier takes a return (handed in with the hub's scan in) to bring it to its merchant: custody " +
          "courier, the hub its giver. The merchant's confirmation (partner API) then makes it RETURNED.",
        tag: "Courier",
        response: ScanAnswerSchema,
        responseDescription: "Taken.",
        errors: [...SCAN_ERRORS],
        parameters: [RELAY_IDEMPOTENCY_KEY_HEADER],
        body: { name: "CourierReturnOutRequest", description: "The scanned label." }
      },
      handler(ctx): Promise<ScanAnswer> {
        const at = occurredAtOf(ctx.meta.staff, ctx.params.occurredAt);
        return courierTakesReturnOut(this.db, ctx as StaffContext, ctx.params.trackingNumber, at);
      }
    }),

    receiveReturn: defineAction<ReceiptParams, LogisticsThis, PartnerMeta>({
      rest: "POST /parcels/:id/return-receipt",
      api: "partner",
      scope: "parcels:write",
      schema: ReceiptSchema,
      endpoint: {
        operationId: "confirmReturnReceived",
        summary: "Confirm a return is back",
        description:
          "The courier brought your return back (RETURN_PENDING, carried by the network): confirming makes it RETURNED (the " +
          "webhook as for every status), and you its last holder in its custody trail. Confirming again answers the same. A " +
          "parcel that is no return on its way back to you is 409 INVALID_TRANSITION.",
        tag: "Pickups",
        response: objectOf<{ parcelId: string; status: string }>({ parcelId: uuidSchema(), status: { type: "string" } }),
        responseDescription: "The parcel's status now.",
        errors: ["PARCEL_NOT_FOUND", "INVALID_TRANSITION"]
      },
      handler(ctx): Promise<{ parcelId: string; status: string }> {
        const owner = { organizationId: ctx.meta.auth.organizationId, mode: ctx.meta.auth.mode };
        return merchantReceivesReturn(this.db, ctx, owner, ctx.params.id);
      }
    })
  }
};

export const ReturnsLegMixin = mixin as Partial<ServiceSchema>;
