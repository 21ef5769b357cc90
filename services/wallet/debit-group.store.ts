import { randomUUID } from "node:crypto";
import type { Queryable } from "../../lib/db/database";
import { named } from "../../lib/db/statement";
import { AppError } from "../../lib/errors";
import type { ItemOutcome } from "../../lib/group-commit";
import type { ParcelMovement } from "./wallet.contract";
import { accountKey, lockAccounts, lockParcels } from "./wallet.store";

/** One parcel's debit, as `wallet.debit` takes it. */
export interface DebitItem extends ParcelMovement {
  amountCentimes: number;
}

/** What a debit answers: what was taken, and the balance right after it. */
export interface DebitDone {
  amountCentimes: number;
  balanceAfterCentimes: number;
}

interface PriorEntry {
  parcel_id: string;
  kind: "debit" | "refund";
  amount_centimes: string | number;
  balance_after_centimes: string | number;
}

// The group's statements, prepared once per connection (lib/db/statement.ts, decision 0037).
const PRIOR_ENTRIES = named(
  "wallet_prior_entries",
  `SELECT parcel_id, kind, amount_centimes, balance_after_centimes FROM wallet.ledger
    WHERE parcel_id = ANY($1::uuid[]) AND kind IN ('debit', 'refund')`
);
const TAKE_FROM_ACCOUNTS = named(
  "wallet_take_from_accounts",
  `UPDATE wallet.accounts AS a SET balance_centimes = a.balance_centimes - t.amount, updated_at = now()
     FROM unnest($1::uuid[], $2::text[], $3::bigint[]) AS t(organization_id, mode, amount)
    WHERE a.organization_id = t.organization_id AND a.mode = t.mode`
);
const INSERT_DEBITS = named(
  "wallet_insert_debits",
  `INSERT INTO wallet.ledger (id, organization_id, mode, kind, amount_centimes, parcel_id, balance_after_centimes)
   SELECT id, organization_id, mode, 'debit', amount, parcel_id, balance_after
     FROM unnest($1::uuid[], $2::uuid[], $3::text[], $4::bigint[], $5::uuid[], $6::bigint[])
       AS t(id, organization_id, mode, amount, parcel_id, balance_after)`
);

const INSUFFICIENT = () => new AppError("INSUFFICIENT_BALANCE", "The wallet balance is insufficient for this parcel");
const ABANDONED = () => new AppError("CONFLICT", "This parcel was abandoned and can no longer be paid");

/**
 * The debits of one group, in one transaction (docs/decisions/0025), each decided alone:
 * - every parcel's lock (the one refunds and the sweeper take, wallet.store lockParcel), all at once
 *   and in one order, so two groups never wait on each other crosswise;
 * - a parcel already debited answers its first debit; one already refunded is refused (CONFLICT);
 *   a parcel twice in the group is debited once and both answers are that debit;
 * - the accounts locked (FOR UPDATE, wallet.store lockAccounts) and read once; the group's debits taken from each balance in
 *   the order they came, each refused (402) when what is left does not cover it — so a wallet for
 *   N parcels pays for exactly N whatever the concurrency;
 * - one update per account for the group's sum, and the ledger lines in one multi-row insert.
 */
export async function debitGroup(tx: Queryable, items: readonly DebitItem[]): Promise<ItemOutcome<DebitDone>[]> {
  const parcelIds = [...new Set(items.map(i => i.parcelId))];
  await lockParcels(tx, parcelIds);
  const prior = await tx.query<PriorEntry>(PRIOR_ENTRIES, [parcelIds]);
  const debited = new Map<string, DebitDone>();
  const refunded = new Set<string>();
  for (const row of prior) {
    if (row.kind === "refund") refunded.add(row.parcel_id);
    else
      debited.set(row.parcel_id, { amountCentimes: Number(row.amount_centimes), balanceAfterCentimes: Number(row.balance_after_centimes) });
  }

  const fresh = items.filter(i => !debited.has(i.parcelId) && !refunded.has(i.parcelId));
  const balances = await lockAccounts(tx, fresh);
  const taken = new Map<string, number>();
  const lines: { item: DebitItem; balanceAfter: number }[] = [];
  const outcomes = items.map((item): ItemOutcome<DebitDone> => {
    const before = debited.get(item.parcelId);
    if (before) return { ok: true, value: before };
    if (refunded.has(item.parcelId)) return { ok: false, error: ABANDONED() };
    const key = accountKey(item.organizationId, item.mode);
    const left = balances.get(key) ?? 0;
    if (left < item.amountCentimes) return { ok: false, error: INSUFFICIENT() };
    const balanceAfter = left - item.amountCentimes;
    balances.set(key, balanceAfter);
    taken.set(key, (taken.get(key) ?? 0) + item.amountCentimes);
    const done = { amountCentimes: item.amountCentimes, balanceAfterCentimes: balanceAfter };
    debited.set(item.parcelId, done);
    lines.push({ item, balanceAfter });
    return { ok: true, value: done };
  });
  if (lines.length === 0) return outcomes;

  const accounts = [...taken.entries()];
  await tx.query(TAKE_FROM_ACCOUNTS, [
    accounts.map(([k]) => k.split("/")[0]),
    accounts.map(([k]) => k.split("/")[1]),
    accounts.map(([, amount]) => amount)
  ]);
  await tx.query(INSERT_DEBITS, [
    lines.map(() => randomUUID()),
    lines.map(l => l.item.organizationId),
    lines.map(l => l.item.mode),
    lines.map(l => l.item.amountCentimes),
    lines.map(l => l.item.parcelId),
    lines.map(l => l.balanceAfter)
  ]);
  return outcomes;
}
