import type { Context, ServiceSchema, ServiceSettingSchema } from "moleculer";
import { defineAction } from "../../../lib/action";
import { ClaimView, ClaimViewSchema } from "../../../lib/claim-view";
import { toCentimes } from "../../../lib/money";
import { Page, pageOf } from "../../../lib/parcel-view";
import type { PartnerMeta } from "../../../lib/principal";
import { configOf } from "../../../mixins/config.mixin";
import type { Owner } from "../parcels.store";
import { CLAIM_NOT_FOUND, ClaimDeps, creditClaim, decideClaim, openClaim, toClaimView } from "./claims";
import {
  ClaimIdParams,
  ClaimIdSchema,
  ClaimPageParams,
  ClaimPageSchema,
  ClaimPageView,
  DecisionParams,
  DecisionSchema,
  OpenClaimParams,
  OpenClaimSchema
} from "./claims.params";
import * as claims from "./claims.store";

interface ClaimsThis {
  db: import("../../../lib/db/database").Database;
  logger: import("moleculer").Logger;
  broker: import("moleculer").ServiceBroker;
  owner(ctx: Context<unknown, PartnerMeta>): Owner;
  runRelay(): Promise<number>;
}

function claimDeps(service: ClaimsThis, ctx: Context): ClaimDeps {
  const config = configOf(service.broker);
  return {
    db: service.db,
    logger: service.logger,
    caller: ctx,
    policy: { lostAfterDays: config.lostAfterDays, capCentimes: toCentimes(config.claimCapDzd) }
  };
}

async function pageOfClaims(db: ClaimsThis["db"], owner: Owner | null, params: ClaimPageParams): Promise<Page<ClaimView>> {
  const { records, total } = await claims.listClaims(db, { owner, ...params });
  return pageOf(records.map(toClaimView), params.page, params.size, total);
}

const OPEN_DESCRIPTION =
  "Asks for compensation for a parcel of the key's organisation and mode. LOST: the parcel is LOST, or has had no status " +
  "change for LOST_AFTER_DAYS (10) while PICKED_UP or IN_TRANSIT. DAMAGED or MISSING_CONTENT: the parcel is DAMAGED, was " +
  "DELIVERED at most 7 days ago, or was refused at the relay point. Otherwise 409 CLAIM_NOT_ALLOWED, whose message says why; " +
  "one open claim per parcel (409 CLAIM_ALREADY_OPEN), and a parcel is compensated once. `maxCompensationDzd` is the declared " +
  "value (the 5,000 DZD free allowance when none was declared), capped at CLAIM_CAP_DZD (150,000): more is 400. The network " +
  "attaches its evidence (`evidence`); a claim.opened webhook goes out. Another organisation's parcel, or one of the other " +
  "mode, is reported as not found.";

/**
 * Claims (issue 22), as actions of `parcels`, which owns the parcels and their history: merchants
 * open and read theirs; operators list and decide them. The flows are in claims.ts.
 */
const mixin: Partial<ServiceSchema<ServiceSettingSchema, object, ClaimsThis>> = {
  actions: {
    openClaim: defineAction<OpenClaimParams, ClaimsThis, PartnerMeta>({
      rest: "POST /parcels/:id/claims",
      api: "partner",
      scope: "parcels:write",
      schema: OpenClaimSchema,
      endpoint: {
        operationId: "openClaim",
        summary: "Claim compensation for a parcel",
        description: OPEN_DESCRIPTION,
        tag: "Claims",
        status: 201,
        location: { action: "parcels.getClaim", params: { id: "response.id" } },
        response: ClaimViewSchema,
        responseDescription: "Opened: the claim, with the network's evidence. Location points to it.",
        errors: ["PARCEL_NOT_FOUND", "CLAIM_NOT_ALLOWED", "CLAIM_ALREADY_OPEN"],
        body: { name: "ClaimRequest", description: "What is claimed." }
      },
      async handler(ctx): Promise<ClaimView> {
        const { id, ...input } = ctx.params;
        const claim = await openClaim(claimDeps(this, ctx), this.owner(ctx), id, input).finally(() => void this.runRelay());
        return toClaimView(claim);
      }
    }),

    listClaims: defineAction<ClaimPageParams, ClaimsThis, PartnerMeta>({
      rest: "GET /claims",
      api: "partner",
      scope: "parcels:read",
      schema: ClaimPageSchema,
      endpoint: {
        operationId: "listClaims",
        summary: "List your claims",
        description: "The claims of the key's organisation and mode, newest first, one page at a time. Other query parameters are ignored.",
        tag: "Claims",
        response: ClaimPageView,
        responseDescription: "A page of claims."
      },
      handler(ctx): Promise<Page<ClaimView>> {
        return pageOfClaims(this.db, this.owner(ctx), ctx.params);
      }
    }),

    getClaim: defineAction<ClaimIdParams, ClaimsThis, PartnerMeta>({
      rest: "GET /claims/:id",
      api: "partner",
      scope: "parcels:read",
      schema: ClaimIdSchema,
      endpoint: {
        operationId: "getClaim",
        summary: "Read a claim",
        description: "A claim of the key's organisation and mode, with its evidence and decision. Any other is reported as not found.",
        tag: "Claims",
        response: ClaimViewSchema,
        responseDescription: "The claim.",
        errors: ["CLAIM_NOT_FOUND"]
      },
      async handler(ctx): Promise<ClaimView> {
        const claim = await claims.findClaim(this.db, ctx.params.id, this.owner(ctx));
        if (!claim) throw CLAIM_NOT_FOUND();
        return toClaimView(claim);
      }
    }),

    listAllClaims: defineAction<ClaimPageParams, ClaimsThis>({
      rest: "GET /claims",
      api: "backoffice",
      schema: ClaimPageSchema,
      endpoint: {
        operationId: "listAllClaims",
        summary: "List claims",
        description: "Every organisation's claims, live and sandbox, newest first; `?status=OPEN` is the queue to decide.",
        tag: "Claims",
        response: ClaimPageView,
        responseDescription: "A page of claims."
      },
      handler(ctx): Promise<Page<ClaimView>> {
        return pageOfClaims(this.db, null, ctx.params);
      }
    }),

    decideClaim: defineAction<DecisionParams, ClaimsThis>({
      rest: "POST /claims/:id/decision",
      api: "backoffice",
      schema: DecisionSchema,
      endpoint: {
        operationId: "decideClaim",
        summary: "Approve or reject a claim",
        description:
          "Decides an OPEN claim, once (409 CLAIM_ALREADY_DECIDED after; two decisions at once: one wins). An approval credits the " +
          "wallet of the parcel's mode with compensationDzd (at most maxCompensationDzd; the amount claimed when left out) plus " +
          "the shipping price, as one CLAIM_COMPENSATION movement made by the wallet, once per claim; an approved LOST claim of a " +
          "parcel still PICKED_UP or IN_TRANSIT moves it to LOST (parcel.lost webhook). claim.approved or claim.rejected goes out. " +
          "paidDzd null in the answer: the wallet was away, and the credit follows within seconds.",
        tag: "Claims",
        response: ClaimViewSchema,
        responseDescription: "Decided: the claim.",
        errors: ["CLAIM_NOT_FOUND", "CLAIM_ALREADY_DECIDED"],
        body: { name: "ClaimDecisionRequest", description: "The decision." }
      },
      async handler(ctx): Promise<ClaimView> {
        const { id, ...decision } = ctx.params;
        const deps = claimDeps(this, ctx);
        const decided = await decideClaim(deps, id, decision).finally(() => void this.runRelay());
        this.logger.info(`claim ${id}: ${decided.status} by the back-office`);
        return toClaimView(await creditClaim(deps, decided));
      }
    })
  }
};

export const ClaimsMixin = mixin as Partial<ServiceSchema>;
