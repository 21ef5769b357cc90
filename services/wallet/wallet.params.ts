import type { KeyMode } from "../../lib/api-keys";
import { Joi } from "../../lib/joi";
import { amountDzd, arrayOf, component, dateTime, nullable, objectOf, uuidSchema } from "../../lib/openapi/json-schema";
import type { JsonSchema } from "../../lib/openapi/types";
import { pageSchema } from "../../lib/parcel-view";
import { keyMode, moneyDzd, queryInteger, uuid } from "../../lib/schemas";
import type { ParcelMovement } from "./wallet.contract";
import type { LedgerKind } from "./wallet.store";

/** The params of every wallet action (each interface beside the Joi schema that validates it) and the answers' schemas. */

const organizationId = () => uuid().description("Organisation id (uuid).");

export interface TopUpParams {
  organizationId: string;
  mode: KeyMode;
  amountDzd: number;
}
export const TopUpSchema = Joi.object<TopUpParams, true>({
  organizationId: organizationId().required(),
  mode: keyMode().default("live").description("Which wallet: live (default) or sandbox."),
  amountDzd: moneyDzd("more than zero").required().description("Amount to add, in DZD: more than 0, at most 10 000 000.")
});

export interface WalletParams {
  organizationId: string;
  mode: KeyMode;
}
export const WalletSchema = Joi.object<WalletParams, true>({
  organizationId: organizationId().required(),
  mode: keyMode().default("live").description("live (default) or sandbox.")
});

export interface BalancesParams {
  organizationId: string;
}
export const BalancesSchema = Joi.object<BalancesParams, true>({ organizationId: uuid().required() });

export interface MovementParams extends ParcelMovement {
  reason: string | null;
}
export const MovementSchema = Joi.object<MovementParams, true>({
  parcelId: uuid().required(),
  organizationId: uuid().required(),
  mode: keyMode().required(),
  reason: Joi.string().max(500).allow(null).default(null)
});

export interface DebitParams extends ParcelMovement {
  amountCentimes: number;
}
export const DebitSchema = Joi.object<DebitParams, true>({
  parcelId: uuid().required(),
  organizationId: uuid().required(),
  mode: keyMode().required(),
  amountCentimes: Joi.number().integer().min(1).max(Number.MAX_SAFE_INTEGER).required()
});

/** A create group's debits (wallet.debitBatch); as many as a parcels group takes at most (GROUP_COMMIT_MAX_BATCH). */
export interface DebitBatchParams {
  debits: DebitParams[];
}
export const DebitBatchSchema = Joi.object<DebitBatchParams, true>({
  debits: Joi.array().items(DebitSchema).min(1).max(1_000).required()
});

/** A return fee names its parcel and amount exactly as a debit does. */
export type ReturnFeeParams = DebitParams;
export const ReturnFeeSchema = DebitSchema;

export interface CodCreditParams {
  remittanceId: string;
  organizationId: string;
  mode: KeyMode;
  amountCentimes: number;
  reference: string;
}
export const CodCreditSchema = Joi.object<CodCreditParams, true>({
  remittanceId: uuid().required(),
  organizationId: uuid().required(),
  mode: keyMode().required(),
  amountCentimes: Joi.number().integer().min(1).max(Number.MAX_SAFE_INTEGER).required(),
  reference: Joi.string().min(1).max(100).required()
});

export interface ClaimCreditParams {
  claimId: string;
  parcelId: string;
  organizationId: string;
  mode: KeyMode;
  compensationCentimes: number;
}
export const ClaimCreditSchema = Joi.object<ClaimCreditParams, true>({
  claimId: uuid().required(),
  parcelId: uuid().required(),
  organizationId: uuid().required(),
  mode: keyMode().required(),
  compensationCentimes: Joi.number().integer().min(0).max(Number.MAX_SAFE_INTEGER).required()
});

// --- answers ------------------------------------------------------------------------------------

export interface WalletEntryView {
  id: string;
  kind: LedgerKind;
  amountDzd: number;
  parcelId: string | null;
  remittanceId: string | null;
  claimId: string | null;
  balanceAfterDzd: number;
  reason: string | null;
  createdAt: string;
}

const mode: JsonSchema = { type: "string", enum: ["live", "sandbox"] };

export const TopUpResultView = component(
  "TopUpResult",
  objectOf<{ mode: KeyMode; balanceDzd: number }>({ mode, balanceDzd: amountDzd("Balance after the top-up.") })
);

export const WalletView = component(
  "Wallet",
  objectOf<{ mode: KeyMode; balanceDzd: number; entries: WalletEntryView[] }>({
    mode,
    balanceDzd: amountDzd("Current balance."),
    entries: arrayOf(
      objectOf<WalletEntryView>({
        id: uuidSchema(),
        kind: { type: "string", enum: ["top_up", "debit", "refund", "cod_credit", "return_fee", "claim_compensation"] },
        amountDzd: amountDzd("Amount of the movement."),
        parcelId: nullable(uuidSchema()),
        remittanceId: nullable(uuidSchema("The COD remittance credited (cod_credit); null otherwise.")),
        claimId: nullable(uuidSchema("The claim paid (claim_compensation); null otherwise.")),
        balanceAfterDzd: amountDzd("Balance after the movement."),
        reason: { type: ["string", "null"] },
        createdAt: dateTime("When, UTC.")
      })
    )
  })
);

/** A merchant's own wallet (`GET /api/partner/v1/wallet`): the key's mode decides which. */
export interface MerchantWallet {
  mode: KeyMode;
  balanceDzd: number;
  updatedAt: string | null;
}

export const MerchantWalletView = component(
  "MerchantWallet",
  objectOf<MerchantWallet>({
    mode: { ...mode, description: "The wallet of the key's mode: live, or the separate sandbox wallet." },
    balanceDzd: amountDzd("Current balance: what parcels can still be paid with."),
    updatedAt: { type: ["string", "null"], format: "date-time", description: "When the balance last changed, UTC; null if it never has." }
  })
);

export const ENTRY_TYPES = ["TOP_UP", "DEBIT", "REFUND", "COD_REMITTANCE", "RETURN_FEE", "CLAIM_COMPENSATION", "RETURN_SHIPMENT"] as const;
export type EntryType = (typeof ENTRY_TYPES)[number];
export const ENTRY_TYPE_OF: Readonly<Record<LedgerKind, EntryType>> = Object.freeze({
  top_up: "TOP_UP",
  debit: "DEBIT",
  refund: "REFUND",
  cod_credit: "COD_REMITTANCE",
  return_fee: "RETURN_FEE",
  claim_compensation: "CLAIM_COMPENSATION",
  return_shipment: "RETURN_SHIPMENT"
});

export interface MerchantEntry {
  type: EntryType;
  amountDzd: number;
  balanceAfterDzd: number;
  parcelId: string | null;
  remittanceId: string | null;
  claimId: string | null;
  createdAt: string;
}

export interface EntriesParams {
  page: number;
  size: number;
}
export const EntriesSchema = Joi.object<EntriesParams, true>({
  page: queryInteger().min(0).max(2_147_483_647).default(0).description("Zero-based page number."),
  size: queryInteger().min(1).max(100).default(20).description("Page size, 1 to 100.")
}).unknown(true);

export const MerchantEntryPageView = pageSchema(
  "WalletEntryPage",
  component(
    "WalletEntry",
    objectOf<MerchantEntry>({
      type: {
        type: "string",
        enum: [...ENTRY_TYPES],
        description:
          "TOP_UP (money added), DEBIT (a parcel's price, at its creation), REFUND (a cancelled parcel's price given back), " +
          "COD_REMITTANCE (cash collected on delivery, remitted to the wallet as the organisation chose) or RETURN_FEE (a parcel " +
          "that went back to you: not collected in time, or refused at the relay point). A return fee is taken even when the " +
          "balance is too low, which may leave the balance below zero: creations then answer 402 until a top-up. RETURN_SHIPMENT: a customer's return (POST /parcels/{id}/returns), " +
          "charged when the customer drops it off at a relay point, on the return parcel (parcelId); like a return fee, never refused. " +
          "CLAIM_COMPENSATION: an approved claim (the compensation plus the parcel's price)."
      },
      amountDzd: amountDzd("Amount of the movement, always positive: its type says which way it went."),
      balanceAfterDzd: amountDzd("Balance right after this movement."),
      parcelId: nullable(uuidSchema("The parcel paid, refunded or returned; null for a top-up or a COD remittance.")),
      remittanceId: nullable(uuidSchema("The COD remittance credited (COD_REMITTANCE); null otherwise.")),
      claimId: nullable(uuidSchema("The claim paid (CLAIM_COMPENSATION; GET /claims/{id}); null otherwise.")),
      createdAt: dateTime("When, UTC.")
    })
  ),
  "Movements of this page, newest first.",
  "One page of the wallet's movements of money."
);

export const WALLET_DOCS = {
  tags: [
    { name: "Wallets", description: "Prepaid wallets (live and sandbox) and their ledger." },
    { name: "Wallet", description: "Your prepaid wallet: the balance parcels are paid from, and its movements." }
  ]
};
