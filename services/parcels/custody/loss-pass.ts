import type { Logger } from "moleculer";
import type { CustodyHandoff } from "../../../lib/claim-view";
import { call, Caller } from "../../../lib/contract";
import type { Database } from "../../../lib/db/database";
import * as custody from "./custody.store";
import { dismissStrayInvestigation, openNoScanInvestigation } from "./investigations";
import { declareLost } from "./lost-in-custody";

/**
 * The loss pass (issue 44 D), run every LOSS_PASS_INTERVAL_MS by each parcels instance: parcels a
 * courier or a hub has held without a scan for LOSS_INVESTIGATION_HOURS are investigated; past
 * LOSS_LOST_DAYS they are LOST with a claim; investigations of parcels that arrived another way
 * are dismissed. A batch at a time from a partial index (custody.store silentParcelIds); every
 * step re-reads its parcel under its lock, so the pass is idempotent and safe on several instances.
 * `now` is the pass's clock: tests pass a later one instead of waiting two days.
 */

export interface LossPolicy {
  investigationHours: number;
  lostDays: number;
  capCentimes: number;
}

export interface LossDeps {
  db: Database;
  logger: Logger;
  caller: Caller;
  policy: LossPolicy;
}

export interface LossPassResult {
  opened: number;
  lost: number;
  dismissed: number;
}

const BATCH = 100;
const HOUR_MS = 3_600_000;

/** The custody trail for the claim's evidence, from logistics; null when it cannot answer (the parcel waits for the next pass). */
async function trailOf(deps: LossDeps, parcelId: string): Promise<CustodyHandoff[] | null> {
  try {
    const { trail } = await call(deps.caller, "logistics.getCustody", { id: parcelId });
    return trail.map(e => ({ holder: e.holder, givenBy: e.givenBy, since: e.since, confirmedBy: e.confirmedBy ?? null, scan: e.scan }));
  } catch (err) {
    deps.logger.warn(`loss pass: no custody trail for ${parcelId} yet (${(err as Error).message}); LOST at the next pass`);
    return null;
  }
}

export async function lossPass(deps: LossDeps, now = new Date()): Promise<LossPassResult> {
  const result: LossPassResult = { opened: 0, lost: 0, dismissed: 0 };
  const lostBefore = new Date(now.getTime() - deps.policy.lostDays * 24 * HOUR_MS);
  for (const id of await custody.silentParcelIds(deps.db, lostBefore, BATCH, { withoutOpenInvestigation: false })) {
    const trail = await trailOf(deps, id);
    if (trail === null) continue;
    if (await declareLost({ db: deps.db, capCentimes: deps.policy.capCentimes }, id, lostBefore, deps.policy.lostDays, trail)) {
      result.lost++;
    }
  }
  const investigateBefore = new Date(now.getTime() - deps.policy.investigationHours * HOUR_MS);
  for (const id of await custody.silentParcelIds(deps.db, investigateBefore, BATCH, { withoutOpenInvestigation: true })) {
    if (await openNoScanInvestigation(deps.db, id, investigateBefore)) result.opened++;
  }
  for (const id of await custody.strayInvestigationParcelIds(deps.db, BATCH)) {
    if (await dismissStrayInvestigation(deps.db, id)) result.dismissed++;
  }
  return result;
}
