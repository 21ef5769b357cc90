import { call, Caller } from "../../lib/contract";
import type { Database, Queryable } from "../../lib/db/database";
import { AppError } from "../../lib/errors";
import { GroupCommit, GroupCommitOptions, ItemOutcome } from "../../lib/group-commit";
import { eventTypeFor } from "../../lib/parcel-status";
import type { DebitOutcome } from "../wallet/wallet.contract";
import * as groupStore from "./create-groups.store";
import type * as store from "./parcels.store";
import { eventOf } from "./status-change";

/**
 * The create path, one group end to end (docs/decisions/0037, after 0025): a group of creates has
 * its PENDING rows inserted in one statement, its debits made in ONE `wallet.debitBatch` call, and
 * PENDING → CREATED with history lines and outbox rows for all of it in one statement. One
 * grouper, not three in a row: the group formed at the insert is the group that pays and finishes.
 * The saga's states are those of DESIGN §3 per parcel (a PENDING row before any debit, a debit
 * idempotent by parcel id, CREATED + outbox in one transaction), so the sweeper and compensation
 * work on each row as before.
 */
export interface CreateGroups {
  creates: GroupCommit<store.NewParcel, CreateStep>;
}

/** How far one create of a group went; the saga (create-parcel.ts) takes it from there. */
export type CreateStep =
  /** A unique key was taken (tracking number or Idempotency-Key): nothing was inserted or debited. */
  | { step: "taken" }
  /** The wallet refused the debit (402 INSUFFICIENT_BALANCE, 409 CONFLICT); the PENDING row is discarded. */
  | { step: "refused"; error: AppError }
  /** The debit may or may not have happened (no answer, or the wallet's group failed): compensate. */
  | { step: "debitUnknown"; row: store.ParcelRecord; error: Error }
  /** Debited but not finished (the finishing transaction failed): compensate. */
  | { step: "finishFailed"; row: store.ParcelRecord; error: Error }
  /** Finished: the CREATED parcel, the row as the sweeper left it, or null when it is gone. */
  | { step: "done"; row: store.ParcelRecord; parcel: store.ParcelRecord | null };

/** As `wallet.debit` had, per group: the wallet's group commit answers well within it. */
const DEBIT_BATCH_TIMEOUT_MS = 10_000;
const WALLET_REFUSALS = new Set(["INSUFFICIENT_BALANCE", "CONFLICT"]);

export function createGroups(db: () => Database, options: Omit<GroupCommitOptions, "name">, caller: Caller): CreateGroups {
  return { creates: new GroupCommit(items => createGroup(db(), caller, items), { ...options, name: "creates" }) };
}

/**
 * One group's creates. Only the insert may throw (then nothing was debited and every item fails
 * with it); after it, every item gets its own step, never an exception.
 */
async function createGroup(db: Database, caller: Caller, items: readonly store.NewParcel[]): Promise<ItemOutcome<CreateStep>[]> {
  const inserted = (await groupStore.insertPendingGroup(db, items)).map(o => (o.ok ? o.value : null));
  const rows = inserted.filter((row): row is store.ParcelRecord => row !== null);
  const steps = new Map<string, CreateStep>();
  if (rows.length > 0) {
    const debits = await debitAll(caller, rows);
    const refused: store.ParcelRecord[] = [];
    const debited: store.ParcelRecord[] = [];
    rows.forEach((row, i) => {
      const step = debitStep(row, debits[i]);
      if (step) steps.set(row.id, step);
      if (!step) debited.push(row);
      else if (step.step === "refused") refused.push(row);
    });
    // A failed delete leaves a PENDING row the wallet never debited: the sweeper discards it.
    if (refused.length > 0)
      await groupStore
        .deletePendingGroup(
          db,
          refused.map(r => r.id)
        )
        .catch(() => undefined);
    if (debited.length > 0) await finishAll(db, debited, steps);
  }
  return inserted.map(row => ({ ok: true, value: row ? steps.get(row.id)! : { step: "taken" } }));
}

/** The group's debits in one call; the call failing as a whole leaves every debit unknown. */
async function debitAll(caller: Caller, rows: readonly store.ParcelRecord[]): Promise<(DebitOutcome | Error)[]> {
  try {
    const { outcomes } = await call(
      caller,
      "wallet.debitBatch",
      { debits: rows.map(r => ({ parcelId: r.id, organizationId: r.organizationId, mode: r.mode, amountCentimes: r.priceCentimes })) },
      { timeout: DEBIT_BATCH_TIMEOUT_MS }
    );
    return rows.map((_, i) => outcomes[i] ?? new Error("wallet.debitBatch gave no answer for this item"));
  } catch (err) {
    return rows.map(() => err as Error);
  }
}

function isRefusal(debit: DebitOutcome | Error): boolean {
  return !(debit instanceof Error) && debit.error !== undefined && WALLET_REFUSALS.has(debit.error.code);
}

/** The step a debit's answer leads to; undefined when debited (the row goes on to be finished). */
function debitStep(row: store.ParcelRecord, debit: DebitOutcome | Error): CreateStep | undefined {
  if (debit instanceof Error) return { step: "debitUnknown", row, error: debit };
  if (debit.error === undefined) return undefined;
  if (isRefusal(debit)) return { step: "refused", error: new AppError(debit.error.code as "CONFLICT", debit.error.message) };
  return { step: "debitUnknown", row, error: new Error(debit.error.message) };
}

async function finishAll(db: Database, rows: readonly store.ParcelRecord[], steps: Map<string, CreateStep>): Promise<void> {
  try {
    const finished = await finishCreationGroup(
      db,
      rows.map(row => ({ row, actor: "merchant" }))
    );
    rows.forEach((row, i) => {
      const outcome = finished[i];
      steps.set(row.id, { step: "done", row, parcel: outcome?.ok ? outcome.value : null });
    });
  } catch (err) {
    for (const row of rows) steps.set(row.id, { step: "finishFailed", row, error: err as Error });
  }
}

/**
 * PENDING → CREATED for a group of PENDING rows, with their history lines and outbox rows, in one
 * statement (create-groups.store.ts finishGroup) whatever the group's size. A PENDING row has no
 * history, so its creation is its event number 1 (no count needed). The time is this process's,
 * never before a row's own creation. Rows that are no longer PENDING (the sweeper got there first)
 * are answered as they are; rows that are gone, with null.
 */
export async function finishCreationGroup(
  db: Queryable,
  items: readonly { row: store.ParcelRecord; actor: string }[]
): Promise<ItemOutcome<store.ParcelRecord | null>[]> {
  const at = new Date(Math.max(Date.now(), ...items.map(i => i.row.createdAt.getTime())));
  const created = items.map(({ row, actor }) => {
    const parcel: store.ParcelRecord = { ...row, status: "CREATED", updatedAt: at };
    return { parcel, actor, event: eventOf(parcel, { type: eventTypeFor("CREATED"), sequence: 1, occurredAt: at, reason: null }) };
  });
  const done = await groupStore.finishGroup(db, created, at);
  const byId = new Map(created.filter(c => done.has(c.parcel.id)).map(c => [c.parcel.id, c.parcel]));
  const others = items.map(i => i.row.id).filter(id => !byId.has(id));
  if (others.length > 0) for (const p of await groupStore.parcelsByIds(db, others)) byId.set(p.id, p);
  return items.map(i => ({ ok: true, value: byId.get(i.row.id) ?? null }));
}
