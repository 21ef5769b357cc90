import type { Logger } from "moleculer";
import { call, Caller } from "../../lib/contract";
import type { Database } from "../../lib/db/database";
import type { SweepResult } from "./parcels.contract";
import * as store from "./parcels.store";
import { repeatCodCredits } from "./remittance";
import { finishCreation } from "./status-change";

export interface SweepDeps {
  db: Database;
  logger: Logger;
  caller: Caller;
}

export type { SweepResult };

/** How long dispatched outbox rows are kept once every consumer acknowledged them. */
const OUTBOX_RETENTION_DAYS = 7;

const BATCH = 100;

/**
 * Settles what a crash left half-done, so that after any crash: every un-refunded debit has
 * exactly one visible parcel. A PENDING parcel whose debit landed is finished (CREATED + event);
 * one whose debit did not is discarded, after the wallet made sure it never will land. Cancelled
 * parcels whose refund was not acknowledged are refunded again (refunds are idempotent).
 */
export async function sweep(deps: SweepDeps, pendingOlderThanSeconds: number): Promise<SweepResult> {
  const result: SweepResult = { finished: 0, discarded: 0, refunded: 0, credited: 0, deferred: 0, purgedEvents: 0 };
  Object.assign(result, await settlePending(deps, pendingOlderThanSeconds));
  for (const row of await store.refundsPending(deps.db, BATCH)) {
    try {
      await call(deps.caller, "wallet.refund", {
        parcelId: row.id,
        organizationId: row.organizationId,
        mode: row.mode,
        reason: "cancelled"
      });
      await store.clearRefundPending(deps.db, row.id);
      result.refunded++;
    } catch (err) {
      result.deferred++;
      deps.logger.warn(`sweeper: refund of parcel ${row.id} left for the next pass (${(err as Error).message})`);
    }
  }
  result.credited = await repeatCodCredits(deps);
  result.purgedEvents = await store.purgeDispatched(deps.db, OUTBOX_RETENTION_DAYS);
  return result;
}

type PendingSettlement = Pick<SweepResult, "finished" | "discarded" | "deferred">;

/** One batch of PENDING rows older than the given age: finished when their debit landed, discarded when it never will. */
async function settlePending(deps: SweepDeps, olderThanSeconds: number): Promise<PendingSettlement & { rows: number }> {
  const result = { finished: 0, discarded: 0, deferred: 0, rows: 0 };
  for (const row of await store.pendingOlderThan(deps.db, olderThanSeconds, BATCH)) {
    result.rows++;
    const movement = { parcelId: row.id, organizationId: row.organizationId, mode: row.mode };
    try {
      const { state } = await call(deps.caller, "wallet.settlePending", movement);
      if (state === "debited") {
        if (await finishCreation(deps.db, row.id, "sweeper", olderThanSeconds)) result.finished++;
      } else {
        await store.deletePending(deps.db, row.id);
        result.discarded++;
      }
    } catch (err) {
      result.deferred++;
      deps.logger.warn(`sweeper: parcel ${row.id} left for the next pass (${(err as Error).message})`);
    }
  }
  return result;
}

/**
 * The sweeper's work on PENDING rows, done at once and to the end, before the service takes its
 * first create: a client whose create was cut by a crash then sees its charged parcel from the
 * first answer after the restart, instead of up to a sweep interval plus the age limit later
 * (and no retry without an Idempotency-Key makes a second parcel in that window). Only rows
 * older than `olderThanSeconds` may be settled: a younger one may be a create a live sibling
 * process is still running. Rows the wallet cannot settle now are left to the sweeper.
 */
export async function settlePendingAtStart(deps: SweepDeps, olderThanSeconds: number): Promise<PendingSettlement> {
  const total: PendingSettlement = { finished: 0, discarded: 0, deferred: 0 };
  for (;;) {
    const batch = await settlePending(deps, olderThanSeconds);
    total.finished += batch.finished;
    total.discarded += batch.discarded;
    total.deferred += batch.deferred;
    // A short batch was the last; a batch that settled nothing would only come back the same.
    if (batch.rows < BATCH || batch.deferred === batch.rows) return total;
  }
}
