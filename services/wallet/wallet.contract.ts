import type { KeyMode } from "../../lib/api-keys";

/** What other services call `wallet` with, and what it answers. Types only. */

/** The parcel a movement of money is for; debit and refund are idempotent per parcel. */
export interface ParcelMovement {
  parcelId: string;
  organizationId: string;
  mode: KeyMode;
}

/** One item of `wallet.debitBatch`: debited (now, or before: idempotent per parcel), or refused. */
export type DebitOutcome =
  { debitedCentimes: number; balanceCentimes: number; error?: undefined } | { error: { code: string; message: string } };

export interface Balances {
  liveDzd: number;
  sandboxDzd: number;
}

declare module "../../lib/contract" {
  interface ActionContracts {
    /** The create-parcel saga's debit: refused with 402 INSUFFICIENT_BALANCE, idempotent per parcel. */
    "wallet.debit": { params: ParcelMovement & { amountCentimes: number }; answer: { debitedCentimes: number; balanceCentimes: number } };
    /**
     * A create group's debits in one call (docs/decisions/0037): each item decided alone, in the
     * order given, exactly as `wallet.debit` decides it; `error` is INSUFFICIENT_BALANCE or CONFLICT.
     */
    "wallet.debitBatch": { params: { debits: (ParcelMovement & { amountCentimes: number })[] }; answer: { outcomes: DebitOutcome[] } };
    /** Cancel and compensation: idempotent; a refund of a parcel never debited leaves a zero tombstone. */
    "wallet.refund": { params: ParcelMovement & { reason?: string | null }; answer: { refundedCentimes: number } };
    /** A returned parcel's fee: once per parcel, whoever repeats it; never refused for want of balance. */
    "wallet.chargeReturnFee": {
      params: ParcelMovement & { amountCentimes: number };
      answer: { chargedCentimes: number; balanceCentimes: number };
    };
    /** A customer's return dropped off (issue 21), charged on its return parcel: once per return parcel; never refused for want of balance. */
    "wallet.chargeReturnShipment": {
      params: ParcelMovement & { amountCentimes: number };
      answer: { chargedCentimes: number; balanceCentimes: number };
    };
    /** The sweeper: "debited" (finish the parcel) or "void" (never will be; discard it). */
    "wallet.settlePending": { params: ParcelMovement & { reason?: string | null }; answer: { state: "debited" | "void" } };
    /** Remitted COD credited to the wallet (the organisation's choice): once per remittance, whoever repeats it. */
    "wallet.creditCodRemittance": {
      params: { remittanceId: string; organizationId: string; mode: KeyMode; amountCentimes: number; reference: string };
      answer: { creditedCentimes: number; balanceCentimes: number };
    };
    /** An approved claim: the compensation plus the parcel's price (unless refunded), once per claim, whoever repeats it. */
    "wallet.creditClaimCompensation": {
      params: ParcelMovement & { claimId: string; compensationCentimes: number };
      answer: { creditedCentimes: number; balanceCentimes: number };
    };
    "wallet.balances": { params: { organizationId: string }; answer: Balances };
    "wallet.topUp": {
      params: { organizationId: string; mode?: KeyMode; amountDzd: number };
      answer: { mode: KeyMode; balanceDzd: number };
    };
  }
}
