import type { Caller } from "../../lib/contract";
import { AppError } from "../../lib/errors";
import { ErrorBody, toErrorResponse } from "../../lib/http-errors";
import { validateWith } from "../../lib/validation";
import { createParcel, SagaDeps } from "./create-parcel";
import { BatchItemInput, BatchItemSchema } from "./parcels.params";
import type { Owner, ParcelRecord } from "./parcels.store";

/** What became of one item: its parcel, or the error POST /parcels would have answered for it. */
export type BatchOutcome = { index: number; idempotencyKey: string | null } & (
  { parcel: ParcelRecord; replayed: boolean } | { error: ErrorBody }
);

/**
 * Each wallet call of an item keeps the ordinary time-out, not what is left of the whole batch's:
 * a wallet that hangs costs one item ten seconds, and the rest are then not attempted.
 */
const ITEM_CALL_TIMEOUT_MS = 10_000;

function withItemTimeout(caller: Caller): Caller {
  return { call: (action, params, opts) => caller.call(action, params, { timeout: ITEM_CALL_TIMEOUT_MS, ...opts }) };
}

function invalidItem(problems: { field: string; message: string }[]): ErrorBody {
  return toErrorResponse(new AppError("VALIDATION_FAILED", "The item is not valid", { details: problems })).body;
}

/**
 * Creates the items of a batch one after the other, in order, each through the create-parcel saga
 * on its own (its own validation, price, debit and idempotency key), so that any item may fail
 * without touching the others; in order, so that when the balance runs out it is the last items
 * that answer 402, predictably. Once the wallet cannot be reached, the remaining items are not
 * attempted: they answer the same 503 at once instead of each waiting for a time-out.
 */
export async function createBatch(deps: SagaDeps, owner: Owner, items: readonly unknown[]): Promise<BatchOutcome[]> {
  const itemDeps: SagaDeps = { ...deps, caller: withItemTimeout(deps.caller) };
  const outcomes: BatchOutcome[] = [];
  let unavailable: ErrorBody | null = null;
  for (const [index, item] of items.entries()) {
    const checked = validateWith<BatchItemInput>(BatchItemSchema, item, "item");
    if ("problems" in checked) {
      outcomes.push({ index, idempotencyKey: null, error: invalidItem(checked.problems) });
      continue;
    }
    const { idempotencyKey, ...input } = checked.value;
    if (unavailable) {
      outcomes.push({ index, idempotencyKey, error: unavailable });
      continue;
    }
    try {
      outcomes.push({ index, idempotencyKey, ...(await createParcel(itemDeps, owner, input, idempotencyKey)) });
    } catch (err) {
      const { body, unexpected } = toErrorResponse(err);
      if (unexpected) deps.logger.error(`batch item ${index}: unexpected error`, err);
      if (body.code === "UNAVAILABLE") {
        unavailable = { ...body, message: "Not attempted: the wallet could not be reached for an earlier item of this batch; retry" };
      }
      outcomes.push({ index, idempotencyKey, error: body });
    }
  }
  return outcomes;
}
