import type { AppConfig } from "../../lib/config";
import { toCentimes } from "../../lib/money";

/**
 * The insured value of a parcel (issue 26): what a claim can pay for it, and what its insurance is
 * charged on. A claim pays at most CLAIM_CAP_DZD, so declaring more buys no cover: insurance is
 * never charged on value above the cap.
 */

/*
 * The cap of this process, set by the parcels service from its configuration when it is created.
 * Held here, like the holding policy, because every view of a parcel (answers, webhooks, events)
 * shows its insured value and none of them should have to carry the configuration along.
 */
let capCentimes = toCentimes(150_000);

export function useClaimCap(config: Pick<AppConfig, "claimCapDzd">): void {
  capCentimes = toCentimes(config.claimCapDzd);
}

/** CLAIM_CAP_DZD, in centimes. */
export function claimCapCentimes(): number {
  return capCentimes;
}

/**
 * The value covered: the declared value (the free allowance when none was declared, which is
 * covered for nothing), at most the claim cap. A claim's maxCompensationDzd is this value.
 */
export function insuredValueCentimes(declaredCentimes: number | null, freeAllowanceCentimes: number, cap: number = capCentimes): number {
  return Math.min(declaredCentimes ?? freeAllowanceCentimes, cap);
}
