import { randomInt, randomUUID } from "node:crypto";
import type { Logger } from "moleculer";
import { call, Caller } from "../../../lib/contract";
import { encryptField } from "../../../lib/crypto";
import type { Database } from "../../../lib/db/database";
import { isUniqueViolation } from "../../../lib/db/unique-violation";
import { AppError } from "../../../lib/errors";
import { fingerprintOf, keyReused } from "../../../lib/idempotency";
import { isDateTime } from "../../../lib/schemas";
import { pickableParcels } from "../pickable-parcels";
import { scanIdOf } from "../../../lib/scan-ids";
import { pickupAddressOf } from "./default-address";
import { queuePickupEvent } from "./pickup-outbox.store";
import { algiersClock, checkWindow, PickupRules } from "./pickup-window";
import type { CreatePickupParams, PickupView } from "./pickups.params";
import * as store from "./pickups.store";

export interface PickupDeps {
  db: Database;
  caller: Caller;
  logger: Logger;
  encryptionKey: string;
  rules: PickupRules;
}

export const PICKUP_NOT_FOUND = () => new AppError("PICKUP_NOT_FOUND", "No such pickup");

/** Unambiguous characters (no 0/O, 1/I): read aloud on the phone. */
export const CONFIRMATION_ALPHABET = "23456789ABCDEFGHJKLMNPQRSTUVWXYZ";

function confirmationNumber(readyAt: Date): string {
  const suffix = Array.from({ length: 6 }, () => CONFIRMATION_ALPHABET[randomInt(CONFIRMATION_ALPHABET.length)]).join("");
  return `PU-${algiersClock(readyAt).day.replace(/-/g, "")}-${suffix}`;
}

function dateOf(field: string, value: string): Date {
  if (!isDateTime(value)) {
    throw new AppError("VALIDATION_FAILED", "The request is not valid", {
      details: [{ field, message: "must be a date-time that exists" }]
    });
  }
  return new Date(value);
}

export function toPickupView(p: store.PickupRecord, parcels: Array<{ id: string; state: string }>): PickupView {
  return {
    id: p.id,
    confirmationNumber: p.confirmationNumber,
    status: p.status,
    address: p.address,
    readyAt: p.readyAt.toISOString(),
    closeAt: p.closeAt.toISOString(),
    cancelBy: p.cancelBy.toISOString(),
    instructions: p.instructions,
    parcels,
    missing: p.missing,
    unexpected: p.unexpected,
    createdAt: p.createdAt.toISOString(),
    updatedAt: p.updatedAt.toISOString()
  };
}

export async function viewsOf(db: Database, pickups: store.PickupRecord[]): Promise<PickupView[]> {
  const parcels = await store.parcelsOf(
    db,
    pickups.map(p => p.id)
  );
  return pickups.map(p => toPickupView(p, parcels.get(p.id) ?? []));
}

/**
 * Asks parcels for the status the pickup's parcels should have: READY_FOR_PICKUP while it stands,
 * CREATED once cancelled. Scan ids come from the pickup, so a retry changes nothing twice.
 */
async function syncParcels(deps: PickupDeps, pickup: store.PickupRecord, parcelIds: string[]): Promise<void> {
  if (parcelIds.length === 0) return;
  const cancelled = pickup.status === "CANCELLED";
  await call(deps.caller, "parcels.applyNetworkScans", {
    owner: { organizationId: pickup.organizationId, mode: pickup.mode },
    scans: parcelIds.map(parcelId => ({
      scanId: scanIdOf(pickup.id, parcelId, cancelled ? "cancelled" : "booked"),
      parcelId,
      toStatus: cancelled ? ("CREATED" as const) : ("READY_FOR_PICKUP" as const),
      reason: cancelled ? `pickup ${pickup.confirmationNumber} cancelled` : `pickup ${pickup.confirmationNumber} booked`,
      actor: "merchant"
    }))
  });
}

/** The parcels to collect: those named, or every CREATED one; each must be the owner's and pickable. */
async function parcelsToCollect(deps: PickupDeps, owner: store.Owner, params: CreatePickupParams): Promise<string[]> {
  // One of the two, checked here: the documents have no way to say "exactly one of" that every client generator reads.
  if ((params.parcelIds === undefined) === (params.allCreated !== true)) {
    throw new AppError("VALIDATION_FAILED", "The request is not valid", {
      details: [{ field: "parcelIds", message: "give parcelIds, or allCreated: true (not both)" }]
    });
  }
  const ids = params.parcelIds ?? (await call(deps.caller, "parcels.createdParcels", { owner })).parcelIds;
  if (ids.length === 0) throw new AppError("PARCEL_NOT_PICKABLE", "You have no CREATED parcel to collect");
  await pickableParcels(deps.caller, owner, ids);
  return ids;
}

export async function createPickup(
  deps: PickupDeps,
  owner: store.Owner,
  params: CreatePickupParams,
  key: string | null,
  now = new Date()
): Promise<store.PickupRecord> {
  const fingerprint = key === null ? null : fingerprintOf(params);
  const replay = async (found: store.PickupRecord) => {
    if (found.requestFingerprint !== fingerprint) throw keyReused();
    // The first request may have stopped between its insert and the parcels' change: finish it.
    const parcels = (await store.parcelsOf(deps.db, [found.id])).get(found.id) ?? [];
    await syncParcels(
      deps,
      found,
      parcels.filter(p => p.state === "ANNOUNCED" || p.state === "RELEASED").map(p => p.id)
    );
    return found;
  };
  if (key !== null) {
    const found = await store.findByKey(deps.db, owner, key);
    if (found) return replay(found);
  }
  const readyAt = dateOf("readyAt", params.readyAt);
  const closeAt = dateOf("closeAt", params.closeAt);
  const { cancelBy } = checkWindow(deps.rules, readyAt, closeAt, now);
  const address = await pickupAddressOf(deps.caller, owner.organizationId, params.address);
  const parcelIds = await parcelsToCollect(deps, owner, params);
  let pickup: store.PickupRecord;
  try {
    pickup = await deps.db.transaction(async tx => {
      const inserted = await store.insertPickup(tx, {
        id: randomUUID(),
        owner,
        confirmationNumber: confirmationNumber(readyAt),
        address,
        readyAt,
        closeAt,
        cancelBy,
        contactNameEnc: params.contact ? encryptField(params.contact.name, deps.encryptionKey) : null,
        contactPhoneEnc: params.contact ? encryptField(params.contact.phone, deps.encryptionKey) : null,
        instructions: params.instructions ?? null,
        idempotencyKey: key,
        requestFingerprint: fingerprint,
        parcelIds
      });
      await queuePickupEvent(tx, inserted);
      return inserted;
    });
  } catch (err) {
    if (key !== null && isUniqueViolation(err, "pickups_idempotency")) {
      // The same key sent twice at once: the first one's pickup is the answer.
      const found = await store.findByKey(deps.db, owner, key);
      if (found) return replay(found);
    }
    if (isUniqueViolation(err, "pickup_parcels_one_open")) {
      throw new AppError("PARCEL_NOT_PICKABLE", "A parcel is already in another pickup: cancel that one first, or leave the parcel out");
    }
    throw err;
  }
  await syncParcels(deps, pickup, parcelIds);
  return pickup;
}

/** Until cancelBy, and before the courier came: the parcels go back to CREATED. Cancelling twice answers the same. */
export async function cancelPickup(deps: PickupDeps, owner: store.Owner, id: string, now = new Date()): Promise<store.PickupRecord> {
  const { pickup, released } = await deps.db.transaction(async tx => {
    const found = await store.lockPickup(tx, id);
    if (!found || found.organizationId !== owner.organizationId || found.mode !== owner.mode) throw PICKUP_NOT_FOUND();
    if (found.status === "CANCELLED") return { pickup: found, released: [] as string[] };
    if (!["REQUESTED", "CONFIRMED"].includes(found.status)) {
      throw new AppError("PICKUP_NOT_CANCELLABLE", `A pickup ${found.status} can no longer be cancelled`);
    }
    if (now.getTime() > found.cancelBy.getTime()) {
      throw new AppError("PICKUP_NOT_CANCELLABLE", `The pickup could be cancelled until ${found.cancelBy.toISOString()}`);
    }
    const listed = ((await store.parcelsOf(tx, [id])).get(id) ?? []).filter(p => p.state === "ANNOUNCED").map(p => p.id);
    await store.setParcelsState(tx, id, "ANNOUNCED", "RELEASED");
    const cancelled = await store.setPickupStatus(tx, id, "CANCELLED");
    await queuePickupEvent(tx, cancelled);
    return { pickup: cancelled, released: listed };
  });
  const parcels = released.length > 0 ? released : ((await store.parcelsOf(deps.db, [id])).get(id) ?? []).map(p => p.id);
  await syncParcels(deps, pickup, parcels);
  return pickup;
}
