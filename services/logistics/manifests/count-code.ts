import { createHmac, timingSafeEqual } from "node:crypto";
import { call } from "../../../lib/contract";
import type { Database } from "../../../lib/db/database";
import { AppError } from "../../../lib/errors";
import type { StaffContext } from "../network/scans";
import * as network from "../network/network.store";
import type { PickupRecord } from "../pickups/pickups.store";
import * as pickups from "../pickups/pickups.store";
import { scanIdOf } from "../../../lib/scan-ids";
import * as store from "./manifests.store";

/** Wrong codes a pickup takes before its count is refused for good (then: a scan per parcel). 6 digits, 5 tries: 1 in 200 000. */
export const MAX_WRONG_COUNT_TRIES = 5;

/**
 * The merchant's count code of a pickup (issue 44 C): six digits derived from the pickup's id with
 * the service's secret, so nothing is stored and nobody without the merchant's view can know it.
 * The merchant reads it from GET /pickups/{id} and tells it to the courier, who types it with the
 * count: the merchant's side of the hand-off.
 */
export function countCodeOf(pickupId: string, secret: string): string {
  const digest = createHmac("sha256", secret).update(`pickup-count:${pickupId}`).digest();
  return String(digest.readUInt32BE(0) % 1_000_000).padStart(6, "0");
}

/** Shown to the pickup's merchant while the courier may still come. */
export function countCodeFor(pickup: Pick<PickupRecord, "id" | "status">, secret: string): string | null {
  return ["CONFIRMED", "IN_PROGRESS"].includes(pickup.status) ? countCodeOf(pickup.id, secret) : null;
}

function sameCode(given: string, expected: string): boolean {
  const a = Buffer.from(given);
  const b = Buffer.from(expected);
  return a.length === b.length && timingSafeEqual(a, b);
}

type Verdict =
  | { kind: "wrong"; triesLeft: number }
  | { kind: "locked" }
  | { kind: "mismatch"; expected: number }
  | { kind: "counted"; parcels: string[] };

/**
 * The courier closes the stop with the merchant's count: a right code and a count equal to the
 * parcels listed on the pickup (still to collect, or collected by their own scan) marks every one
 * still to collect as collected (PICKED_UP, custody courier, confirmed by the merchant). A wrong code
 * uses one of MAX_WRONG_COUNT_TRIES tries (kept even though the call fails); a wrong count does not
 * (the code was right): the courier counts again or scans each parcel.
 */
export async function confirmMerchantCount(
  db: Database,
  ctx: StaffContext,
  pickup: PickupRecord,
  given: { countCode: string; count: number },
  secret: string,
  at: Date
): Promise<void> {
  if (!["CONFIRMED", "IN_PROGRESS"].includes(pickup.status)) return;
  const verdict = await db.transaction(async (tx): Promise<Verdict> => {
    const counted = await store.lockCount(tx, pickup.id);
    if (counted.wrongTries >= MAX_WRONG_COUNT_TRIES) return { kind: "locked" };
    if (!sameCode(given.countCode, countCodeOf(pickup.id, secret))) {
      return { kind: "wrong", triesLeft: MAX_WRONG_COUNT_TRIES - (await store.countWrongTry(tx, pickup.id)) };
    }
    const parcels = ((await pickups.parcelsOf(tx, [pickup.id])).get(pickup.id) ?? []).filter(p =>
      ["ANNOUNCED", "COLLECTED"].includes(p.state)
    );
    if (given.count !== parcels.length) return { kind: "mismatch", expected: parcels.length };
    const toCollect = parcels.filter(p => p.state === "ANNOUNCED").map(p => p.id);
    for (const parcelId of toCollect) {
      await network.insertScan(tx, {
        id: scanIdOf(pickup.id, parcelId, "counted"),
        parcelId,
        kind: "pickup.counted",
        holderKind: "courier",
        holderId: ctx.meta.staff.subjectId,
        giverKind: "merchant",
        giverId: pickup.organizationId,
        hubId: null,
        pickupId: pickup.id,
        confirmedBy: "merchant-count",
        occurredAt: at
      });
    }
    await pickups.setParcelsState(tx, pickup.id, "ANNOUNCED", "COLLECTED", toCollect);
    await store.confirmCount(tx, pickup.id, given.count);
    if (pickup.status === "CONFIRMED") await pickups.setPickupStatus(tx, pickup.id, "IN_PROGRESS");
    return { kind: "counted", parcels: toCollect };
  });
  if (verdict.kind === "locked") {
    throw new AppError("COUNT_CODE_LOCKED", "Too many wrong count codes for this pickup: scan each parcel, then close without a count");
  }
  if (verdict.kind === "wrong") {
    throw new AppError("COUNT_CODE_INCORRECT", `The count code is not the merchant's: ${verdict.triesLeft} tries left`, {
      details: [{ field: "countCode", message: `${verdict.triesLeft} tries left` }]
    });
  }
  if (verdict.kind === "mismatch") {
    throw new AppError("PICKUP_COUNT_MISMATCH", `The pickup lists ${verdict.expected} parcels: count again, or scan each parcel`, {
      details: [{ field: "count", message: `the pickup lists ${verdict.expected} parcels` }]
    });
  }
  if (verdict.parcels.length === 0) return;
  await call(ctx, "parcels.applyNetworkScans", {
    scans: verdict.parcels.map(parcelId => ({
      scanId: scanIdOf(pickup.id, parcelId, "counted"),
      parcelId,
      toStatus: "PICKED_UP" as const,
      occurredAt: at.toISOString(),
      actor: "courier",
      reason: "counted with the merchant"
    }))
  });
}
