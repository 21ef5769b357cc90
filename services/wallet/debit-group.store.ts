import { randomUUID } from "node:crypto";
import type { Queryable } from "../../lib/db/database";
import { named } from "../../lib/db/statement";
import { AppError } from "../../lib/errors";
import type { ItemOutcome } from "../../lib/group-commit";
import type { ParcelMovement } from "./wallet.contract";
import type { KeyMode } from "../../lib/api-keys";
import { accountColumns, accountKey, lockParcels } from "./wallet.store";

/** One parcel's debit, as `wallet.debit` takes it. */
export interface DebitItem extends ParcelMovement {
  amountCentimes: number;
}

/** What a debit answers: what was taken, and the balance right after it. */
export interface DebitDone {
  amountCentimes: number;
  balanceAfterCentimes: number;
}

/** A debit or refund already in the ledger for one of the group's parcels, or one of the group's accounts, locked. */
type GroupStateRow =
  | { what: "entry"; id: string; kind: "debit" | "refund"; amount_centimes: string | number; balance_centimes: string | number }
  | { what: "account"; id: string; kind: KeyMode; amount_centimes: null; balance_centimes: string | number };

// The group's statements, prepared once per connection (lib/db/statement.ts, decision 0037).
// What the group needs to decide, read once its parcels are locked (a statement of its own: its
// snapshot then sees every debit and refund committed under those locks): the parcels' prior
// debits and refunds, and the balances of their accounts, locked in one order until the commit
// (FOR UPDATE reads an account's latest balance, whatever the snapshot).
const GROUP_STATE = named(
  "wallet_debit_group_state",
  `WITH accounts AS (
     SELECT organization_id, mode, balance_centimes FROM wallet.accounts
      WHERE (organization_id, mode) IN (SELECT * FROM unnest($2::uuid[], $3::text[]))
      ORDER BY organization_id, mode FOR UPDATE
   )
   SELECT 'entry' AS what, parcel_id::text AS id, kind, amount_centimes, balance_after_centimes AS balance_centimes
     FROM wallet.ledger WHERE parcel_id = ANY($1::uuid[]) AND kind IN ('debit', 'refund')
   UNION ALL
   SELECT 'account', organization_id::text, mode, NULL, balance_centimes FROM accounts`
);
// The group's sums taken from its accounts and its ledger lines, in one statement.
const TAKE_AND_RECORD = named(
  "wallet_take_and_record_debits",
  `WITH taken AS (
     UPDATE wallet.accounts AS a SET balance_centimes = a.balance_centimes - t.amount, updated_at = now()
       FROM unnest($1::uuid[], $2::text[], $3::bigint[]) AS t(organization_id, mode, amount)
      WHERE a.organization_id = t.organization_id AND a.mode = t.mode
   )
   INSERT INTO wallet.ledger (id, organization_id, mode, kind, amount_centimes, parcel_id, balance_after_centimes)
   SELECT id, organization_id, mode, 'debit', amount, parcel_id, balance_after
     FROM unnest($4::uuid[], $5::uuid[], $6::text[], $7::bigint[], $8::uuid[], $9::bigint[])
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
 * - the accounts locked (FOR UPDATE, in one order like wallet.store lockAccounts) and read once, in
 *   the statement that reads the parcels' prior entries; the group's debits taken from each balance in
 *   the order they came, each refused (402) when what is left does not cover it — so a wallet for
 *   N parcels pays for exactly N whatever the concurrency;
 * - one update per account for the group's sum and the ledger lines, in one statement.
 * Five round trips whatever the group's size: BEGIN, the locks, the state, the writes, COMMIT.
 */
export async function debitGroup(tx: Queryable, items: readonly DebitItem[]): Promise<ItemOutcome<DebitDone>[]> {
  const parcelIds = [...new Set(items.map(i => i.parcelId))];
  await lockParcels(tx, parcelIds);
  const keys = [...new Set(items.map(i => accountKey(i.organizationId, i.mode)))].sort();
  const state = await tx.query<GroupStateRow>(GROUP_STATE, [parcelIds, ...accountColumns(keys)]);
  const debited = new Map<string, DebitDone>();
  const refunded = new Set<string>();
  const balances = new Map<string, number>();
  for (const row of state) {
    if (row.what === "account") balances.set(accountKey(row.id, row.kind), Number(row.balance_centimes));
    else if (row.kind === "refund") refunded.add(row.id);
    else debited.set(row.id, { amountCentimes: Number(row.amount_centimes), balanceAfterCentimes: Number(row.balance_centimes) });
  }

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
  await tx.query(TAKE_AND_RECORD, [
    ...accountColumns(accounts.map(([key]) => key)),
    accounts.map(([, amount]) => amount),
    lines.map(() => randomUUID()),
    lines.map(l => l.item.organizationId),
    lines.map(l => l.item.mode),
    lines.map(l => l.item.amountCentimes),
    lines.map(l => l.item.parcelId),
    lines.map(l => l.balanceAfter)
  ]);
  return outcomes;
}
