import type { KeyObject } from "node:crypto";
import type { ServiceBroker, ServiceSchema, ServiceSettingSchema } from "moleculer";
import { configOf } from "../../../mixins/config.mixin";
import { defineAction } from "../../../lib/action";
import type { Database } from "../../../lib/db/database";
import { Joi } from "../../../lib/joi";
import { parseTrackingInput, MAX_TRACKING_INPUT_LENGTH } from "../../../lib/tracking-number";
import { isPassLinkToken } from "../../../lib/pass-link";
import { passSigningKey, signPass } from "./pass-signature";
import { passSubject } from "./pickup-pass.store";
import { offlinePinHandoverOf } from "../relay/offline-handovers.store";

/**
 * The pickup pass (issue 43, decision 0047) as the tracking page asks for it: the page opened from
 * the SMS link (its per-parcel key) shows the parcel's current pass while it waits on the shelf.
 * The signing key is PICKUP_PASS_SIGNING_KEY; a parcels service started without it (only a test's
 * broker can be: bin/ refuses to start one) signs no pass and its counter apps get no public key.
 */

export interface PickupPassVars {
  db: Database;
  encryptionKey: string;
  /** Null when no key was configured: no pass is shown, and none is accepted. */
  passSigningKey: KeyObject | null;
}

/** A parcel and the key of its SMS link: what the tracking page's pass and "not me" form are asked with. */
export interface PassKeyParams {
  trackingNumber: string;
  key: string;
}
export const PassKeySchema = Joi.object<PassKeyParams, true>({
  trackingNumber: Joi.string().min(1).max(MAX_TRACKING_INPUT_LENGTH).required(),
  key: Joi.string().min(1).max(64).required()
});

/**
 * What the tracking page gets: null for a key that is not the parcel's (the page is then the
 * public one); `notMe` when the parcel was handed over offline against its PIN (the page offers to
 * dispute it).
 */
export type PickupPassAnswer = { pass: string | null; notMe: boolean } | null;

const ON_SHELF = ["AT_RELAY", "RELAY_NOTIFIED"];

const mixin: Partial<ServiceSchema<ServiceSettingSchema, object, PickupPassVars>> = {
  actions: {
    // call parcels.pickupPass --trackingNumber RP123456785DZ --key ABCDEFGHIJKLM
    pickupPass: defineAction<PassKeyParams, PickupPassVars>({
      visibility: "public",
      schema: PassKeySchema,
      async handler(ctx): Promise<PickupPassAnswer> {
        const number = parseTrackingInput(ctx.params.trackingNumber);
        const parcel = number.ok ? await passSubject(this.db, number.trackingNumber) : null;
        if (!parcel || parcel.mode !== "live" || !isPassLinkToken(parcel.trackingNumber, ctx.params.key, this.encryptionKey)) return null;
        if (parcel.status === "DELIVERED") return { pass: null, notMe: (await offlinePinHandoverOf(this.db, parcel.id)) !== null };
        if (!ON_SHELF.includes(parcel.status) || this.passSigningKey === null) return { pass: null, notMe: false };
        return { pass: signPass(this.passSigningKey, parcel.trackingNumber, parcel.relayCode, parcel.passVersion), notMe: false };
      }
    })
  },

  // The config is read from the broker: a mixin's created runs before ConfigMixin's sets this.config.
  created(this: PickupPassVars & { broker: ServiceBroker }) {
    const seed = configOf(this.broker).secrets.pickupPassSigningKey;
    this.passSigningKey = seed ? passSigningKey(seed) : null;
  }
};

export const PickupPassMixin = mixin as Partial<ServiceSchema>;
