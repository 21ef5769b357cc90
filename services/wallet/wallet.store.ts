import { randomUUID } from "node:crypto";
import type { KeyMode } from "../../lib/api-keys";
import type { Queryable } from "../../lib/db/database";
import { named } from "../../lib/db/statement";
import { eachInSavepoint, ItemOutcome } from "../../lib/group-commit";
import type { ParcelMovement } from "./wallet.contract";

/** All SQL of the wallet service (schema `wallet`, migrations/wallet/), returning camelCase records. */

export type LedgerKind = "top_up" | "debit" | "refund" | "cod_credit" | "return_fee" | "claim_compensation" | "return_shipment";

export interface LedgerEntry {
  id: string;
  kind: LedgerKind;
  amountCentimes: number;
  parcelId: string | null;
  remittanceId: string | null;
  claimId: string | null;
  balanceAfterCentimes: number;
  reason: string | null;
  createdAt: string;
}

interface LedgerRow {
  id: string;
  kind: LedgerKind;
  amount_centimes: string | number;
  parcel_id: string | null;
  remittance_id: string | null;
  claim_id: string | null;
  balance_after_centimes: string | number;
  reason: string | null;
  created_at: Date;
}

function toEntry(row: LedgerRow): LedgerEntry {
  return {
    id: row.id,
    kind: row.kind,
    amountCentimes: Number(row.amount_centimes),
    parcelId: row.parcel_id,
    remittanceId: row.remittance_id,
    claimId: row.claim_id ?? null,
    balanceAfterCentimes: Number(row.balance_after_centimes),
    reason: row.reason,
    createdAt: row.created_at.toISOString()
  };
}

/** Debits and refunds of one parcel are serialised, whichever process asks. */
async function lockParcel(tx: Queryable, parcelId: string): Promise<void> {
  await lockParcels(tx, [parcelId]);
}

// Statements of the refund group, prepared once per connection (lib/db/statement.ts, decision 0037).
// A parcel's lock key is spelled once, in wallet.lock_parcels (migration wallet/008), which the debit group takes too.
const LOCK_PARCELS = named("wallet_lock_parcels", "SELECT wallet.lock_parcels($1::text[])");
const LOCK_ACCOUNTS = named(
  "wallet_lock_accounts",
  `SELECT organization_id, mode, balance_centimes FROM wallet.accounts
    WHERE (organization_id, mode) IN (SELECT * FROM unnest($1::uuid[], $2::text[]))
    ORDER BY organization_id, mode FOR UPDATE`
);

/**
 * The locks of several parcels (a group, docs/decisions/0025), taken in one order so that two
 * groups never wait on each other crosswise. The same lock as one parcel's.
 */
export async function lockParcels(tx: Queryable, parcelIds: readonly string[]): Promise<void> {
  await tx.query(LOCK_PARCELS, [parcelIds]);
}

/**
 * The rows of the given accounts (organisation/mode keys), locked until the commit in one order,
 * with their balances; an account never moved has no row.
 */
export async function lockAccounts(
  tx: Queryable,
  accounts: readonly { organizationId: string; mode: KeyMode }[]
): Promise<Map<string, number>> {
  const keys = [...new Set(accounts.map(a => accountKey(a.organizationId, a.mode)))].sort();
  if (keys.length === 0) return new Map();
  const rows = await tx.query<{ organization_id: string; mode: KeyMode; balance_centimes: string | number }>(
    LOCK_ACCOUNTS,
    accountColumns(keys)
  );
  return new Map(rows.map(r => [accountKey(r.organization_id, r.mode), Number(r.balance_centimes)]));
}

export const accountKey = (organizationId: string, mode: KeyMode): string => `${organizationId}/${mode}`;

/** Account keys (accountKey) as the two arrays a statement unnests: organisation ids, modes. */
export function accountColumns(keys: readonly string[]): [string[], string[]] {
  const pairs = keys.map(k => k.split("/"));
  return [pairs.map(([organizationId]) => organizationId), pairs.map(([, mode]) => mode)];
}

async function entryOf(tx: Queryable, parcelId: string, kind: LedgerKind): Promise<LedgerEntry | null> {
  const [row] = await tx.query<LedgerRow>("SELECT * FROM wallet.ledger WHERE parcel_id = $1 AND kind = $2", [parcelId, kind]);
  return row ? toEntry(row) : null;
}

async function insertEntry(
  tx: Queryable,
  entry: {
    organizationId: string;
    mode: KeyMode;
    kind: LedgerKind;
    amountCentimes: number;
    parcelId: string | null;
    remittanceId?: string;
    claimId?: string;
    balanceAfter: number;
    reason: string | null;
  }
): Promise<LedgerEntry> {
  const [row] = await tx.query<LedgerRow>(
    `INSERT INTO wallet.ledger (id, organization_id, mode, kind, amount_centimes, parcel_id, balance_after_centimes, reason, remittance_id,
                                claim_id)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10) RETURNING *`,
    [
      randomUUID(),
      entry.organizationId,
      entry.mode,
      entry.kind,
      entry.amountCentimes,
      entry.parcelId,
      entry.balanceAfter,
      entry.reason,
      entry.remittanceId ?? null,
      entry.claimId ?? null
    ]
  );
  return toEntry(row);
}

export async function balanceOf(db: Queryable, organizationId: string, mode: KeyMode): Promise<number> {
  const [row] = await db.query<{ balance_centimes: string | number }>(
    "SELECT balance_centimes FROM wallet.accounts WHERE organization_id = $1 AND mode = $2",
    [organizationId, mode]
  );
  return row ? Number(row.balance_centimes) : 0;
}

/** The balance of one wallet and when it last moved (null: it never has). */
export async function accountOf(
  db: Queryable,
  organizationId: string,
  mode: KeyMode
): Promise<{ balanceCentimes: number; updatedAt: string | null }> {
  const [row] = await db.query<{ balance_centimes: string | number; updated_at: Date }>(
    "SELECT balance_centimes, updated_at FROM wallet.accounts WHERE organization_id = $1 AND mode = $2",
    [organizationId, mode]
  );
  return row
    ? { balanceCentimes: Number(row.balance_centimes), updatedAt: row.updated_at.toISOString() }
    : { balanceCentimes: 0, updatedAt: null };
}

/**
 * One page of a wallet's movements of money, newest first (in the order they hit the balance:
 * migration wallet/002). The zero refunds that only guard
 * against a late debit (tombstones, see refundForParcel) moved nothing and are left out.
 */
export async function ledgerPage(
  db: Queryable,
  organizationId: string,
  mode: KeyMode,
  page: { page: number; size: number }
): Promise<{ entries: LedgerEntry[]; total: number }> {
  const where = "organization_id = $1 AND mode = $2 AND amount_centimes > 0";
  const [{ total }] = await db.query<{ total: number }>(`SELECT count(*)::int AS total FROM wallet.ledger WHERE ${where}`, [
    organizationId,
    mode
  ]);
  const rows = await db.query<LedgerRow>(`SELECT * FROM wallet.ledger WHERE ${where} ORDER BY seq DESC LIMIT $3 OFFSET $4`, [
    organizationId,
    mode,
    page.size,
    page.page * page.size
  ]);
  return { entries: rows.map(toEntry), total };
}

/** Adds to a wallet (created on first use) and answers the balance after. */
async function addToAccount(tx: Queryable, organizationId: string, mode: KeyMode, amountCentimes: number): Promise<number> {
  const [row] = await tx.query<{ balance_centimes: string | number }>(
    `INSERT INTO wallet.accounts (organization_id, mode, balance_centimes) VALUES ($1, $2, $3)
     ON CONFLICT (organization_id, mode)
     DO UPDATE SET balance_centimes = wallet.accounts.balance_centimes + EXCLUDED.balance_centimes, updated_at = now()
     RETURNING balance_centimes`,
    [organizationId, mode, amountCentimes]
  );
  return Number(row.balance_centimes);
}

/**
 * Credits a COD remittance, once: the remittance's lock serialises repeats, and a repeat answers
 * the first credit (the unique index of migration wallet/003 backs this up).
 */
export async function creditForRemittance(
  tx: Queryable,
  credit: { remittanceId: string; organizationId: string; mode: KeyMode; amountCentimes: number; reference: string }
): Promise<LedgerEntry> {
  await tx.query("SELECT pg_advisory_xact_lock(hashtext($1))", [`wallet-remittance:${credit.remittanceId}`]);
  const [existing] = await tx.query<LedgerRow>("SELECT * FROM wallet.ledger WHERE remittance_id = $1", [credit.remittanceId]);
  if (existing) return toEntry(existing);
  const balance = await addToAccount(tx, credit.organizationId, credit.mode, credit.amountCentimes);
  return insertEntry(tx, {
    organizationId: credit.organizationId,
    mode: credit.mode,
    kind: "cod_credit",
    amountCentimes: credit.amountCentimes,
    parcelId: null,
    remittanceId: credit.remittanceId,
    balanceAfter: balance,
    reason: `COD remittance ${credit.reference}`
  });
}

export async function topUp(
  tx: Queryable,
  organizationId: string,
  mode: KeyMode,
  amountCentimes: number,
  reason: string | null
): Promise<number> {
  const balance = await addToAccount(tx, organizationId, mode, amountCentimes);
  await insertEntry(tx, { organizationId, mode, kind: "top_up", amountCentimes, parcelId: null, balanceAfter: balance, reason });
  return balance;
}

/**
 * Gives back what was debited for a parcel, once. Without a debit it leaves a zero tombstone,
 * so that a debit still in flight (the saga timed out waiting for it) cannot land afterwards.
 */
export async function refundForParcel(tx: Queryable, movement: ParcelMovement, reason: string | null): Promise<LedgerEntry> {
  await lockParcel(tx, movement.parcelId);
  const existing = await entryOf(tx, movement.parcelId, "refund");
  if (existing) return existing;
  const debit = await entryOf(tx, movement.parcelId, "debit");
  const amount = debit ? debit.amountCentimes : 0;
  const balance = await addToAccount(tx, movement.organizationId, movement.mode, amount);
  return insertEntry(tx, { ...movement, kind: "refund", amountCentimes: amount, balanceAfter: balance, reason });
}

export interface RefundItem extends ParcelMovement {
  reason: string | null;
}

/**
 * The refunds of one group in one transaction (docs/decisions/0025): the parcels' and the
 * accounts' locks first, in one order, then each refund behind its own savepoint.
 */
export async function refundGroup(tx: Queryable, items: readonly RefundItem[]): Promise<ItemOutcome<LedgerEntry>[]> {
  await lockParcels(
    tx,
    items.map(i => i.parcelId)
  );
  await lockAccounts(tx, items);
  return eachInSavepoint(tx, items, ({ reason, ...movement }) => refundForParcel(tx, movement, reason));
}

/** What a charge that may take the balance below zero is for, and the account's column that bounds it (migrations wallet/004, 006). */
const BELOW_ZERO_CHARGES = {
  return_fee: { column: "return_fees_centimes", reason: "return fee" },
  return_shipment: { column: "return_shipments_centimes", reason: "return shipment" }
} as const;

/**
 * Charges a returned parcel's fee, or a customer's return shipment (its return parcel), once (a
 * repeat answers the first charge). Never refused for want of balance: the return already
 * happened and its cost is owed, so the balance may go below zero — by these charges only (the
 * accounts' constraint holds it above minus the charges ever made). Debits keep refusing until a
 * top-up brings the balance back above the price.
 */
export async function chargeBelowZero(
  tx: Queryable,
  kind: keyof typeof BELOW_ZERO_CHARGES,
  movement: ParcelMovement,
  amountCentimes: number
): Promise<LedgerEntry> {
  await lockParcel(tx, movement.parcelId);
  const existing = await entryOf(tx, movement.parcelId, kind);
  if (existing) return existing;
  const { column, reason } = BELOW_ZERO_CHARGES[kind];
  const [row] = await tx.query<{ balance_centimes: string | number }>(
    `INSERT INTO wallet.accounts (organization_id, mode, balance_centimes, ${column}) VALUES ($1, $2, -$3::bigint, $3)
     ON CONFLICT (organization_id, mode) DO UPDATE
       SET balance_centimes = wallet.accounts.balance_centimes - $3, ${column} = wallet.accounts.${column} + $3,
           updated_at = now()
     RETURNING balance_centimes`,
    [movement.organizationId, movement.mode, amountCentimes]
  );
  return insertEntry(tx, { ...movement, kind, amountCentimes, balanceAfter: Number(row.balance_centimes), reason });
}

/**
 * Credits an approved claim, once: the compensation plus what the parcel cost (its debit, unless a
 * refund already gave it back; a return parcel's return shipment). Under the parcel's lock, like its debit and refund; a repeat
 * answers the first credit (the unique index of migration wallet/007 backs this up).
 */
export async function creditClaimCompensation(
  tx: Queryable,
  credit: ParcelMovement & { claimId: string; compensationCentimes: number }
): Promise<LedgerEntry> {
  await lockParcel(tx, credit.parcelId);
  const [existing] = await tx.query<LedgerRow>("SELECT * FROM wallet.ledger WHERE claim_id = $1", [credit.claimId]);
  if (existing) return toEntry(existing);
  // What the parcel cost: its debit, or for a customer's return parcel the return shipment charged at drop-off.
  const paid = (await entryOf(tx, credit.parcelId, "debit")) ?? (await entryOf(tx, credit.parcelId, "return_shipment"));
  const refunded = (await entryOf(tx, credit.parcelId, "refund")) !== null;
  const amount = credit.compensationCentimes + (paid && !refunded ? paid.amountCentimes : 0);
  const { claimId, compensationCentimes: _compensation, ...movement } = credit;
  const balance = await addToAccount(tx, movement.organizationId, movement.mode, amount);
  return insertEntry(tx, {
    ...movement,
    kind: "claim_compensation",
    amountCentimes: amount,
    claimId,
    balanceAfter: balance,
    reason: "claim compensation"
  });
}

export async function recentEntries(db: Queryable, organizationId: string, mode: KeyMode, limit: number): Promise<LedgerEntry[]> {
  const rows = await db.query<LedgerRow>(
    `SELECT * FROM wallet.ledger WHERE organization_id = $1 AND mode = $2
      ORDER BY created_at DESC, id DESC LIMIT $3`,
    [organizationId, mode, limit]
  );
  return rows.map(toEntry);
}

/**
 * For the sweeper, under the parcel's lock: "debited" when the money was taken and not given
 * back (finish the parcel), otherwise "void" after making sure no debit can land any more.
 */
export async function settlePendingParcel(tx: Queryable, movement: ParcelMovement): Promise<"debited" | "void"> {
  await lockParcel(tx, movement.parcelId);
  const debit = await entryOf(tx, movement.parcelId, "debit");
  const refund = await entryOf(tx, movement.parcelId, "refund");
  if (debit && !refund) return "debited";
  if (!refund) await refundForParcel(tx, movement, "abandoned before completion");
  return "void";
}
