import type { Queryable } from "../../lib/db/database";
import { named } from "../../lib/db/statement";
import { AppError } from "../../lib/errors";
import type { ItemOutcome } from "../../lib/group-commit";
import type { ParcelMovement } from "./wallet.contract";

/** One parcel's debit, as `wallet.debit` takes it. */
export interface DebitItem extends ParcelMovement {
  amountCentimes: number;
}

/** What a debit answers: what was taken, and the balance right after it. */
export interface DebitDone {
  amountCentimes: number;
  balanceAfterCentimes: number;
}

/** One item's answer from wallet.debit_group, by its position (1-based) in the group. */
interface DebitGroupRow {
  item: number;
  outcome: "debited" | "abandoned" | "insufficient";
  amount_centimes: string | number | null;
  balance_after_centimes: string | number | null;
}

// The whole group in one statement (migration wallet/008, docs/decisions/0044), prepared once per connection.
const DEBIT_GROUP = named(
  "wallet_debit_group",
  `SELECT item, outcome, amount_centimes, balance_after_centimes
     FROM wallet.debit_group($1::text[], $2::uuid[], $3::text[], $4::bigint[]) ORDER BY item`,
  { writes: true }
);

const INSUFFICIENT = () => new AppError("INSUFFICIENT_BALANCE", "The wallet balance is insufficient for this parcel");
const ABANDONED = () => new AppError("CONFLICT", "This parcel was abandoned and can no longer be paid");

function outcomeOf(row: DebitGroupRow | undefined): ItemOutcome<DebitDone> {
  if (!row) return { ok: false, error: new Error("wallet.debit_group gave no answer for this item") };
  if (row.outcome === "abandoned") return { ok: false, error: ABANDONED() };
  if (row.outcome === "insufficient") return { ok: false, error: INSUFFICIENT() };
  return { ok: true, value: { amountCentimes: Number(row.amount_centimes), balanceAfterCentimes: Number(row.balance_after_centimes) } };
}

/**
 * The debits of one group, each decided alone, in ONE statement that is its own transaction
 * (wallet.debit_group, migration wallet/008; docs/decisions/0025 for the rules, 0044 for the one
 * round trip). Call it outside any transaction: its locks (each parcel's, then the accounts')
 * are held until that statement commits.
 * - every parcel's lock (wallet.lock_parcels, the one refunds and the sweeper take too), all at once
 *   and in one order, so two groups never wait on each other crosswise;
 * - a parcel already debited answers its first debit; one already refunded is refused (CONFLICT);
 *   a parcel twice in the group is debited once and both answers are that debit;
 * - the accounts locked (FOR UPDATE, in one order like wallet.store lockAccounts) and read after
 *   the parcels' locks are held, with the parcels' prior entries; the group's debits taken from
 *   each balance in the order they came, each refused (402) when what is left does not cover it —
 *   so a wallet for N parcels pays for exactly N whatever the concurrency;
 * - one update per account for the group's sum and the ledger lines, in one statement.
 */
export async function debitGroup(db: Queryable, items: readonly DebitItem[]): Promise<ItemOutcome<DebitDone>[]> {
  if (items.length === 0) return [];
  const rows = await db.query<DebitGroupRow>(DEBIT_GROUP, [
    items.map(i => i.parcelId),
    items.map(i => i.organizationId),
    items.map(i => i.mode),
    items.map(i => i.amountCentimes)
  ]);
  const byItem = new Map(rows.map(row => [Number(row.item), row]));
  return items.map((_, i) => outcomeOf(byItem.get(i + 1)));
}
