/**
 * The wallet service. Owns each organisation's balances (live and sandbox) and the ledger in the
 * `wallet` schema; its code is this file and services/wallet/.
 * Others may call (types in wallet/wallet.contract.ts): `wallet.debitBatch` (parcels' create group,
 * decision 0037), `wallet.debit`, `wallet.refund`, `wallet.settlePending`, `wallet.creditCodRemittance`
 * (parcels), `wallet.balances` (auth);
 * bin/demo.ts uses `wallet.topUp`. Everything else is reached over HTTP through the gateway.
 */
import type { Logger, ServiceSchema } from "moleculer";
import { defineAction } from "../lib/action";
import { detached } from "../lib/endpoint";
import { call } from "../lib/contract";
import { toCentimes, toDzd } from "../lib/money";
import { Page, pageOf } from "../lib/parcel-view";
import type { PartnerMeta } from "../lib/principal";
import { NoParams, NoParamsSchema } from "../lib/schemas";
import { holdAfterCommit } from "./wallet/fault-points";
import { GroupCommit } from "../lib/group-commit";
import { ConfigMixin, ConfigVars } from "../mixins/config.mixin";
import { DbMixin, DbVars } from "../mixins/db.mixin";
import { debitGroup, DebitDone, DebitItem } from "./wallet/debit-group.store";
import type { Balances, DebitOutcome } from "./wallet/wallet.contract";
import { toDebitOutcome } from "./wallet/debit-outcome";
import {
  BalancesParams,
  BalancesSchema,
  CodCreditParams,
  CodCreditSchema,
  DebitParams,
  DebitSchema,
  DebitBatchParams,
  DebitBatchSchema,
  ENTRY_TYPE_OF,
  EntriesParams,
  EntriesSchema,
  MerchantEntry,
  MerchantEntryPageView,
  MerchantWallet,
  MerchantWalletView,
  MovementParams,
  MovementSchema,
  ReturnFeeParams,
  ClaimCreditParams,
  ClaimCreditSchema,
  ReturnFeeSchema,
  TopUpParams,
  TopUpResultView,
  TopUpSchema,
  WALLET_DOCS,
  WalletParams,
  WalletSchema,
  WalletView
} from "./wallet/wallet.params";
import * as store from "./wallet/wallet.store";

const RECENT_ENTRIES = 50;

interface WalletVars extends DbVars, ConfigVars {
  /** Debits and refunds of parcels, committed in groups (lib/group-commit.ts, docs/decisions/0025). */
  debits: GroupCommit<DebitItem, DebitDone>;
  refunds: GroupCommit<store.RefundItem, store.LedgerEntry>;
}

type WalletThis = WalletVars & { logger: Logger };

/** Balances (live and sandbox per organisation) and the ledger: debit, refund, top-up, COD credit, return fee. */
const WalletService: ServiceSchema<{ openapi: typeof WALLET_DOCS }, object, WalletThis> = {
  name: "wallet",
  mixins: [DbMixin({ schema: "wallet" }), ConfigMixin],
  settings: { openapi: detached(WALLET_DOCS) },

  created(this: WalletThis) {
    const options = this.config.groupCommit;
    // Null outside crash tests (TEST_HOLD_DEBITS_FILE): the group answers as soon as it committed.
    const hold = holdAfterCommit(this.config.testHoldDebitsFile, message => this.logger.warn(message));
    this.debits = new GroupCommit(
      async items => {
        // One statement, its own transaction (docs/decisions/0044): not inside db.transaction.
        const outcomes = await debitGroup(this.db, items);
        if (hold) await hold(outcomes.filter(o => o.ok).length);
        return outcomes;
      },
      { ...options, name: "debits" }
    );
    this.refunds = new GroupCommit(items => this.db.transaction(tx => store.refundGroup(tx, items)), { ...options, name: "refunds" });
  },

  actions: {
    // call wallet.topUp --organizationId <uuid> --amountDzd 5000 --mode live
    topUp: defineAction<TopUpParams, WalletThis>({
      rest: "POST /organizations/:organizationId/wallet/top-ups",
      api: "backoffice",
      schema: TopUpSchema,
      endpoint: {
        operationId: "topUpWallet",
        summary: "Top a wallet up",
        description: "Credits the live or the sandbox wallet; the ledger records the movement with the balance after it.",
        tag: "Wallets",
        status: 201,
        location: { action: "wallet.get", params: { organizationId: "params.organizationId" } },
        response: TopUpResultView,
        responseDescription: "Credited; the new balance.",
        errors: ["ORGANIZATION_NOT_FOUND"],
        body: { name: "TopUpRequest", description: "The top-up." }
      },
      async handler(ctx) {
        const { organizationId, mode, amountDzd } = ctx.params;
        // The organisation must exist: money never lands on an account nobody owns.
        await call(ctx, "auth.getOrganization", { organizationId });
        const balance = await this.db.transaction(tx => store.topUp(tx, organizationId, mode, toCentimes(amountDzd), "top-up"));
        return { mode, balanceDzd: toDzd(balance) };
      }
    }),

    // call wallet.get --organizationId <uuid> --mode sandbox
    get: defineAction<WalletParams, WalletThis>({
      rest: "GET /organizations/:organizationId/wallet",
      api: "backoffice",
      schema: WalletSchema,
      endpoint: {
        operationId: "getWallet",
        summary: "Read a wallet and its recent ledger",
        description:
          "The balance of one wallet (live or sandbox) and its latest ledger entries: top-ups, parcel debits, refunds, COD credits and return fees.",
        tag: "Wallets",
        response: WalletView,
        responseDescription: "Balance and the 50 latest ledger entries, newest first."
      },
      async handler(ctx) {
        const { organizationId, mode } = ctx.params;
        const [balance, entries] = await Promise.all([
          store.balanceOf(this.db, organizationId, mode),
          store.recentEntries(this.db, organizationId, mode, RECENT_ENTRIES)
        ]);
        return {
          mode,
          balanceDzd: toDzd(balance),
          entries: entries.map(e => ({
            id: e.id,
            kind: e.kind,
            amountDzd: toDzd(e.amountCentimes),
            parcelId: e.parcelId,
            remittanceId: e.remittanceId,
            claimId: e.claimId,
            balanceAfterDzd: toDzd(e.balanceAfterCentimes),
            reason: e.reason,
            createdAt: e.createdAt
          }))
        };
      }
    }),

    // The merchant's own wallet, for the mode of the key that asks.
    mine: defineAction<NoParams, WalletThis, PartnerMeta>({
      rest: "GET /wallet",
      api: "partner",
      scope: "wallet:read",
      schema: NoParamsSchema,
      endpoint: {
        operationId: "getMyWallet",
        summary: "Read your wallet's balance",
        description:
          "The balance parcels are paid from: the live wallet for a live key, the separate sandbox wallet for a sandbox key. " +
          "A creation refused with 402 INSUFFICIENT_BALANCE means this balance is below the parcel's price.",
        tag: "Wallet",
        response: MerchantWalletView,
        responseDescription: "The wallet of the key's mode."
      },
      async handler(ctx): Promise<MerchantWallet> {
        const { organizationId, mode } = ctx.meta.auth;
        const account = await store.accountOf(this.db, organizationId, mode);
        return { mode, balanceDzd: toDzd(account.balanceCentimes), updatedAt: account.updatedAt };
      }
    }),

    myEntries: defineAction<EntriesParams, WalletThis, PartnerMeta>({
      rest: "GET /wallet/entries",
      api: "partner",
      scope: "wallet:read",
      schema: EntriesSchema,
      endpoint: {
        operationId: "listMyWalletEntries",
        summary: "List your wallet's movements",
        description:
          "Top-ups, parcel debits, refunds, COD remittances and return fees of the key's wallet (live or sandbox), newest first, one page at a time; each with " +
          "the balance right after it. Other query parameters are ignored.",
        tag: "Wallet",
        response: MerchantEntryPageView,
        responseDescription: "A page of movements."
      },
      async handler(ctx): Promise<Page<MerchantEntry>> {
        const { organizationId, mode } = ctx.meta.auth;
        const { page, size } = ctx.params;
        const { entries, total } = await store.ledgerPage(this.db, organizationId, mode, { page, size });
        const items = entries.map(e => ({
          type: ENTRY_TYPE_OF[e.kind],
          amountDzd: toDzd(e.amountCentimes),
          balanceAfterDzd: toDzd(e.balanceAfterCentimes),
          parcelId: e.parcelId,
          remittanceId: e.remittanceId,
          claimId: e.claimId,
          createdAt: e.createdAt
        }));
        return pageOf(items, page, size, total);
      }
    }),

    balances: defineAction<BalancesParams, WalletThis>({
      visibility: "public",
      schema: BalancesSchema,
      async handler(ctx): Promise<Balances> {
        const [live, sandbox] = await Promise.all([
          store.balanceOf(this.db, ctx.params.organizationId, "live"),
          store.balanceOf(this.db, ctx.params.organizationId, "sandbox")
        ]);
        return { liveDzd: toDzd(live), sandboxDzd: toDzd(sandbox) };
      }
    }),

    // Saga steps, called by parcels; each is idempotent per parcel id.
    debit: defineAction<DebitParams, WalletThis>({
      visibility: "public",
      schema: DebitSchema,
      async handler(ctx) {
        const { parcelId, organizationId, mode, amountCentimes } = ctx.params;
        const done = await this.debits.submit({ parcelId, organizationId, mode, amountCentimes });
        return { debitedCentimes: done.amountCentimes, balanceCentimes: done.balanceAfterCentimes };
      }
    }),

    // A parcels create group's debits (docs/decisions/0037): queued together so they commit as one
    // group (with other callers' if any), each answering alone; the fault point holds them alike.
    debitBatch: defineAction<DebitBatchParams, WalletThis>({
      visibility: "public",
      schema: DebitBatchSchema,
      async handler(ctx): Promise<{ outcomes: DebitOutcome[] }> {
        const answers = await Promise.allSettled(this.debits.submitAll(ctx.params.debits));
        return { outcomes: answers.map(toDebitOutcome) };
      }
    }),

    refund: defineAction<MovementParams, WalletThis>({
      visibility: "public",
      schema: MovementSchema,
      async handler(ctx) {
        const { parcelId, organizationId, mode, reason } = ctx.params;
        const entry = await this.refunds.submit({ parcelId, organizationId, mode, reason });
        return { refundedCentimes: entry.amountCentimes };
      }
    }),

    // call wallet.chargeReturnFee --parcelId <uuid> --organizationId <uuid> --mode live --amountCentimes 22500
    chargeReturnFee: defineAction<ReturnFeeParams, WalletThis>({
      visibility: "public",
      schema: ReturnFeeSchema,
      async handler(ctx) {
        const { amountCentimes, ...movement } = ctx.params;
        const entry = await this.db.transaction(tx => store.chargeBelowZero(tx, "return_fee", movement, amountCentimes));
        return { chargedCentimes: entry.amountCentimes, balanceCentimes: entry.balanceAfterCentimes };
      }
    }),

    // call wallet.chargeReturnShipment --parcelId <return parcel uuid> --organizationId <uuid> --mode live --amountCentimes 40000
    chargeReturnShipment: defineAction<ReturnFeeParams, WalletThis>({
      visibility: "public",
      schema: ReturnFeeSchema,
      async handler(ctx) {
        const { amountCentimes, ...movement } = ctx.params;
        const entry = await this.db.transaction(tx => store.chargeBelowZero(tx, "return_shipment", movement, amountCentimes));
        return { chargedCentimes: entry.amountCentimes, balanceCentimes: entry.balanceAfterCentimes };
      }
    }),

    // call wallet.creditClaimCompensation --claimId <uuid> --parcelId <uuid> --organizationId <uuid> --mode live --compensationCentimes 500000
    creditClaimCompensation: defineAction<ClaimCreditParams, WalletThis>({
      visibility: "public",
      schema: ClaimCreditSchema,
      async handler(ctx) {
        const entry = await this.db.transaction(tx => store.creditClaimCompensation(tx, ctx.params));
        return { creditedCentimes: entry.amountCentimes, balanceCentimes: entry.balanceAfterCentimes };
      }
    }),

    // call wallet.creditCodRemittance --remittanceId <uuid> --organizationId <uuid> --mode live --amountCentimes 150000 --reference VIR-1
    creditCodRemittance: defineAction<CodCreditParams, WalletThis>({
      visibility: "public",
      schema: CodCreditSchema,
      async handler(ctx) {
        const entry = await this.db.transaction(tx => store.creditForRemittance(tx, ctx.params));
        return { creditedCentimes: entry.amountCentimes, balanceCentimes: entry.balanceAfterCentimes };
      }
    }),

    /**
     * For the sweeper: settles a parcel left pending by a crash. "debited" means the money was
     * taken and the parcel should be finished; "void" means it never will be (a tombstone now
     * refuses any late debit) and the parcel should be discarded.
     */
    settlePending: defineAction<MovementParams, WalletThis>({
      visibility: "public",
      schema: MovementSchema,
      async handler(ctx) {
        const { reason: _reason, ...movement } = ctx.params;
        const state = await this.db.transaction(tx => store.settlePendingParcel(tx, movement));
        return { state };
      }
    })
  }
};

export default WalletService;
