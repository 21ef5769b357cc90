import type { Caller } from "../../lib/contract";
import { AppError } from "../../lib/errors";
import { ErrorBody, toErrorResponse } from "../../lib/http-errors";
import { validateWith } from "../../lib/validation";
import { createParcel, CreateOutcome, SagaDeps } from "./create-parcel";
import { BatchItemInput, BatchItemSchema } from "./parcels.params";
import type { Owner, ParcelRecord } from "./parcels.store";

/** What became of one item: its parcel, or the error POST /parcels would have answered for it. */
export type BatchOutcome = { index: number; idempotencyKey: string | null } & (
  { parcel: ParcelRecord; replayed: boolean } | { error: ErrorBody }
);

/** Each wallet call of an item keeps the ordinary time-out, not what is left of the whole batch's. */
const ITEM_CALL_TIMEOUT_MS = 10_000;

function withItemTimeout(caller: Caller): Caller {
  return { call: (action, params, opts) => caller.call(action, params, { timeout: ITEM_CALL_TIMEOUT_MS, ...opts }) };
}

function invalidItem(problems: { field: string; message: string }[]): ErrorBody {
  return toErrorResponse(new AppError("VALIDATION_FAILED", "The item is not valid", { details: problems })).body;
}

/** One signal per item: resolved once the item sent its debit, or once it knows it never will. */
function debitTurns(count: number): { wait: () => Promise<void>; sent: () => void }[] {
  const sent = Array.from({ length: count }, () => Promise.withResolvers<void>());
  return sent.map((own, index) => ({
    wait: () => (index === 0 ? Promise.resolve() : sent[index - 1].promise),
    sent: () => own.resolve()
  }));
}

/**
 * Creates the items of a batch together, each through the create-parcel saga on its own (its own
 * validation, price, debit and idempotency key), so that any item may fail without touching the
 * others. They run at once, so their writes share the services' group commits (docs/decisions/0025)
 * and 100 items cost a few commits; but each sends its debit only after the item before it sent
 * its own, so the wallet takes them in the batch's order and when the balance runs out it is the
 * last items that answer 402, predictably. An item repeating an earlier item's idempotencyKey waits
 * for that item and then answers as a retry would (its parcel again, or 422 for another body).
 */
export async function createBatch(deps: SagaDeps, owner: Owner, items: readonly unknown[]): Promise<BatchOutcome[]> {
  const caller = withItemTimeout(deps.caller);
  const turns = debitTurns(items.length);
  const byKey = new Map<string, Promise<unknown>>();
  const outcomes = items.map(async (item, index): Promise<BatchOutcome> => {
    const turn = turns[index];
    try {
      const checked = validateWith<BatchItemInput>(BatchItemSchema, item, "item");
      if ("problems" in checked) return { index, idempotencyKey: null, error: invalidItem(checked.problems) };
      const { idempotencyKey, ...input } = checked.value;
      const earlier = idempotencyKey === null ? undefined : byKey.get(idempotencyKey);
      const run = (async (): Promise<CreateOutcome> => {
        await earlier?.catch(() => undefined);
        return createParcel({ ...deps, caller, debitTurn: turn }, owner, input, idempotencyKey);
      })();
      if (idempotencyKey !== null) byKey.set(idempotencyKey, run);
      try {
        return { index, idempotencyKey, ...(await run) };
      } catch (err) {
        const { body, unexpected } = toErrorResponse(err);
        if (unexpected) deps.logger.error(`batch item ${index}: unexpected error`, err);
        return { index, idempotencyKey, error: body };
      }
    } finally {
      turn.sent();
    }
  });
  return Promise.all(outcomes);
}
