import type { ServiceSchema, ServiceSettingSchema } from "moleculer";
import { defineAction } from "../../../lib/action";
import type { AgentMeta } from "../../../lib/agent-keys";
import { decryptField } from "../../../lib/crypto";
import type { Database } from "../../../lib/db/database";
import { toDzd } from "../../../lib/money";
import { component, amountDzd, dateTime, nullable, objectOf } from "../../../lib/openapi/json-schema";
import { TRACKING_NUMBER_PATTERN } from "../../../lib/parcel-view";
import { NoParams, NoParamsSchema } from "../../../lib/schemas";
import { OfflineVerifier, offlineVerifier, pinVersionOf, VERIFIER_ALG } from "./offline-verifier";
import * as store from "./relay.store";
import { remindFromCounter } from "./counter-reminder";
import { ParcelNumberParams, ParcelNumberSchema } from "./relay.params";
import { IdempotentMeta, relayIdempotently } from "./relay-idempotency";
import { RELAY_IDEMPOTENCY_KEY_HEADER } from "../../../lib/idempotency";
import type { AppConfig } from "../../../lib/config";
import { verifierAllowed } from "./offline-pin-limits";
import { pinHandoversOnDay } from "./offline-handovers.store";

interface OfflineThis {
  db: Database;
  encryptionKey: string;
  config: AppConfig;
}

export interface OfflineVerifiersView {
  items: Array<{ trackingNumber: string; codToCollectDzd: number | null; pinVersion: number; verifier: OfflineVerifier }>;
  pinHandoversLeftToday: number;
  generatedAt: string;
}

const OfflineVerifiersSchema = component(
  "RelayOfflineVerifiers",
  objectOf<OfflineVerifiersView>({
    items: {
      type: "array",
      description:
        "One per parcel on this shelf (AT_RELAY, RELAY_NOTIFIED) with a pick-up PIN that the operator's limits let a phone hand " +
        "over offline: none for a COD parcel (unless OFFLINE_PIN_FOR_COD), one declared above OFFLINE_PIN_MAX_DECLARED_VALUE_DZD, " +
        "or one locked by wrong PINs. Any other parcel is handed over offline with the recipient's pickup pass, or online.",
      items: objectOf<OfflineVerifiersView["items"][number]>({
        trackingNumber: { type: "string", pattern: TRACKING_NUMBER_PATTERN },
        codToCollectDzd: nullable(amountDzd("The cash to take at hand-over; null when there is none.")),
        pinVersion: { type: "integer", minimum: 0, description: "Changes when the PIN is reset; send it with an offline hand-over." },
        verifier: objectOf<OfflineVerifier>({
          alg: { type: "string", enum: [VERIFIER_ALG] },
          salt: { type: "string", format: "byte", description: "Base64." },
          iterations: { type: "integer", minimum: 1 },
          hash: { type: "string", format: "byte", description: "Base64 of the 32-byte PBKDF2-HMAC-SHA256 of the PIN's 6 digits (UTF-8)." }
        })
      })
    },
    pinHandoversLeftToday: {
      type: "integer",
      minimum: 0,
      description:
        "Offline PIN hand-overs this device may still record today (Algiers day; OFFLINE_PIN_HANDOVERS_PER_DEVICE_PER_DAY): " +
        "past them the server refuses one with 409 OFFLINE_PIN_REFUSED."
    },
    generatedAt: dateTime("When this list was made, UTC: fetch it again at least every hour while online.")
  })
);

/**
 * Offline hand-overs (issue 27, decision 0032): what a phone needs to check a PIN without the
 * network, for the parcels on its shelf only. The queued hand-over is judged again by the server
 * when it arrives (counter.ts), under its own rules.
 */
const mixin: Partial<ServiceSchema<ServiceSettingSchema, object, OfflineThis>> = {
  actions: {
    relayReminder: defineAction<ParcelNumberParams, OfflineThis, IdempotentMeta>({
      rest: "POST /parcels/:trackingNumber/reminders",
      api: "relay",
      schema: ParcelNumberSchema,
      endpoint: {
        operationId: "remindRecipient",
        summary: "Remind a late collector",
        description:
          "Sends the recipient of a parcel on this shelf the pick-up reminder SMS (the holding period's, with its deadline; the " +
          "merchant gets parcel.pickup_reminder). At most once in 24 hours per parcel: 409 CONFLICT otherwise.",
        tag: "Shelf",
        status: 202,
        responseDescription: "The reminder is on its way.",
        errors: ["PARCEL_NOT_FOUND", "INVALID_TRANSITION", "IDEMPOTENCY_KEY_REUSED", "IDEMPOTENCY_KEY_IN_USE", "CONFLICT"],
        parameters: [RELAY_IDEMPOTENCY_KEY_HEADER]
      },
      handler(ctx): Promise<null> {
        return relayIdempotently(this.db, ctx, "reminder", async () => {
          await remindFromCounter(this.db, ctx.meta.agent, ctx.params.trackingNumber);
          return null;
        });
      }
    }),

    relayOfflineVerifiers: defineAction<NoParams, OfflineThis, AgentMeta>({
      rest: "GET /offline-verifiers",
      api: "relay",
      schema: NoParamsSchema,
      endpoint: {
        operationId: "getRelayOfflineVerifiers",
        summary: "PIN verifiers for offline hand-overs",
        description:
          "For each parcel on this shelf that the operator's limits let a phone hand over offline with the PIN (no COD by default, " +
          "nothing declared above a value, nothing locked): a salted slow hash of its pick-up PIN (PBKDF2-HMAC-SHA256, WebCrypto can recompute it), " +
          "never the PIN, its version and the cash to collect; so that the app can check a PIN and record a cash hand-over " +
          "without the network (five wrong tries lock it on the device too). The queued hand-over is sent later with " +
          "offline: true and pinVersion; the server judges it again. Keep the list in memory only, replace it when it is fetched again.",
        tag: "Shelf",
        response: OfflineVerifiersSchema,
        responseDescription: "The verifiers."
      },
      async handler(ctx): Promise<OfflineVerifiersView> {
        const limits = this.config.offlinePin;
        const shelf = (await store.allAtCounter(this.db, ctx.meta.agent.relayCode, null)).filter(
          s =>
            (s.parcel.status === "AT_RELAY" || s.parcel.status === "RELAY_NOTIFIED") &&
            s.parcel.pickupPinEnc !== null &&
            verifierAllowed(s.parcel, limits)
        );
        const items = [];
        for (const { parcel } of shelf) {
          const pin = decryptField(parcel.pickupPinEnc!, this.encryptionKey);
          items.push({
            trackingNumber: parcel.trackingNumber,
            codToCollectDzd: parcel.codStatus === "PENDING" && parcel.codAmountCentimes !== null ? toDzd(parcel.codAmountCentimes) : null,
            pinVersion: pinVersionOf(parcel.pickupPinEnc!),
            verifier: await offlineVerifier({ id: parcel.id, pickupPinEnc: parcel.pickupPinEnc! }, pin, this.encryptionKey)
          });
        }
        const now = new Date();
        const done = await pinHandoversOnDay(this.db, ctx.meta.agent.keyId, now);
        return { items, pinHandoversLeftToday: Math.max(0, limits.perDevicePerDay - done), generatedAt: now.toISOString() };
      }
    })
  }
};

export const OfflineMixin = mixin as Partial<ServiceSchema>;
