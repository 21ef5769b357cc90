import type { ServiceSchema, ServiceSettingSchema } from "moleculer";
import { defineAction } from "../../../lib/action";
import { Joi } from "../../../lib/joi";
import { uuid } from "../../../lib/schemas";
import type { ParcelsThis } from "../parcels-this";
import { OutForDeliveryResult, recordOutForDelivery } from "./out-for-delivery";
import { ReturnAtRelay, returnsAtRelays } from "./relay-returns";
import { toDzd } from "../../../lib/money";
import { cashAtRelays } from "../cash/cash-custody";
import type { RelayCashWaiting } from "./delivery.contract";
import "./delivery.contract";
import { wilayaCodeSchema } from "../../../lib/wilayas";
import { relaysToVisitIn } from "./network.store";

interface OutForDeliveryParams {
  parcelId: string;
  relayCode: string;
  actor: string;
}
const OutForDeliverySchema = Joi.object<OutForDeliveryParams, true>({
  parcelId: uuid().required(),
  relayCode: Joi.string().max(40).required(),
  actor: Joi.string().max(40).required()
});

interface ReturnsAtRelaysParams {
  relayCodes: string[];
}
const ReturnsAtRelaysSchema = Joi.object<ReturnsAtRelaysParams, true>({
  relayCodes: Joi.array().items(Joi.string().max(40)).max(500).required()
});

interface RelaysToVisitParams {
  wilaya: string;
}
const RelaysToVisitSchema = Joi.object<RelaysToVisitParams, true>({ wilaya: wilayaCodeSchema().required() });

/** Issue 44 C: the last leg, as logistics asks it of parcels (decision 0057); issue 45: the cash waiting at its relay points, and which relay points a run visits for their returns and cash alone. */
const mixin: Partial<ServiceSchema<ServiceSettingSchema, object, ParcelsThis>> = {
  actions: {
    // call parcels.outForDelivery --parcelId <uuid> --relayCode <code> --actor courier
    outForDelivery: defineAction<OutForDeliveryParams, ParcelsThis>({
      visibility: "public",
      schema: OutForDeliverySchema,
      async handler(ctx): Promise<OutForDeliveryResult> {
        const result = await recordOutForDelivery(this.db, ctx.params);
        if (result.outcome === "recorded") void this.runRelay();
        return result;
      }
    }),

    // call parcels.returnsAtRelays --relayCodes '["DZ-16-…"]'
    returnsAtRelays: defineAction<ReturnsAtRelaysParams, ParcelsThis>({
      visibility: "public",
      schema: ReturnsAtRelaysSchema,
      async handler(ctx): Promise<{ returns: ReturnAtRelay[] }> {
        return { returns: await returnsAtRelays(this.db, ctx.params.relayCodes) };
      }
    }),

    // call parcels.cashAtRelays --relayCodes '["DZ-16-…"]'
    cashAtRelays: defineAction<ReturnsAtRelaysParams, ParcelsThis>({
      visibility: "public",
      schema: ReturnsAtRelaysSchema,
      async handler(ctx): Promise<{ cash: RelayCashWaiting[] }> {
        const cash = await cashAtRelays(this.db, ctx.params.relayCodes);
        return { cash: cash.map(c => ({ relayCode: c.relayCode, closedDzd: toDzd(c.countedCentimes), denominations: c.denominations })) };
      }
    }),

    // call parcels.relaysToVisit --wilaya 16
    relaysToVisit: defineAction<RelaysToVisitParams, ParcelsThis>({
      visibility: "public",
      schema: RelaysToVisitSchema,
      async handler(ctx): Promise<{ relayCodes: string[] }> {
        return { relayCodes: await relaysToVisitIn(this.db, ctx.params.wilaya) };
      }
    })
  }
};

export const DeliveryMixin = mixin as Partial<ServiceSchema>;
