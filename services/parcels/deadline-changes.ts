import type { Database } from "../../lib/db/database";
import { AppError } from "../../lib/errors";
import { isOnShelf } from "./holding-period";
import * as holding from "./holding.store";
import * as store from "./parcels.store";
import { recordPickupEvent } from "./reminders";
import { refreshParcelClosures } from "./relay/closure-effects";

const DAY_MS = 86_400_000;

const PARCEL_NOT_FOUND = () => new AppError("PARCEL_NOT_FOUND", "Parcel not found");

function assertOnShelf(parcel: store.ParcelRecord): void {
  if (!isOnShelf(parcel.status)) {
    throw new AppError(
      "PARCEL_NOT_AT_RELAY",
      `The pick-up deadline of a parcel in status ${parcel.status} cannot change: only while it waits at its relay point (AT_RELAY, RELAY_NOTIFIED)`
    );
  }
}

/**
 * The merchant's one extension: the deadline moves `days` later and parcel.pickup_extended goes
 * out, in one transaction under the parcel's lock (two extensions at once: one wins, the other is
 * EXTENSION_ALREADY_USED). Another organisation's parcel, or one of the other mode, is not found.
 */
export async function extendPickup(db: Database, owner: store.Owner, id: string, days: number): Promise<store.ParcelRecord> {
  return db.transaction(async tx => {
    const row = await store.lockParcel(tx, id);
    if (!row || row.status === "PENDING" || row.organizationId !== owner.organizationId || row.mode !== owner.mode) {
      throw PARCEL_NOT_FOUND();
    }
    assertOnShelf(row);
    if (row.pickupExtendedDays !== null) {
      throw new AppError(
        "EXTENSION_ALREADY_USED",
        `This parcel's pick-up deadline was already extended (by ${row.pickupExtendedDays} days)`
      );
    }
    const from = row.pickupDeadline ?? new Date();
    const extended = await holding.setPickupDeadline(tx, row.id, {
      deadline: new Date(from.getTime() + days * DAY_MS),
      extendedDays: days
    });
    await recordPickupEvent(tx, extended, { type: "parcel.pickup_extended", kind: "extension", actor: "merchant", reason: null });
    // A longer window may take in more closed days of the relay point (decision 0029).
    const withClosures = await refreshParcelClosures(tx, row.id, {
      actor: "merchant",
      reason: "relay point closed on days of the extension"
    });
    return withClosures ?? extended;
  });
}

/**
 * An operator's correction: the deadline becomes `deadline`, whatever it was, closures included
 * (it becomes the base that later closure changes start from, decision 0029). One already past is acted on by the next holding pass, which the
 * caller runs at once.
 */
export async function correctPickupDeadline(db: Database, id: string, deadline: Date): Promise<store.ParcelRecord> {
  return db.transaction(async tx => {
    const row = await store.lockParcel(tx, id);
    if (!row || row.status === "PENDING") throw PARCEL_NOT_FOUND();
    assertOnShelf(row);
    return holding.setPickupDeadline(tx, row.id, { deadline, closureDays: 0 });
  });
}
