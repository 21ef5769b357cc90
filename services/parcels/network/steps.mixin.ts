import type { ServiceSchema, ServiceSettingSchema } from "moleculer";
import { defineAction } from "../../../lib/action";
import type { ParcelsThis } from "../parcels-this";
import { recordNetworkStep } from "./steps";
import { RecordNetworkStepsParams, RecordNetworkStepsSchema } from "./steps.params";

/** Decision 0058: the network's steps that the status history cannot say, for the tracking page and parcel.missorted. */
const mixin: Partial<ServiceSchema<ServiceSettingSchema, object, ParcelsThis>> = {
  actions: {
    // call parcels.recordNetworkSteps --steps '[{"stepId":"<uuid>","parcelId":"<uuid>","kind":"at_hub","wilaya":"16","occurredAt":"2026-03-12T10:00:00Z"}]'
    recordNetworkSteps: defineAction<RecordNetworkStepsParams, ParcelsThis>({
      visibility: "public",
      schema: RecordNetworkStepsSchema,
      async handler(ctx) {
        const results = [];
        for (const step of ctx.params.steps) results.push(await recordNetworkStep(this.db, step));
        if (results.some(r => r.recorded)) void this.runRelay();
        return { results };
      }
    })
  }
};

export const NetworkStepsMixin = mixin as Partial<ServiceSchema>;
