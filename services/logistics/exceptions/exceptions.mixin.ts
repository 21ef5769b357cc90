import type { ServiceSchema, ServiceSettingSchema } from "moleculer";
import { defineAction } from "../../../lib/action";
import { Page, pageOf } from "../../../lib/parcel-view";
import type { LogisticsThis } from "../logistics-this";
import { call } from "../../../lib/contract";
import {
  ExceptionListParams,
  ExceptionListSchema,
  ExceptionPageSchema,
  ReportWrongRelayParams,
  ReportWrongRelaySchema
} from "./exceptions.params";
import { reportMissort } from "./missort";
import { ExceptionRecord, listExceptions } from "./exceptions.store";

/** The back-office's queue of the network's exceptions (decision 0058): today the mis-sorts. */
const mixin: Partial<ServiceSchema<ServiceSettingSchema, object, LogisticsThis>> = {
  actions: {
    listExceptions: defineAction<ExceptionListParams, LogisticsThis>({
      rest: "GET /exceptions",
      api: "backoffice",
      schema: ExceptionListSchema,
      endpoint: {
        operationId: "listNetworkExceptions",
        summary: "List the network's exceptions",
        description:
          "Mis-sorts, newest first: a parcel scanned in at a hub off its route (OFF_ROUTE_HUB) or brought to a relay point it " +
          "is not addressed to (WRONG_RELAY), with where it was found and where it goes now. Each is recorded once per parcel, " +
          "place and reason; the merchant got parcel.missorted.",
        tag: "Network",
        response: ExceptionPageSchema,
        responseDescription: "Newest first."
      },
      async handler(ctx): Promise<Page<ExceptionRecord>> {
        const { items, total } = await listExceptions(this.db, ctx.params.page, ctx.params.size);
        return pageOf(items, ctx.params.page, ctx.params.size, total);
      }
    }),

    // call logistics.reportWrongRelay --trackingNumber RP123456785DZ --relayCode DZ-16-ALGER-CENTRE --relayWilaya 16
    reportWrongRelay: defineAction<ReportWrongRelayParams, LogisticsThis>({
      visibility: "public",
      schema: ReportWrongRelaySchema,
      async handler(ctx): Promise<{ recorded: boolean }> {
        const { parcels } = await call(ctx, "parcels.networkParcels", { trackingNumbers: [ctx.params.trackingNumber] });
        const parcel = parcels.find(p => p.trackingNumber === ctx.params.trackingNumber && p.mode === "live");
        // Only a parcel on its way is mis-sorted; one waiting on a shelf or already delivered was just scanned by mistake.
        if (!parcel || parcel.status !== "IN_TRANSIT") return { recorded: false };
        const { relayCode, relayWilaya } = ctx.params;
        const at = new Date();
        const recorded = await reportMissort(this.db, ctx, {
          parcel,
          reason: "WRONG_RELAY",
          foundAt: relayCode,
          foundInWilaya: relayWilaya,
          at
        });
        return { recorded };
      }
    })
  }
};

export const ExceptionsMixin = mixin as Partial<ServiceSchema>;
