import type { Context, ServiceSchema, ServiceSettingSchema } from "moleculer";
import { defineAction } from "../../../lib/action";
import type { Database } from "../../../lib/db/database";
import { AppError } from "../../../lib/errors";
import { ParcelView, ParcelViewSchema } from "../../../lib/parcel-view";
import type { PartnerMeta } from "../../../lib/principal";
import { PublicTracking, toPublicTracking } from "../../../lib/public-tracking";
import { parseTrackingInput } from "../../../lib/tracking-number";
import * as parcels from "../parcels.store";
import { PublicTrackingView } from "../public-tracking.params";
import { issueRedirectCode, redirectByMerchant, redirectByRecipient, RedirectDeps } from "./redirect";
import {
  MERCHANT_REDIRECT_DESCRIPTION,
  MerchantRedirectParams,
  MerchantRedirectSchema,
  RECIPIENT_REDIRECT_DESCRIPTION,
  RecipientRedirectParams,
  RecipientRedirectSchema,
  VERIFICATION_DESCRIPTION,
  VerificationAnswer,
  VerificationParams,
  VerificationSchema,
  VerificationView
} from "./redirect.params";
import { CODE_VALID_SECONDS } from "./redirect";

interface RedirectThis {
  db: Database;
  config: { closureNoticeDays: number };
  encryptionKey: string;
  logger: import("moleculer").Logger;
  broker: import("moleculer").ServiceBroker;
  owner(ctx: Context<unknown, PartnerMeta>): parcels.Owner;
  viewsOf(ctx: Context, records: parcels.ParcelRecord[]): Promise<ParcelView[]>;
  runRelay(): Promise<number>;
}

const VERIFICATION_ANSWER: VerificationAnswer = Object.freeze({
  message:
    "If this parcel can still change relay point, a 6-digit code was sent by SMS to the recipient's phone. Enter it with the " +
    "new relay point.",
  codeValidSeconds: CODE_VALID_SECONDS
});

const deps = (self: RedirectThis): RedirectDeps => ({
  db: self.db,
  encryptionKey: self.encryptionKey,
  logger: self.logger,
  caller: self.broker,
  closureNoticeDays: self.config.closureNoticeDays
});

/**
 * Redirects before arrival (issue 21), as actions of `parcels`: the merchant's, and the
 * recipient's on the public API (the tracking pages call the same actions). The rules are in
 * redirect.ts and redirect-rules.ts.
 */
const mixin: Partial<ServiceSchema<ServiceSettingSchema, object, RedirectThis>> = {
  actions: {
    redirect: defineAction<MerchantRedirectParams, RedirectThis, PartnerMeta>({
      rest: "POST /parcels/:id/redirect",
      api: "partner",
      scope: "parcels:write",
      schema: MerchantRedirectSchema,
      endpoint: {
        operationId: "redirectParcel",
        summary: "Send a parcel to another relay point",
        description: MERCHANT_REDIRECT_DESCRIPTION,
        tag: "Parcels",
        response: ParcelViewSchema,
        responseDescription: "Redirected: the parcel with its new destinationRelayCode.",
        errors: [
          "PARCEL_NOT_FOUND",
          "RELAY_NOT_FOUND",
          "PARCEL_ALREADY_AT_RELAY",
          "REDIRECT_LIMIT",
          "RELAY_FULL",
          "RELAY_CLOSED",
          "INVALID_TRANSITION"
        ],
        body: { name: "ParcelRedirectRequest", description: "The new relay point." }
      },
      async handler(ctx) {
        const { id, destinationRelayCode } = ctx.params;
        const parcel = await redirectByMerchant(deps(this), this.owner(ctx), id, destinationRelayCode).finally(() => void this.runRelay());
        return (await this.viewsOf(ctx, [parcel]))[0];
      }
    }),

    requestRedirectCode: defineAction<VerificationParams, RedirectThis>({
      rest: "POST /tracking/:trackingNumber/verification",
      api: "public",
      schema: VerificationSchema,
      endpoint: {
        operationId: "requestRedirectCode",
        summary: "Send the recipient a code to change the relay point",
        description: VERIFICATION_DESCRIPTION,
        tag: "Public tracking",
        status: 202,
        response: VerificationView,
        responseDescription: "Always, for any number."
      },
      handler(ctx): VerificationAnswer {
        // The answer leaves before anything is looked up, so neither its body nor its time says
        // whether the number exists or got a code; the outcome shows only on the recipient's phone.
        const typed = ctx.params.trackingNumber;
        setImmediate(() => {
          issueRedirectCode(deps(this), typed).catch(err => this.logger.warn(`redirect code not sent: ${(err as Error).message}`));
        });
        return VERIFICATION_ANSWER;
      }
    }),

    // For tests and the tracking pages' own use: the same as the public call, awaited.
    // call parcels.issueRedirectCode --trackingNumber RP123456785DZ
    issueRedirectCode: defineAction<VerificationParams, RedirectThis>({
      visibility: "public",
      schema: VerificationSchema,
      async handler(ctx): Promise<{ outcome: "sent" | "refused" }> {
        return { outcome: await issueRedirectCode(deps(this), ctx.params.trackingNumber) };
      }
    }),

    recipientRedirect: defineAction<RecipientRedirectParams, RedirectThis>({
      rest: "POST /tracking/:trackingNumber/redirect",
      api: "public",
      schema: RecipientRedirectSchema,
      endpoint: {
        operationId: "redirectParcelAsRecipient",
        summary: "Change the relay point, as the recipient (public, with the SMS code)",
        description: RECIPIENT_REDIRECT_DESCRIPTION,
        tag: "Public tracking",
        response: PublicTrackingView,
        responseDescription: "Redirected: where the parcel goes now.",
        errors: [
          "VERIFICATION_CODE_INVALID",
          "RELAY_NOT_FOUND",
          "PARCEL_ALREADY_AT_RELAY",
          "REDIRECT_LIMIT",
          "RELAY_FULL",
          "RELAY_CLOSED",
          "INVALID_TRANSITION"
        ],
        body: { name: "RecipientRedirectRequest", description: "The code of the SMS and the new relay point." }
      },
      async handler(ctx): Promise<PublicTracking> {
        await redirectByRecipient(deps(this), ctx.params).finally(() => void this.runRelay());
        const parsed = parseTrackingInput(ctx.params.trackingNumber);
        const source = parsed.ok ? await parcels.publicTrackingSource(this.db, parsed.trackingNumber) : null;
        const tracking = source && toPublicTracking(source);
        if (!tracking) throw new AppError("PARCEL_NOT_FOUND", "Parcel not found");
        return tracking;
      }
    })
  }
};

export const RedirectMixin = mixin as Partial<ServiceSchema>;
