import { randomUUID } from "node:crypto";
import type { Logger, ServiceSchema, ServiceSettingSchema } from "moleculer";
import { defineAction } from "../../../lib/action";
import type { Database } from "../../../lib/db/database";
import { pageOf, type Page } from "../../../lib/parcel-view";
import { parseTrackingInput } from "../../../lib/tracking-number";
import { isPassLinkToken } from "../../../lib/pass-link";
import { PassKeyParams, PassKeySchema } from "../pickup-pass/pickup-pass.mixin";
import { passSubject } from "../pickup-pass/pickup-pass.store";
import { openDisputeInvestigation } from "../custody/investigations";
import * as store from "./offline-handovers.store";
import {
  HandoverDisputePageSchema,
  HandoverDisputeView,
  OfflinePinFlagPageSchema,
  OfflinePinFlagView,
  PageParams,
  PageParamsSchema
} from "./offline-checks.params";

/**
 * What the operators see of offline hand-overs (issue 43, decision 0047): parcels whose PIN was
 * tried more than five times on devices offline, and the recipients' "not me" on an offline PIN
 * hand-over, recorded from the tracking page opened from their SMS.
 */

interface OfflineChecksThis {
  db: Database;
  encryptionKey: string;
  logger: Logger;
}

/**
 * Where a dispute goes once recorded: into the investigations queue (issue 44 D,
 * GET /investigations, reason HANDOVER_DISPUTED) with its parcel.investigation_opened webhook, and
 * the log. The investigation's unique index keeps one open per parcel.
 */
export async function openInvestigation(db: Database, logger: Logger, dispute: store.HandoverDispute, parcelId: string): Promise<void> {
  logger.warn(
    `hand-over dispute ${dispute.id}: the recipient of ${dispute.trackingNumber} says the offline hand-over at ` +
      `${dispute.relayCode} (${dispute.handedOverAt.toISOString()}) was not them`
  );
  await openDisputeInvestigation(db, { id: dispute.id, parcelId });
}

const view = (d: store.HandoverDispute): HandoverDisputeView => ({
  id: d.id,
  trackingNumber: d.trackingNumber,
  relayCode: d.relayCode,
  handedOverAt: d.handedOverAt.toISOString(),
  createdAt: d.createdAt.toISOString()
});

const mixin: Partial<ServiceSchema<ServiceSettingSchema, object, OfflineChecksThis>> = {
  actions: {
    listOfflinePinFlags: defineAction<PageParams, OfflineChecksThis>({
      rest: "GET /offline-pin-flags",
      api: "backoffice",
      schema: PageParamsSchema,
      endpoint: {
        operationId: "listOfflinePinFlags",
        summary: "Parcels flagged for offline PIN tries",
        description:
          "Parcels whose pick-up PIN devices tried more than five times offline (reported when each device synced): a phone's own " +
          "lock was cleared, or several phones tried. Newest first.",
        tag: "Relay points",
        response: OfflinePinFlagPageSchema,
        responseDescription: "A page of flagged parcels."
      },
      async handler(ctx): Promise<Page<OfflinePinFlagView>> {
        const { records, total } = await store.listOfflinePinFlags(this.db, ctx.params);
        const items = records.map(r => ({ ...r, flaggedAt: r.flaggedAt.toISOString() }));
        return pageOf(items, ctx.params.page, ctx.params.size, total);
      }
    }),

    listHandoverDisputes: defineAction<PageParams, OfflineChecksThis>({
      rest: "GET /handover-disputes",
      api: "backoffice",
      schema: PageParamsSchema,
      endpoint: {
        operationId: "listHandoverDisputes",
        summary: "Hand-overs the recipient disputes",
        description:
          "Offline PIN hand-overs whose recipient answered the confirmation SMS's \"not me\" (the tracking page's form). Newest first.",
        tag: "Relay points",
        response: HandoverDisputePageSchema,
        responseDescription: "A page of disputes."
      },
      async handler(ctx): Promise<Page<HandoverDisputeView>> {
        const { records, total } = await store.listDisputes(this.db, ctx.params);
        return pageOf(records.map(view), ctx.params.page, ctx.params.size, total);
      }
    }),

    // The tracking page's "not me" form (gateway/tracking-page), opened from the SMS link with the parcel's key.
    // call parcels.disputeHandover --trackingNumber RP123456785DZ --key ABCDEFGHIJKLM
    disputeHandover: defineAction<PassKeyParams, OfflineChecksThis>({
      visibility: "public",
      schema: PassKeySchema,
      async handler(ctx): Promise<{ recorded: boolean }> {
        const number = parseTrackingInput(ctx.params.trackingNumber);
        const parcel = number.ok ? await passSubject(this.db, number.trackingNumber) : null;
        if (!parcel || parcel.status !== "DELIVERED") return { recorded: false };
        if (!isPassLinkToken(parcel.trackingNumber, ctx.params.key, this.encryptionKey)) return { recorded: false };
        const handover = await store.offlinePinHandoverOf(this.db, parcel.id);
        if (!handover) return { recorded: false };
        const { dispute, created } = await store.recordDispute(this.db, {
          id: randomUUID(),
          parcelId: parcel.id,
          trackingNumber: parcel.trackingNumber,
          relayCode: handover.relayCode,
          handedOverAt: handover.occurredAt
        });
        if (created) await openInvestigation(this.db, this.logger, dispute, parcel.id);
        return { recorded: true };
      }
    })
  }
};

export const OfflineChecksMixin = mixin as Partial<ServiceSchema>;
