import type { Context, ServiceSchema, ServiceSettingSchema } from "moleculer";
import { defineAction } from "../../lib/action";
import { algiersMonth } from "../../lib/cod";
import { call } from "../../lib/contract";
import type { Database } from "../../lib/db/database";
import { AppError } from "../../lib/errors";
import { requestLogger } from "../../lib/request-context";
import { toDzd } from "../../lib/money";
import { Page, pageOf } from "../../lib/parcel-view";
import type { PartnerMeta } from "../../lib/principal";
import { NoParams, NoParamsSchema } from "../../lib/schemas";
import {
  CodSettingsParams,
  CodSettingsSchema,
  CodSettingsView,
  CodSummary,
  CodSummarySchema,
  CreateRemittanceParams,
  CreateRemittanceSchema,
  OrganizationParams,
  OrganizationRemittanceParams,
  OrganizationRemittanceSchema,
  OrganizationSchema,
  RemittanceDetail,
  RemittanceDetailSchema,
  RemittanceIdParams,
  RemittanceIdSchema,
  RemittancePageParams,
  RemittancePageSchema,
  RemittancePageView,
  RemittanceView
} from "./cod.params";
import * as cod from "./cod.store";
import { createRemittance } from "./remittance";

interface CodThis {
  db: Database;
  logger: import("moleculer").Logger;
  broker: import("moleculer").ServiceBroker;
}

const REMITTANCE_NOT_FOUND = () => new AppError("REMITTANCE_NOT_FOUND", "Remittance not found");

function ownerOf(ctx: Context<unknown, PartnerMeta>) {
  return { organizationId: ctx.meta.auth.organizationId, mode: ctx.meta.auth.mode };
}

function toRemittanceView(r: cod.RemittanceRecord): RemittanceView {
  return {
    id: r.id,
    mode: r.mode,
    reference: r.reference,
    paidOn: r.paidOn,
    payout: r.payout,
    parcelCount: r.parcelCount,
    totalDzd: toDzd(r.totalCentimes),
    createdAt: r.createdAt.toISOString()
  };
}

export async function detailOf(db: Database, r: cod.RemittanceRecord): Promise<RemittanceDetail> {
  const parcels = await cod.remittanceParcels(db, r.id);
  return {
    ...toRemittanceView(r),
    parcels: parcels.map(p => ({ parcelId: p.parcelId, trackingNumber: p.trackingNumber, codAmountDzd: toDzd(p.amountCentimes) }))
  };
}

/**
 * Cash on delivery, as actions of `parcels` (which owns the parcels and so their COD): operators
 * record remittances and choose how an organisation is paid; merchants read their remittances and
 * a summary with the parcels:read scope (the COD amounts are already in every parcel it reads).
 */
const mixin: Partial<ServiceSchema<ServiceSettingSchema, object, CodThis>> = {
  actions: {
    createRemittance: defineAction<CreateRemittanceParams, CodThis>({
      rest: "POST /organizations/:organizationId/cod/remittances",
      api: "backoffice",
      schema: CreateRemittanceSchema,
      endpoint: {
        operationId: "createCodRemittance",
        summary: "Record a COD remittance",
        description:
          "Remits the cash collected for an organisation's parcels of one mode: the parcels listed (each COLLECTED, else 409 " +
          "COD_NOT_REMITTABLE naming each), or every COLLECTED parcel not yet remitted (409 NOTHING_TO_REMIT when there is none). " +
          "Each parcel's COD becomes REMITTED with a cod.remitted webhook; a parcel is never in two remittances, even when two are " +
          "made at once. When the organisation chose WALLET, the total is credited to its wallet of that mode.",
        tag: "COD remittances",
        status: 201,
        response: RemittanceDetailSchema,
        responseDescription: "Recorded: the remittance, its parcels and total.",
        errors: ["NOTHING_TO_REMIT", "COD_NOT_REMITTABLE"],
        body: { name: "CodRemittanceRequest", description: "What to remit." },
        location: {
          action: "parcels.getOrganizationRemittance",
          params: { organizationId: "params.organizationId", remittanceId: "response.id" }
        }
      },
      async handler(ctx): Promise<RemittanceDetail> {
        const remittance = await createRemittance({ db: this.db, logger: requestLogger(ctx, this.logger), caller: ctx }, ctx.params);
        this.logger.info(
          `COD remittance ${remittance.id}: ${remittance.parcelCount} parcel(s) of ${remittance.organizationId}/${remittance.mode} (${remittance.payout})`
        );
        return detailOf(this.db, remittance);
      }
    }),

    getOrganizationRemittance: defineAction<OrganizationRemittanceParams, CodThis>({
      rest: "GET /organizations/:organizationId/cod/remittances/:remittanceId",
      api: "backoffice",
      schema: OrganizationRemittanceSchema,
      endpoint: {
        operationId: "getOrganizationCodRemittance",
        summary: "Read a COD remittance",
        description: "A remittance recorded for the organisation (either mode), with its parcels and total.",
        tag: "COD remittances",
        response: RemittanceDetailSchema,
        responseDescription: "The remittance.",
        errors: ["REMITTANCE_NOT_FOUND"]
      },
      async handler(ctx): Promise<RemittanceDetail> {
        const remittance = await cod.findOrganizationRemittance(this.db, ctx.params.organizationId, ctx.params.remittanceId);
        if (!remittance) throw REMITTANCE_NOT_FOUND();
        return detailOf(this.db, remittance);
      }
    }),

    getCodSettings: defineAction<OrganizationParams, CodThis>({
      rest: "GET /organizations/:organizationId/cod/settings",
      api: "backoffice",
      schema: OrganizationSchema,
      endpoint: {
        operationId: "getCodSettings",
        summary: "Read how an organisation's COD is remitted",
        description: "TRANSFER (paid out, the default) or WALLET (credited to the wallet).",
        tag: "COD remittances",
        response: CodSettingsView,
        responseDescription: "The setting."
      },
      async handler(ctx): Promise<CodSettingsView> {
        return { organizationId: ctx.params.organizationId, payout: await cod.payoutOf(this.db, ctx.params.organizationId) };
      }
    }),

    setCodSettings: defineAction<CodSettingsParams, CodThis>({
      rest: "PUT /organizations/:organizationId/cod/settings",
      api: "backoffice",
      schema: CodSettingsSchema,
      endpoint: {
        operationId: "setCodSettings",
        summary: "Choose how an organisation's COD is remitted",
        description:
          "WALLET: every later remittance is credited to the organisation's wallet (of the remittance's mode) instead of paid out. " +
          "Remittances already recorded keep their payout.",
        tag: "COD remittances",
        response: CodSettingsView,
        responseDescription: "Stored.",
        errors: ["ORGANIZATION_NOT_FOUND"],
        body: { name: "CodSettingsRequest", description: "The payout." }
      },
      async handler(ctx): Promise<CodSettingsView> {
        await call(ctx, "auth.getOrganization", { organizationId: ctx.params.organizationId });
        await cod.setPayout(this.db, ctx.params.organizationId, ctx.params.payout);
        return { organizationId: ctx.params.organizationId, payout: ctx.params.payout };
      }
    }),

    listRemittances: defineAction<RemittancePageParams, CodThis, PartnerMeta>({
      rest: "GET /cod/remittances",
      api: "partner",
      scope: "parcels:read",
      schema: RemittancePageSchema,
      endpoint: {
        operationId: "listCodRemittances",
        summary: "List your COD remittances",
        description: "The remittances of the key's organisation and mode, newest first, one page at a time.",
        tag: "Cash on delivery",
        response: RemittancePageView,
        responseDescription: "A page of remittances."
      },
      async handler(ctx): Promise<Page<RemittanceView>> {
        const { page, size } = ctx.params;
        const { records, total } = await cod.listRemittances(this.db, ownerOf(ctx), { page, size });
        return pageOf(records.map(toRemittanceView), page, size, total);
      }
    }),

    getRemittance: defineAction<RemittanceIdParams, CodThis, PartnerMeta>({
      rest: "GET /cod/remittances/:id",
      api: "partner",
      scope: "parcels:read",
      schema: RemittanceIdSchema,
      endpoint: {
        operationId: "getCodRemittance",
        summary: "Read a COD remittance",
        description:
          "A remittance of the key's organisation and mode with its parcels; their amounts add up to totalDzd. Another organisation's, " +
          "or one of the other mode, is reported as not found.",
        tag: "Cash on delivery",
        response: RemittanceDetailSchema,
        responseDescription: "The remittance.",
        errors: ["REMITTANCE_NOT_FOUND"]
      },
      async handler(ctx): Promise<RemittanceDetail> {
        const remittance = await cod.findRemittance(this.db, ownerOf(ctx), ctx.params.id);
        if (!remittance) throw REMITTANCE_NOT_FOUND();
        return detailOf(this.db, remittance);
      }
    }),

    codSummary: defineAction<NoParams, CodThis, PartnerMeta>({
      rest: "GET /cod/summary",
      api: "partner",
      scope: "parcels:read",
      schema: NoParamsSchema,
      endpoint: {
        operationId: "getCodSummary",
        summary: "Your cash on delivery at a glance",
        description:
          "For the key's mode: the cash still to collect, the cash collected and not yet remitted, and what was remitted this month " +
          "(by payout date, Algiers time). Counts and amounts to the centime.",
        tag: "Cash on delivery",
        response: CodSummarySchema,
        responseDescription: "The summary."
      },
      async handler(ctx): Promise<CodSummary> {
        const owner = ownerOf(ctx);
        const month = algiersMonth(new Date());
        const [open, remitted] = await Promise.all([
          cod.openCodTotals(this.db, owner),
          cod.remittedBetween(this.db, owner, month.from, month.until)
        ]);
        return {
          mode: owner.mode,
          currency: "DZD",
          toCollect: { count: open.pending.count, amountDzd: toDzd(open.pending.amountCentimes) },
          collectedNotRemitted: { count: open.collected.count, amountDzd: toDzd(open.collected.amountCentimes) },
          remittedThisMonth: {
            month: month.month,
            remittances: remitted.remittances,
            count: remitted.parcels,
            amountDzd: toDzd(remitted.amountCentimes)
          }
        };
      }
    })
  }
};

export const CodMixin = mixin as Partial<ServiceSchema>;
