import type { KeyMode } from "../../lib/api-keys";

/** What other services call `wallet` with, and what it answers. Types only. */

/** The parcel a movement of money is for; debit and refund are idempotent per parcel. */
export interface ParcelMovement {
  parcelId: string;
  organizationId: string;
  mode: KeyMode;
}

export interface Balances {
  liveDzd: number;
  sandboxDzd: number;
}

declare module "../../lib/contract" {
  interface ActionContracts {
    /** The create-parcel saga's debit: refused with 402 INSUFFICIENT_BALANCE, idempotent per parcel. */
    "wallet.debit": { params: ParcelMovement & { amountCentimes: number }; answer: { debitedCentimes: number; balanceCentimes: number } };
    /** Cancel and compensation: idempotent; a refund of a parcel never debited leaves a zero tombstone. */
    "wallet.refund": { params: ParcelMovement & { reason?: string | null }; answer: { refundedCentimes: number } };
    /** A returned parcel's fee: once per parcel, whoever repeats it; never refused for want of balance. */
    "wallet.chargeReturnFee": {
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
