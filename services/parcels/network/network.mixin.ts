import type { ServiceSchema, ServiceSettingSchema } from "moleculer";
import { defineAction } from "../../../lib/action";
import { toDzd } from "../../../lib/money";
import type { ParcelsThis } from "../parcels-this";
import * as store from "../parcels.store";
import type { NetworkParcel } from "../parcels.contract";
import { applyNetworkScan, ScanResult } from "./network-scans";
import * as network from "./network.store";
import {
  ApplyNetworkScansParams,
  ApplyNetworkScansSchema,
  CreatedParcelsParams,
  CreatedParcelsSchema,
  NetworkParcelsParams,
  NetworkParcelsSchema
} from "./network.params";

/**
 * Issue 44: what the logistics service asks of parcels. The state machine, the history and the
 * outbox stay here (webhooks go out for every status as for any other change); logistics only
 * says which scan moved which parcel, and reads the facts a manifest and a sort need.
 */
const mixin: Partial<ServiceSchema<ServiceSettingSchema, object, ParcelsThis>> = {
  actions: {
    // call parcels.applyNetworkScans --scans '[{"scanId":"<uuid>","parcelId":"<uuid>","toStatus":"READY_FOR_PICKUP","actor":"merchant"}]'
    applyNetworkScans: defineAction<ApplyNetworkScansParams, ParcelsThis>({
      visibility: "public",
      schema: ApplyNetworkScansSchema,
      async handler(ctx): Promise<{ results: ScanResult[] }> {
        // One transaction per scan: a refused parcel never holds back the others, and each lock is short.
        const results: ScanResult[] = [];
        for (const scan of ctx.params.scans) {
          results.push(await this.db.transaction(tx => applyNetworkScan(tx, scan, ctx.params.owner ?? null)));
        }
        if (results.some(r => r.outcome === "applied")) void this.runRelay();
        return { results };
      }
    }),

    // call parcels.networkParcels --trackingNumbers '["RP…"]'
    networkParcels: defineAction<NetworkParcelsParams, ParcelsThis>({
      visibility: "public",
      schema: NetworkParcelsSchema,
      async handler(ctx): Promise<{ parcels: NetworkParcel[] }> {
        const ids = new Set(ctx.params.parcelIds ?? []);
        if (ctx.params.trackingNumbers?.length) {
          for (const id of await network.idsOfTrackingNumbers(this.db, ctx.params.trackingNumbers)) ids.add(id);
        }
        const records = await store.labelRecords(this.db, [...ids], ctx.params.owner ?? null);
        return {
          parcels: records.map(({ parcel, relay }) => ({
            id: parcel.id,
            organizationId: parcel.organizationId,
            mode: parcel.mode,
            trackingNumber: parcel.trackingNumber,
            status: parcel.status,
            relayCode: parcel.destinationRelayCode,
            relayWilaya: relay?.wilaya ?? null,
            codAmountDzd: parcel.codAmountCentimes === null ? null : toDzd(parcel.codAmountCentimes),
            declaredValueDzd: parcel.declaredValueCentimes === null ? null : toDzd(parcel.declaredValueCentimes),
            weightG: parcel.weightG,
            updatedAt: parcel.updatedAt.toISOString()
          }))
        };
      }
    }),

    // call parcels.createdParcels --owner '{"organizationId":"<uuid>","mode":"live"}'
    createdParcels: defineAction<CreatedParcelsParams, ParcelsThis>({
      visibility: "public",
      schema: CreatedParcelsSchema,
      async handler(ctx): Promise<{ parcelIds: string[] }> {
        return { parcelIds: await network.createdParcelIds(this.db, ctx.params.owner, ctx.params.limit) };
      }
    })
  }
};

export const NetworkMixin = mixin as Partial<ServiceSchema>;
