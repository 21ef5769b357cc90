import { randomUUID } from "node:crypto";
import type { Logger } from "moleculer";
import type { ClaimType, ClaimView } from "../../../lib/claim-view";
import { call, Caller } from "../../../lib/contract";
import type { Database, Queryable } from "../../../lib/db/database";
import { AppError } from "../../../lib/errors";
import { parcelOf } from "../../../lib/events";
import { toCentimes, toDzd } from "../../../lib/money";
import type { ParcelStatus } from "../../../lib/parcel-status";
import * as store from "../parcels.store";
import { applyStatusChange, appendEvent, eventOf } from "../status-change";
import { defaultTariff, insuranceFeeOf } from "../tariff";
import { claimRefusal, ClaimPolicy, IN_THE_NETWORK, maxCompensationCentimes } from "./claim-rules";
import * as claims from "./claims.store";
import { buildEvidence } from "./evidence";

/**
 * Claims (issue 22): the merchant opens one with the network's evidence attached; an operator
 * decides; an approval credits the wallet of the parcel's mode with the compensation plus the
 * shipping price. Each step is one transaction under the parcel's lock, with its claim.* event in
 * the outbox; the credit is asked of the wallet after the commit, flagged until acknowledged (the
 * holding pass repeats it; the wallet credits once per claim).
 */

export interface ClaimDeps {
  db: Database;
  logger: Logger;
  caller: Caller;
  policy: ClaimPolicy & { capCentimes: number };
}

/** What a credit needs: the holding pass repeats the ones the wallet did not acknowledge. */
export type CreditDeps = Pick<ClaimDeps, "db" | "logger" | "caller">;

export interface OpenClaimInput {
  type: ClaimType;
  description: string;
  amountClaimedDzd: number;
}

export interface Decision {
  approved: boolean;
  compensationDzd?: number;
  note: string;
}

const PARCEL_NOT_FOUND = () => new AppError("PARCEL_NOT_FOUND", "Parcel not found");
export const CLAIM_NOT_FOUND = () => new AppError("CLAIM_NOT_FOUND", "Claim not found");
const BATCH = 100;

export function toClaimView(c: claims.ClaimRecord): ClaimView {
  return {
    id: c.id,
    parcelId: c.parcelId,
    trackingNumber: c.trackingNumber,
    type: c.type,
    status: c.status,
    description: c.description,
    amountClaimedDzd: toDzd(c.amountClaimedCentimes),
    maxCompensationDzd: toDzd(c.maxCompensationCentimes),
    evidence: c.evidence,
    createdAt: c.createdAt.toISOString(),
    decidedAt: c.decidedAt?.toISOString() ?? null,
    compensationDzd: c.compensationCentimes === null ? null : toDzd(c.compensationCentimes),
    note: c.decisionNote,
    paidDzd: c.paidCentimes === null ? null : toDzd(c.paidCentimes)
  };
}

function amountProblem(field: string, amountCentimes: number, maxCentimes: number): AppError {
  return new AppError("VALIDATION_FAILED", "The request is not valid", {
    details: [
      { field, message: `must be at most ${toDzd(maxCentimes)} DZD (this claim's maxCompensationDzd; got ${toDzd(amountCentimes)})` }
    ]
  });
}

/** The claim's event: its line in the parcel's sequence and its outbox row, with the claim and the parcel in `data`. */
export async function recordClaimEvent(
  tx: Queryable,
  parcel: store.ParcelRecord,
  claim: claims.ClaimRecord,
  kind: "opened" | "approved" | "rejected"
): Promise<void> {
  const { sequence, occurredAt } = await claims.recordClaimHistory(tx, { claimId: claim.id, parcelId: parcel.id, kind });
  const event = eventOf(parcel, { type: `claim.${kind}`, sequence, occurredAt, reason: claim.decisionNote });
  event.data = { claim: toClaimView(claim), parcel: parcelOf(event)! };
  await appendEvent(tx, event);
}

/**
 * Opens a claim: 404 for a parcel of another organisation or mode, 400 for more than the maximum,
 * 409 CLAIM_NOT_ALLOWED with the reason, 409 CLAIM_ALREADY_OPEN. Under the parcel's lock, so that
 * two claims at once cannot both open (the unique index backs this up).
 */
export async function openClaim(deps: ClaimDeps, owner: store.Owner, parcelId: string, input: OpenClaimInput): Promise<claims.ClaimRecord> {
  return deps.db.transaction(async tx => {
    const parcel = await store.lockParcel(tx, parcelId);
    if (!parcel || parcel.status === "PENDING" || parcel.organizationId !== owner.organizationId || parcel.mode !== owner.mode) {
      throw PARCEL_NOT_FOUND();
    }
    const maxCentimes = maxCompensationCentimes(
      parcel.declaredValueCentimes,
      defaultTariff.insurance.freeAllowanceCentimes,
      deps.policy.capCentimes
    );
    const claimed = toCentimes(input.amountClaimedDzd);
    if (claimed > maxCentimes) throw amountProblem("amountClaimedDzd", claimed, maxCentimes);

    const history = await store.parcelHistory(tx, parcel.id);
    const now = new Date();
    const evidence = buildEvidence(
      {
        parcel,
        history,
        tillCentimes: await claims.tillCentimesOf(tx, parcel.id),
        insuranceCentimes: insuranceFeeOf(parcel.declaredValueCentimes, defaultTariff, deps.policy.capCentimes),
        insuredValueCentimes: maxCentimes
      },
      now
    );
    const standing = await claims.standingClaims(tx, parcel.id);
    const refusal = claimRefusal(
      input.type,
      {
        status: parcel.status as ParcelStatus,
        lastChangeAt: history.at(-1)?.createdAt ?? parcel.updatedAt,
        evidence,
        compensated: standing.approved
      },
      now,
      deps.policy
    );
    if (refusal !== null) throw new AppError("CLAIM_NOT_ALLOWED", refusal);
    if (standing.open) throw new AppError("CLAIM_ALREADY_OPEN", "This parcel already has an open claim: wait for its decision");

    const claim = await claims.insertClaim(tx, {
      id: randomUUID(),
      parcelId: parcel.id,
      owner,
      type: input.type,
      description: input.description,
      amountClaimedCentimes: claimed,
      maxCompensationCentimes: maxCentimes,
      evidence
    });
    await recordClaimEvent(tx, parcel, claim, "opened");
    return claim;
  });
}

/**
 * An operator's decision, once: the claim's lock makes two decisions at once one after the other,
 * and the second finds it decided (409 CLAIM_ALREADY_DECIDED). An approved loss of a parcel still
 * in the network moves it to LOST (its parcel.lost webhook first). Approvals are credited after
 * the commit (creditClaim).
 */
export async function decideClaim(deps: ClaimDeps, id: string, decision: Decision): Promise<claims.ClaimRecord> {
  return deps.db.transaction(async tx => {
    const open = await claims.lockClaim(tx, id);
    if (!open) throw CLAIM_NOT_FOUND();
    if (open.status !== "OPEN") {
      throw new AppError("CLAIM_ALREADY_DECIDED", `This claim was already decided: ${open.status} on ${open.decidedAt!.toISOString()}`);
    }
    if (!decision.approved && decision.compensationDzd !== undefined) {
      throw new AppError("VALIDATION_FAILED", "The request is not valid", {
        details: [{ field: "compensationDzd", message: "is given only with an approval" }]
      });
    }
    const compensation = decision.approved ? toCentimes(decision.compensationDzd ?? toDzd(open.amountClaimedCentimes)) : null;
    if (compensation !== null && compensation > open.maxCompensationCentimes) {
      throw amountProblem("compensationDzd", compensation, open.maxCompensationCentimes);
    }
    let parcel = (await store.lockParcel(tx, open.parcelId))!;
    if (decision.approved && open.type === "LOST" && IN_THE_NETWORK.includes(parcel.status as ParcelStatus)) {
      parcel = (await applyStatusChange(tx, parcel, { to: "LOST", reason: `loss claim approved: ${decision.note}`, actor: "operator" }))
        .row;
    }
    const decided = await claims.decideClaim(tx, id, {
      status: decision.approved ? "APPROVED" : "REJECTED",
      compensationCentimes: compensation,
      note: decision.note
    });
    await recordClaimEvent(tx, parcel, decided, decision.approved ? "approved" : "rejected");
    return decided;
  });
}

/**
 * Asks the wallet to credit an approved claim (idempotent per claim) and records what it paid;
 * a wallet away leaves the claim flagged for the next holding pass. Answers the claim as it is.
 */
export async function creditClaim(deps: CreditDeps, claim: claims.ClaimRecord): Promise<claims.ClaimRecord> {
  if (!claim.creditPending || claim.compensationCentimes === null) return claim;
  try {
    const { creditedCentimes } = await call(deps.caller, "wallet.creditClaimCompensation", {
      claimId: claim.id,
      parcelId: claim.parcelId,
      organizationId: claim.organizationId,
      mode: claim.mode,
      compensationCentimes: claim.compensationCentimes
    });
    await claims.markCredited(deps.db, claim.id, creditedCentimes);
    return { ...claim, creditPending: false, paidCentimes: creditedCentimes };
  } catch (err) {
    deps.logger.warn(`claim ${claim.id}: credit left for the next pass (${(err as Error).message})`);
    return claim;
  }
}

/** Every approved claim not yet credited, a batch at a time; answers how many the wallet acknowledged. */
export async function creditPendingClaims(deps: CreditDeps): Promise<number> {
  let credited = 0;
  for (const claim of await claims.creditsPending(deps.db, BATCH)) {
    if (!(await creditClaim(deps, claim)).creditPending) credited++;
  }
  return credited;
}
