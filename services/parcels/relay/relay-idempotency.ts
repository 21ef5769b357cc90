import type { Context } from "moleculer";
import type { AgentMeta } from "../../../lib/agent-keys";
import type { Database } from "../../../lib/db/database";
import { AppError, AppErrorData, errorCodeOf, ERROR_STATUS, ErrorCode } from "../../../lib/errors";
import { fingerprintOf, IDEMPOTENCY_HOURS, idempotencyKeyOf, keyReused, stillProcessing } from "../../../lib/idempotency";
import * as kept from "./relay-idempotency.store";

/**
 * The relay API's Idempotency-Key (decision 0031): the partner API's semantics (lib/idempotency.ts)
 * for every POST of a counter, whose answers are kept per relay point and key. The same key and
 * body answer the first answer again, success or business refusal, with its status; another body
 * is 422; a request sent again while the first runs is 409 CONFLICT. Refusals that may change on
 * a retry (a conflict, a limit, the service unavailable) free the key instead of being kept.
 */

/** A claim this old without an answer belongs to a process that died mid-request. */
const ABANDONED_AFTER_SECONDS = 60;
const RETRYABLE: readonly ErrorCode[] = [
  "IDEMPOTENCY_KEY_IN_USE",
  "CONFLICT",
  "RATE_LIMITED",
  "UNAVAILABLE",
  "REQUEST_TIMEOUT",
  "INTERNAL"
];

export type IdempotentMeta = AgentMeta & { idempotencyKey?: string };

export async function relayIdempotently<T>(
  db: Database,
  ctx: Context<object, IdempotentMeta>,
  operation: string,
  run: () => Promise<T>
): Promise<T> {
  const key = idempotencyKeyOf(ctx.meta);
  if (key === null) return run();
  const scope = { relayCode: ctx.meta.agent.relayCode, key };
  const fingerprint = fingerprintOf({ operation, params: ctx.params });
  if (!(await kept.claim(db, scope, { operation, fingerprint, hours: IDEMPOTENCY_HOURS }))) {
    const first = await kept.read(db, scope, ABANDONED_AFTER_SECONDS);
    // Released between the claim and the read (its 24 hours, or a retryable failure): ask again.
    if (!first) return relayIdempotently(db, ctx, operation, run);
    if (first.fingerprint !== fingerprint) throw keyReused();
    if (first.answer) return replay<T>(first.answer);
    if (!first.stale || !(await kept.takeOver(db, scope, first.claimedAt))) throw stillProcessing();
  }
  try {
    const body = await run();
    await kept.keep(db, scope, { ok: true, body });
    return body;
  } catch (err) {
    const code = errorCodeOf(err);
    if (code && !RETRYABLE.includes(code) && ERROR_STATUS[code] < 500) {
      const { message, data } = err as AppError;
      await kept.keep(db, scope, { ok: false, code, message, ...(data?.details ? { details: data.details } : {}) });
    } else {
      await kept.release(db, scope);
    }
    throw err;
  }
}

function replay<T>(answer: kept.KeptAnswer): T {
  if (answer.ok) return answer.body as T;
  throw new AppError(answer.code as ErrorCode, answer.message, answer.details ? ({ details: answer.details } as AppErrorData) : undefined);
}
