import { randomUUID } from "node:crypto";
import type { CustodyHandoff } from "../../../lib/claim-view";
import type { Database } from "../../../lib/db/database";
import { recordClaimEvent } from "../claims/claims";
import { maxCompensationCentimes } from "../claims/claim-rules";
import * as claims from "../claims/claims.store";
import { buildEvidence } from "../claims/evidence";
import * as store from "../parcels.store";
import { applyStatusChange } from "../status-change";
import { defaultTariff, insuranceFeeOf } from "../tariff";
import { closeNoScanInvestigation } from "./investigations";

/**
 * A parcel silent past LOSS_LOST_DAYS in a courier's or a hub's hands (issue 44 D): LOST, its
 * investigation closed, and a LOST claim opened for the merchant with the custody trail as
 * evidence, in one transaction under the parcel's lock. Exactly one claim: the merchant's own
 * claim takes the same lock, and the unique index of open claims (parcels/013) turns an insert
 * racing it into nothing (ON CONFLICT), never a second claim.
 */

export interface LostDeps {
  db: Database;
  capCentimes: number;
}

export const NETWORK_CLAIM_DESCRIPTION = (days: number) =>
  `Opened by the network: no scan for ${days} days while in its custody. The custody trail is in the evidence.`;

/** LOST and the claim; false when the parcel moved or was scanned since it was read (nothing done). */
export async function declareLost(
  deps: LostDeps,
  parcelId: string,
  before: Date,
  lostDays: number,
  trail: CustodyHandoff[]
): Promise<boolean> {
  return deps.db.transaction(async tx => {
    const parcel = await store.lockParcel(tx, parcelId);
    const held = parcel?.custody;
    if (!parcel || !held || !["PICKED_UP", "IN_TRANSIT"].includes(parcel.status) || held.since >= before) return false;
    const lost = (await applyStatusChange(tx, parcel, { to: "LOST", reason: `NO_SCAN_FOR_${lostDays}_DAYS`, actor: "network" })).row;
    await closeNoScanInvestigation(tx, lost, "LOST");

    const standing = await claims.standingClaims(tx, parcel.id);
    const maxCentimes = maxCompensationCentimes(
      parcel.declaredValueCentimes,
      defaultTariff.insurance.freeAllowanceCentimes,
      deps.capCentimes
    );
    // A compensated parcel is not claimed twice; a claim of nothing (a cap of 0) cannot be stored.
    if (standing.open || standing.approved || maxCentimes <= 0) return true;
    const evidence = buildEvidence(
      {
        parcel: lost,
        history: await store.parcelHistory(tx, parcel.id),
        tillCentimes: null,
        insuranceCentimes: insuranceFeeOf(parcel.declaredValueCentimes, defaultTariff, deps.capCentimes),
        insuredValueCentimes: maxCentimes
      },
      new Date()
    );
    const claim = await claims.insertClaimUnlessOpen(tx, {
      id: randomUUID(),
      parcelId: parcel.id,
      owner: parcel,
      type: "LOST",
      description: NETWORK_CLAIM_DESCRIPTION(lostDays),
      amountClaimedCentimes: maxCentimes,
      maxCompensationCentimes: maxCentimes,
      evidence: { ...evidence, custodyTrail: trail }
    });
    if (claim) await recordClaimEvent(tx, lost, claim, "opened");
    return true;
  });
}
