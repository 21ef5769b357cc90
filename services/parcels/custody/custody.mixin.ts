import type { Logger, ServiceBroker, ServiceSchema, ServiceSettingSchema } from "moleculer";
import { defineAction } from "../../../lib/action";
import { BackgroundLoop } from "../../../lib/background-loop";
import type { Database } from "../../../lib/db/database";
import { toCentimes } from "../../../lib/money";
import { pageOf, type Page } from "../../../lib/parcel-view";
import { AppError } from "../../../lib/errors";
import { configOf } from "../../../mixins/config.mixin";
import * as custody from "./custody.store";
import {
  InvestigationPageParams,
  InvestigationPageSchema,
  InvestigationPageViewSchema,
  InvestigationIdParams,
  InvestigationIdSchema,
  InvestigationView,
  InvestigationViewSchema,
  RecordCustodyParams,
  RecordCustodySchema,
  RunLossPassParams,
  RunLossPassSchema
} from "./custody.params";
import { closeByOperator, recordCustody } from "./investigations";
import { lossPass, LossDeps, LossPassResult } from "./loss-pass";

interface CustodyThis {
  db: Database;
  logger: Logger;
  broker: ServiceBroker;
  /** The loss pass of this instance; started by the service once the database is open (parcels.service.ts). */
  lossLoop: BackgroundLoop<LossPassResult>;
  runRelay(): Promise<number>;
}

const view = (i: custody.InvestigationRecord): InvestigationView => ({
  id: i.id,
  parcelId: i.parcelId,
  trackingNumber: i.trackingNumber,
  status: i.status,
  reason: i.reason,
  lastHolder: i.holder && i.holderSince ? { holder: i.holder, name: i.holderName, since: i.holderSince.toISOString() } : null,
  disputeId: i.disputeId,
  openedAt: i.openedAt.toISOString(),
  closedAt: i.closedAt?.toISOString() ?? null,
  outcome: i.outcome
});

function lossDeps(service: CustodyThis): LossDeps {
  const config = configOf(service.broker);
  return {
    db: service.db,
    logger: service.logger,
    caller: service.broker,
    policy: { ...config.loss, capCentimes: toCentimes(config.claimCapDzd) }
  };
}

/**
 * Custody and loss detection (issue 44 D, decision 0056), as actions of `parcels`: logistics
 * tells who holds a parcel after each scan, a pass looks for parcels silent in the network's hands,
 * and operators read the investigations queue.
 */
const mixin: Partial<ServiceSchema<ServiceSettingSchema, object, CustodyThis>> = {
  actions: {
    // call parcels.recordCustody --parcelId <uuid> --holder courier --since 2026-12-06T10:00:00Z --name Yacine
    recordCustody: defineAction<RecordCustodyParams, CustodyThis>({
      visibility: "public",
      schema: RecordCustodySchema,
      async handler(ctx): Promise<{ recorded: boolean }> {
        const { parcelId, holder, since, name, wilaya } = ctx.params;
        const answer = await recordCustody(this.db, parcelId, {
          holder,
          since: new Date(since),
          name: name ?? null,
          wilaya: wilaya ?? null
        });
        if (answer.recorded) void this.runRelay();
        return answer;
      }
    }),

    // call parcels.runLossPass --now 2026-12-09T10:00:00Z
    runLossPass: defineAction<RunLossPassParams, CustodyThis>({
      visibility: "public",
      schema: RunLossPassSchema,
      async handler(ctx): Promise<LossPassResult> {
        const result = await lossPass(lossDeps(this), ctx.params.now ? new Date(ctx.params.now) : new Date());
        if (result.opened + result.lost + result.dismissed > 0) await this.runRelay();
        return result;
      }
    }),

    listInvestigations: defineAction<InvestigationPageParams, CustodyThis>({
      rest: "GET /investigations",
      api: "backoffice",
      schema: InvestigationPageSchema,
      endpoint: {
        operationId: "listInvestigations",
        summary: "Parcels the network is looking for",
        description:
          "Open investigations, oldest first: parcels a courier or a hub held with no scan for LOSS_INVESTIGATION_HOURS (NO_SCAN), " +
          "and offline hand-overs the recipient disputes (HANDOVER_DISPUTED), each with its last holder and since when. A scan " +
          "closes a NO_SCAN investigation; past LOSS_LOST_DAYS the parcel is LOST and a claim is opened for its merchant.",
        tag: "Network",
        response: InvestigationPageViewSchema,
        responseDescription: "A page of open investigations."
      },
      async handler(ctx): Promise<Page<InvestigationView>> {
        const { records, total } = await custody.listOpenInvestigations(this.db, ctx.params);
        return pageOf(records.map(view), ctx.params.page, ctx.params.size, total);
      }
    }),

    closeInvestigation: defineAction<InvestigationIdParams, CustodyThis>({
      rest: "POST /investigations/:id/close",
      api: "backoffice",
      schema: InvestigationIdSchema,
      endpoint: {
        operationId: "closeInvestigation",
        summary: "Close an investigation",
        description:
          "A dispute settled, or a parcel found: the investigation closes as DISMISSED and the merchant gets " +
          "parcel.investigation_closed. Closing a closed investigation answers it as it is (once, however often it is sent). A " +
          "NO_SCAN investigation of a parcel still without a scan opens again at the next pass: only a scan ends the silence.",
        tag: "Network",
        response: InvestigationViewSchema,
        responseDescription: "The investigation, closed.",
        errors: ["NOT_FOUND"]
      },
      async handler(ctx): Promise<InvestigationView> {
        const closed = await closeByOperator(this.db, ctx.params.id).finally(() => void this.runRelay());
        if (!closed) throw new AppError("NOT_FOUND", "No such investigation");
        return view(closed);
      }
    })
  },

  created(this: CustodyThis) {
    this.lossLoop = new BackgroundLoop(
      () =>
        lossPass(lossDeps(this)).then(result => {
          if (result.opened + result.lost + result.dismissed > 0) void this.runRelay();
          return result;
        }),
      configOf(this.broker).loss.passIntervalMs,
      err => this.logger.warn("loss pass failed:", err.message)
    );
  }
};

export const CustodyMixin = mixin as Partial<ServiceSchema>;
