import { Joi } from "../lib/joi";
import type { ServiceSchema } from "moleculer";
import { defineAction } from "../lib/action";
import type { KeyMode } from "../lib/api-keys";
import { toCentimes, toDzd } from "../lib/money";
import { keyMode, moneyDzd, uuid } from "../lib/schemas";
import { DbMixin, DbVars } from "../mixins/db.mixin";
import * as store from "./wallet/wallet.store";

interface TopUpParams {
  organizationId: string;
  mode: KeyMode;
  amountDzd: number;
}
const TopUpSchema = Joi.object<TopUpParams, true>({
  organizationId: uuid().required(),
  mode: keyMode().default("live"),
  amountDzd: moneyDzd().greater(0).required()
});

interface WalletParams {
  organizationId: string;
  mode: KeyMode;
}
const WalletSchema = Joi.object<WalletParams, true>({
  organizationId: uuid().required(),
  mode: keyMode().default("live")
});

interface BalancesParams {
  organizationId: string;
}
const BalancesSchema = Joi.object<BalancesParams, true>({ organizationId: uuid().required() });

interface MovementParams extends store.ParcelMovement {
  reason: string | null;
}
const MovementSchema = Joi.object<MovementParams, true>({
  parcelId: uuid().required(),
  organizationId: uuid().required(),
  mode: keyMode().required(),
  reason: Joi.string().max(500).allow(null).default(null)
});

interface DebitParams extends store.ParcelMovement {
  amountCentimes: number;
}
const DebitSchema = Joi.object<DebitParams, true>({
  parcelId: uuid().required(),
  organizationId: uuid().required(),
  mode: keyMode().required(),
  amountCentimes: Joi.number().integer().min(1).max(Number.MAX_SAFE_INTEGER).required()
});

const RECENT_ENTRIES = 50;

type WalletThis = DbVars;

/** Balances (live and sandbox per organisation) and the ledger: debit, refund, top-up. */
const WalletService: ServiceSchema<{}, {}, WalletThis> = {
  name: "wallet",
  mixins: [DbMixin({ schema: "wallet" })],

  actions: {
    // call wallet.topUp --organizationId <uuid> --amountDzd 5000 --mode live
    topUp: defineAction<TopUpParams, WalletThis>({
      schema: TopUpSchema,
      async handler(ctx) {
        const { organizationId, mode, amountDzd } = ctx.params;
        // The organisation must exist: money never lands on an account nobody owns.
        await ctx.call("auth.getOrganization", { organizationId });
        const balance = await this.db.transaction(tx =>
          store.topUp(tx, organizationId, mode, toCentimes(amountDzd), "top-up")
        );
        return { mode, balanceDzd: toDzd(balance) };
      }
    }),

    // call wallet.get --organizationId <uuid> --mode sandbox
    get: defineAction<WalletParams, WalletThis>({
      schema: WalletSchema,
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
            balanceAfterDzd: toDzd(e.balanceAfterCentimes),
            reason: e.reason,
            createdAt: e.createdAt
          }))
        };
      }
    }),

    balances: defineAction<BalancesParams, WalletThis>({
      visibility: "public",
      schema: BalancesSchema,
      async handler(ctx) {
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
        const { amountCentimes, ...movement } = ctx.params;
        const entry = await this.db.transaction(tx => store.debitForParcel(tx, movement, amountCentimes));
        return { debitedCentimes: entry.amountCentimes, balanceCentimes: entry.balanceAfterCentimes };
      }
    }),

    refund: defineAction<MovementParams, WalletThis>({
      visibility: "public",
      schema: MovementSchema,
      async handler(ctx) {
        const { reason, ...movement } = ctx.params;
        const entry = await this.db.transaction(tx => store.refundForParcel(tx, movement, reason));
        return { refundedCentimes: entry.amountCentimes };
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
