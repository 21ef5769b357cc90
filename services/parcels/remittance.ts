import { randomUUID } from "node:crypto";
import type { Logger } from "moleculer";
import type { KeyMode } from "../../lib/api-keys";
import { algiersDate } from "../../lib/cod";
import { call, Caller } from "../../lib/contract";
import type { Database } from "../../lib/db/database";
import { AppError, FieldProblem } from "../../lib/errors";
import type { RemittanceRef } from "../../lib/events";
import { toDzd } from "../../lib/money";
import * as cod from "./cod.store";
import { recordCodEvent } from "./status-change";

export interface RemittanceDeps {
  db: Database;
  logger: Logger;
  caller: Caller;
}

export interface RemittanceRequest {
  organizationId: string;
  mode: KeyMode;
  /** null: every collected parcel not yet remitted. */
  parcelIds: string[] | null;
  reference: string;
  paidOn: string | null;
}

export function remittanceRef(r: cod.RemittanceRecord): RemittanceRef {
  return {
    id: r.id,
    reference: r.reference,
    paidOn: r.paidOn,
    payout: r.payout,
    parcelCount: r.parcelCount,
    totalDzd: toDzd(r.totalCentimes)
  };
}

/** What is wrong with each asked parcel that cannot be remitted, by its position in the list. */
function problemsOf(request: RemittanceRequest, locked: Awaited<ReturnType<typeof cod.lockRemittable>>): FieldProblem[] {
  const byId = new Map(locked.map(p => [p.id, p]));
  return (request.parcelIds ?? []).flatMap((id, i) => {
    const parcel = byId.get(id);
    const field = `parcelIds.${i}`;
    if (!parcel || parcel.status === "PENDING" || parcel.organizationId !== request.organizationId || parcel.mode !== request.mode)
      return [{ field, message: "is not a parcel of this organisation and mode" }];
    if (parcel.codStatus !== "COLLECTED")
      return [{ field, message: `cannot be remitted: its COD is ${parcel.codStatus ?? "none (no cash on delivery)"}` }];
    return [];
  });
}

/**
 * One remittance, in one transaction: the parcels are locked, checked, marked REMITTED, listed in
 * the remittance (where a parcel can appear once only: a primary key) and each gets its cod.remitted
 * event in the outbox. The total is the sum of integer centimes. A WALLET remittance is then
 * credited to the wallet (idempotent per remittance); until the wallet acknowledges, the sweeper
 * repeats the credit.
 */
export async function createRemittance(deps: RemittanceDeps, request: RemittanceRequest): Promise<cod.RemittanceRecord> {
  const remittance = await deps.db.transaction(async tx => {
    const owner = { organizationId: request.organizationId, mode: request.mode };
    const payout = await cod.payoutOf(tx, request.organizationId);
    const locked = await cod.lockRemittable(tx, owner, request.parcelIds);
    const problems = problemsOf(request, locked);
    if (problems.length > 0)
      throw new AppError("COD_NOT_REMITTABLE", "Some parcels cannot be remitted: see details", { details: problems });
    if (locked.length === 0)
      throw new AppError("NOTHING_TO_REMIT", `The organisation has no collected COD waiting to be remitted in ${request.mode} mode`);
    const parcels = locked.map(p => ({ id: p.id, amountCentimes: p.codAmountCentimes! }));
    const record = await cod.insertRemittance(
      tx,
      {
        id: randomUUID(),
        organizationId: request.organizationId,
        mode: request.mode,
        reference: request.reference,
        paidOn: request.paidOn ?? algiersDate(new Date()),
        payout,
        parcelCount: parcels.length,
        totalCentimes: parcels.reduce((sum, p) => sum + p.amountCentimes, 0),
        walletCreditPending: payout === "WALLET"
      },
      parcels
    );
    const ref = remittanceRef(record);
    for (const parcel of await cod.markRemitted(
      tx,
      parcels.map(p => p.id)
    )) {
      await recordCodEvent(tx, parcel, { type: "cod.remitted", from: "COLLECTED", remittance: ref });
    }
    return record;
  });
  if (remittance.walletCreditPending) await creditWallet(deps, remittance);
  return remittance;
}

/** True once the wallet acknowledged the credit; a failure is left to the sweeper. */
async function creditWallet(deps: RemittanceDeps, r: cod.RemittanceRecord): Promise<boolean> {
  try {
    await call(deps.caller, "wallet.creditCodRemittance", {
      remittanceId: r.id,
      organizationId: r.organizationId,
      mode: r.mode,
      amountCentimes: r.totalCentimes,
      reference: r.reference
    });
    await cod.clearCreditPending(deps.db, r.id);
    return true;
  } catch (err) {
    deps.logger.warn(`remittance ${r.id}: wallet credit deferred (${(err as Error).message})`);
    return false;
  }
}

/** The sweeper's part: credits the wallet could not acknowledge at the time. */
export async function repeatCodCredits(deps: RemittanceDeps): Promise<number> {
  let credited = 0;
  for (const r of await cod.creditsPending(deps.db, 100)) if (await creditWallet(deps, r)) credited++;
  return credited;
}
