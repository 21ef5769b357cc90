import { CLAIM_STATUSES, CLAIM_TYPES, ClaimStatus, ClaimType, ClaimViewSchema } from "../../../lib/claim-view";
import { Joi } from "../../../lib/joi";
import { pageSchema } from "../../../lib/parcel-view";
import { moneyDzd, queryInteger, uuid } from "../../../lib/schemas";
import { parcelId } from "../parcels.params";

/** The params of the claims endpoints (issue 22), each interface beside the Joi schema that validates it. */

export interface OpenClaimParams {
  id: string;
  type: ClaimType;
  description: string;
  amountClaimedDzd: number;
}
export const OpenClaimSchema = Joi.object<OpenClaimParams, true>({
  id: parcelId().required(),
  type: Joi.string()
    .valid(...CLAIM_TYPES)
    .required()
    .description("LOST, DAMAGED or MISSING_CONTENT.")
    .example("DAMAGED"),
  description: Joi.string()
    .trim()
    .min(1)
    .max(2000)
    .required()
    .description("What happened, in your words (or your customer's), at most 2000 characters.")
    .example("Écran fissuré, carton écrasé : refusé par la cliente au point relais"),
  amountClaimedDzd: moneyDzd("more than zero")
    .required()
    .description("The compensation asked for, in DZD: at most the claim's maxCompensationDzd (else 400).")
    .example(12000)
});

export interface ClaimPageParams {
  status: ClaimStatus | null;
  page: number;
  size: number;
}
export const ClaimPageSchema = Joi.object<ClaimPageParams, true>({
  status: Joi.string()
    .valid(...CLAIM_STATUSES)
    .allow(null)
    .default(null)
    .description("Only claims in this status: OPEN, APPROVED or REJECTED."),
  page: queryInteger().min(0).max(2_147_483_647).default(0).description("Zero-based page number."),
  size: queryInteger().min(1).max(100).default(20).description("Page size, 1 to 100.")
}).unknown(true);

export interface ClaimIdParams {
  id: string;
}
export const ClaimIdSchema = Joi.object<ClaimIdParams, true>({
  id: uuid().required().description("Claim id (uuid).")
}).unknown(true);

export interface DecisionParams {
  id: string;
  approved: boolean;
  compensationDzd?: number;
  note: string;
}
export const DecisionSchema = Joi.object<DecisionParams, true>({
  id: uuid().required().description("Claim id (uuid)."),
  approved: Joi.boolean().required().description("true to approve (and pay), false to reject."),
  compensationDzd: moneyDzd()
    .description("With an approval: the compensation, at most the claim's maxCompensationDzd; left out, the amount claimed.")
    .example(12000),
  note: Joi.string()
    .trim()
    .min(1)
    .max(1000)
    .required()
    .description("Why, at most 1000 characters: the merchant reads it.")
    .example("Refus constaté au comptoir, photos du relais")
});

export const ClaimPageView = pageSchema("ClaimPage", ClaimViewSchema, "The claims of this page, newest first.", "One page of claims.");

export const CLAIMS_DOCS_TAGS = [
  {
    name: "Claims",
    description: "Compensation for a lost, damaged or emptied parcel, with the network's own evidence attached."
  }
];
