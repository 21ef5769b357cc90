import type { KeyMode } from "../../lib/api-keys";
import { Joi } from "../../lib/joi";
import { amountDzd, arrayOf, component, dateTime, nullable, objectOf, uuidSchema } from "../../lib/openapi/json-schema";
import type { JsonSchema } from "../../lib/openapi/types";
import { keyMode, moneyDzd, uuid } from "../../lib/schemas";
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

// --- answers ------------------------------------------------------------------------------------

export interface WalletEntryView {
  id: string;
  kind: LedgerKind;
  amountDzd: number;
  parcelId: string | null;
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
        kind: { type: "string", enum: ["top_up", "debit", "refund"] },
        amountDzd: amountDzd("Amount of the movement."),
        parcelId: nullable(uuidSchema()),
        balanceAfterDzd: amountDzd("Balance after the movement."),
        reason: { type: ["string", "null"] },
        createdAt: dateTime("When, UTC.")
      })
    )
  })
);

export const WALLET_DOCS = { tags: [{ name: "Wallets", description: "Prepaid wallets (live and sandbox) and their ledger." }] };
