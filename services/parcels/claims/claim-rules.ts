import type { ClaimEvidence, ClaimType } from "../../../lib/claim-view";
import type { ParcelStatus } from "../../../lib/parcel-status";
import { insuredValueCentimes } from "../insurance";

/**
 * When a merchant may claim (issue 22), as pure functions of what the network recorded: a loss
 * once the parcel is LOST or has been silent for LOST_AFTER_DAYS in the network; damage or missing
 * content when the parcel is DAMAGED, was delivered at most DAMAGE_CLAIM_DAYS ago, or was refused
 * at the relay point.
 */

const DAY_MS = 86_400_000;
/** A damaged or emptied parcel is claimed within this many days of its hand-over. */
export const DAMAGE_CLAIM_DAYS = 7;
/** Where a silent parcel counts as lost: picked up by the courier, not yet at its relay point. */
export const IN_THE_NETWORK: readonly ParcelStatus[] = Object.freeze(["PICKED_UP", "IN_TRANSIT"]);

export interface ClaimFacts {
  status: ParcelStatus;
  /** The parcel's last status change. */
  lastChangeAt: Date;
  evidence: Pick<ClaimEvidence, "refusal" | "handover">;
  /** A claim of this parcel was approved already: it was compensated once. */
  compensated: boolean;
}

export interface ClaimPolicy {
  lostAfterDays: number;
}

/** Why this claim cannot be opened now, in words for the merchant; null when it can. */
export function claimRefusal(type: ClaimType, facts: ClaimFacts, now: Date, policy: ClaimPolicy): string | null {
  if (facts.compensated) return "A claim of this parcel was already approved: a parcel is compensated once";
  if (type === "LOST") {
    if (facts.status === "LOST") return null;
    if (!IN_THE_NETWORK.includes(facts.status)) {
      return `A loss is claimed for a parcel that is LOST, or ${IN_THE_NETWORK.join(" or ")} without news; this one is ${facts.status}`;
    }
    const lostFrom = new Date(facts.lastChangeAt.getTime() + policy.lostAfterDays * DAY_MS);
    if (now < lostFrom) {
      return (
        `This parcel is ${facts.status} since ${facts.lastChangeAt.toISOString()}: a loss can be claimed after ` +
        `${policy.lostAfterDays} days without a status change, from ${lostFrom.toISOString()}`
      );
    }
    return null;
  }
  if (facts.status === "DAMAGED" || facts.evidence.refusal !== null) return null;
  const handover = facts.evidence.handover;
  if (facts.status === "DELIVERED" && handover !== null) {
    const until = new Date(Date.parse(handover.occurredAt) + DAMAGE_CLAIM_DAYS * DAY_MS);
    if (now <= until) return null;
    return `Damage or missing content is claimed within ${DAMAGE_CLAIM_DAYS} days of the hand-over; this parcel was handed over on ${handover.occurredAt}`;
  }
  return (
    `Damage or missing content is claimed for a parcel that is DAMAGED, was delivered at most ${DAMAGE_CLAIM_DAYS} days ago, ` +
    `or was refused at the relay point; this one is ${facts.status}`
  );
}

/** The most a claim pays: the parcel's insured value (the declared value, or the free allowance when none was declared, capped). */
export const maxCompensationCentimes = insuredValueCentimes;
