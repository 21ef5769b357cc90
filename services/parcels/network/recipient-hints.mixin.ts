import type { ServiceSchema, ServiceSettingSchema } from "moleculer";
import { defineAction } from "../../../lib/action";
import { decryptField } from "../../../lib/crypto";
import type { ParcelsThis } from "../parcels-this";
import * as store from "../parcels.store";
import { NetworkParcelsParams, NetworkParcelsSchema } from "./network.params";
import { recipientHint } from "./recipient-hints";

/** Issue 44: the manifest's recipient hints (logistics asks, once per manifest, when it is made). */
const mixin: Partial<ServiceSchema<ServiceSettingSchema, object, ParcelsThis>> = {
  actions: {
    // call parcels.recipientHints --parcelIds '["<uuid>"]'
    recipientHints: defineAction<NetworkParcelsParams, ParcelsThis>({
      visibility: "public",
      schema: NetworkParcelsSchema,
      async handler(ctx): Promise<{ hints: Record<string, string> }> {
        const records = await store.labelRecords(this.db, ctx.params.parcelIds ?? [], ctx.params.owner ?? null);
        const hints: Record<string, string> = {};
        for (const { parcel } of records) {
          try {
            hints[parcel.id] = recipientHint(
              decryptField(parcel.recipientNameEnc, this.encryptionKey),
              decryptField(parcel.recipientPhoneEnc, this.encryptionKey)
            );
          } catch {
            // Personal data erased after its retention period (issue 48): nothing left to hint at.
            hints[parcel.id] = "—";
          }
        }
        return { hints };
      }
    })
  }
};

export const RecipientHintsMixin = mixin as Partial<ServiceSchema>;
