import type { Context, Logger, ServiceSchema, ServiceSettingSchema } from "moleculer";
import { defineAction } from "../../../lib/action";
import { decryptField } from "../../../lib/crypto";
import type { Database } from "../../../lib/db/database";
import { Page, pageOf, pageSchema } from "../../../lib/parcel-view";
import type { PartnerMeta } from "../../../lib/principal";
import { maskPhone } from "../../../lib/recipient-phone";
import { NoParams, NoParamsSchema } from "../../../lib/schemas";
import { normaliseStoredPhones } from "./phone-normalisation";
import {
  NonMobilePhoneItem,
  NonMobilePhoneItemView,
  NonMobilePhonesParams,
  NonMobilePhonesSchema,
  ParcelUnreachableParams,
  ParcelUnreachableSchema,
  RecipientSettingsSchema,
  RecipientSettingsView,
  TrackingNumberLangParams,
  TrackingNumberLangSchema,
  TrackingNumberSchema
} from "./recipient.params";
import { RecipientSettings, recipientSettingsOf, setRecipientSettings } from "./recipient-settings.store";
import { nonMobilePhones, recipientLanguageOf, setRecipientLanguage } from "./recipient.store";
import type { Lang } from "../../../lib/languages";
import { recordRecipientUnreachable } from "./unreachable";
import type { RecipientSettingsCache } from "./recipient-settings-cache";

interface RecipientThis {
  db: Database;
  logger: Logger;
  encryptionKey: string;
  owner(ctx: Context<unknown, PartnerMeta>): { organizationId: string; mode: PartnerMeta["auth"]["mode"] };
  runRelay(): Promise<number>;
  recipientSettings: RecipientSettingsCache;
}

const NonMobilePhonePage = pageSchema(
  "NonMobilePhonePage",
  NonMobilePhoneItemView,
  "Parcels whose recipient's number cannot take SMS, newest first.",
  "One page of them."
);

/**
 * The recipient's side of a parcel (issue 30), as actions of `parcels`: the merchant's recipient
 * settings, the operators' list of numbers that cannot take SMS, and what `notifications` and the
 * tracking page ask for (the unreachable event, the language the recipient picked).
 */
const mixin: Partial<ServiceSchema<ServiceSettingSchema, object, RecipientThis>> = {
  actions: {
    getRecipientSettings: defineAction<NoParams, RecipientThis, PartnerMeta>({
      rest: "GET /recipient-settings",
      api: "partner",
      scope: "parcels:read",
      schema: NoParamsSchema,
      endpoint: {
        operationId: "getRecipientSettings",
        summary: "Read the recipient settings",
        description:
          "How your recipients' phone numbers are checked and which language their SMS use when a parcel names none (per mode: " +
          "live or sandbox, as the key). Until you set them: numbers that cannot take SMS are accepted with a warning, French.",
        tag: "Parcels",
        response: RecipientSettingsView,
        responseDescription: "The settings."
      },
      handler(ctx): Promise<RecipientSettings> {
        return recipientSettingsOf(this.db, this.owner(ctx));
      }
    }),

    putRecipientSettings: defineAction<RecipientSettings, RecipientThis, PartnerMeta>({
      rest: "PUT /recipient-settings",
      api: "partner",
      scope: "parcels:write",
      schema: RecipientSettingsSchema,
      endpoint: {
        operationId: "setRecipientSettings",
        summary: "Set the recipient settings",
        description:
          "rejectNonMobilePhones: true refuses, with 400 RECIPIENT_PHONE_INVALID, a recipientPhone that cannot take SMS at create, " +
          "quote and batch; defaultLanguage is the SMS language of parcels created without recipientLanguage. Parcels already " +
          "created keep theirs.",
        tag: "Parcels",
        response: RecipientSettingsView,
        responseDescription: "The settings, as stored.",
        body: { name: "RecipientSettingsRequest", description: "Both settings." }
      },
      async handler(ctx): Promise<RecipientSettings> {
        await setRecipientSettings(this.db, this.owner(ctx), ctx.params);
        this.recipientSettings.forget(this.owner(ctx));
        return { rejectNonMobilePhones: ctx.params.rejectNonMobilePhones, defaultLanguage: ctx.params.defaultLanguage };
      }
    }),

    listNonMobilePhones: defineAction<NonMobilePhonesParams, RecipientThis>({
      rest: "GET /recipient-phones/not-mobile",
      api: "backoffice",
      schema: NonMobilePhonesSchema,
      endpoint: {
        operationId: "listNonMobileRecipientPhones",
        summary: "Parcels whose recipient cannot get SMS",
        description:
          "Every outbound parcel, live or sandbox, whose recipient's number is not a mobile number: accepted with a warning at " +
          "create, or stored before numbers were checked and found so at start-up (decision 0036). The number is masked. Such " +
          "parcels get no SMS: their recipients must be told another way.",
        tag: "Parcels",
        response: NonMobilePhonePage,
        responseDescription: "One page, newest first."
      },
      async handler(ctx): Promise<Page<NonMobilePhoneItem>> {
        const { page, size } = ctx.params;
        const { rows, total } = await nonMobilePhones(this.db, page, size);
        const items = rows.map(row => ({
          parcelId: row.id,
          trackingNumber: row.trackingNumber,
          organizationId: row.organizationId,
          mode: row.mode,
          status: row.status,
          phoneMasked: maskedOrUnknown(row.phoneEnc, this.encryptionKey),
          createdAt: row.createdAt.toISOString()
        }));
        return pageOf(items, page, size, total);
      }
    }),

    // call parcels.recipientUnreachable --parcelId <uuid>
    recipientUnreachable: defineAction<ParcelUnreachableParams, RecipientThis>({
      visibility: "public",
      schema: ParcelUnreachableSchema,
      async handler(ctx): Promise<{ recorded: boolean }> {
        const outcome = await recordRecipientUnreachable(this.db, ctx.params.parcelId);
        if (outcome.recorded) void this.runRelay();
        return outcome;
      }
    }),

    // call parcels.setRecipientLanguage --trackingNumber RP… --lang ar
    setRecipientLanguage: defineAction<TrackingNumberLangParams, RecipientThis>({
      visibility: "public",
      schema: TrackingNumberLangSchema,
      async handler(ctx): Promise<{ changed: boolean }> {
        return { changed: await setRecipientLanguage(this.db, ctx.params.trackingNumber, ctx.params.lang) };
      }
    }),

    // call parcels.recipientLanguageOf --trackingNumber RP…
    recipientLanguageOf: defineAction<{ trackingNumber: string }, RecipientThis>({
      visibility: "public",
      schema: TrackingNumberSchema,
      async handler(ctx): Promise<{ lang: Lang } | null> {
        const lang = await recipientLanguageOf(this.db, ctx.params.trackingNumber);
        return lang ? { lang } : null;
      }
    }),

    // call parcels.normaliseStoredPhones
    normaliseStoredPhones: defineAction<NoParams, RecipientThis>({
      visibility: "public",
      schema: NoParamsSchema,
      handler(): Promise<{ checked: number; notMobile: number }> {
        return normaliseStoredPhones(this.db, this.encryptionKey, this.logger);
      }
    })
  }
};

function maskedOrUnknown(phoneEnc: string, encryptionKey: string): string {
  try {
    return maskPhone(decryptField(phoneEnc, encryptionKey));
  } catch {
    return "***";
  }
}

export const RecipientMixin = mixin as Partial<ServiceSchema>;
