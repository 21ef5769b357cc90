import { randomInt, randomUUID } from "node:crypto";
import { call, Caller } from "../../../lib/contract";
import type { Database } from "../../../lib/db/database";
import { isUniqueViolation } from "../../../lib/db/unique-violation";
import { AppError, FieldProblem } from "../../../lib/errors";
import { fingerprintOf, keyReused } from "../../../lib/idempotency";
import { signManifestUrl } from "../../../lib/label-url";
import { pickableParcels } from "../pickable-parcels";
import { algiersClock } from "../pickups/pickup-window";
import { CONFIRMATION_ALPHABET, PICKUP_NOT_FOUND } from "../pickups/pickups";
import type { PickupAddress } from "../pickups/pickups.params";
import * as pickups from "../pickups/pickups.store";
import type { CreateManifestParams, ManifestLine, ManifestTotals, ManifestView } from "./manifests.params";
import * as store from "./manifests.store";

export interface ManifestDeps {
  db: Database;
  caller: Caller;
  /** Where pdfUrl points, and the labels' URL secret (null: no pdfUrl, as labelUrl). */
  publicBaseUrl: string;
  urlSecret: string | null;
}

export const MANIFEST_NOT_FOUND = () => new AppError("MANIFEST_NOT_FOUND", "No such manifest");

const invalid = (field: string, message: string) =>
  new AppError("VALIDATION_FAILED", "The request is not valid", { details: [{ field, message }] });

function manifestNumber(day: string): string {
  const suffix = Array.from({ length: 6 }, () => CONFIRMATION_ALPHABET[randomInt(CONFIRMATION_ALPHABET.length)]).join("");
  return `MF-${day.replace(/-/g, "")}-${suffix}`;
}

/** Sums in centimes: a hundred lines of 0.10 add up to 10.00, not 9.99999. */
function totalsOf(lines: ManifestLine[]): ManifestTotals {
  const sum = (pick: (l: ManifestLine) => number | null) => lines.reduce((acc, l) => acc + Math.round((pick(l) ?? 0) * 100), 0) / 100;
  return { parcels: lines.length, codAmountDzd: sum(l => l.codAmountDzd), declaredValueDzd: sum(l => l.declaredValueDzd) };
}

export function toManifestView(
  deps: Pick<ManifestDeps, "publicBaseUrl" | "urlSecret">,
  m: store.ManifestRecord,
  lines: ManifestLine[]
): ManifestView {
  return {
    id: m.id,
    number: m.number,
    pickupDate: m.pickupDate,
    address: m.address,
    pickupId: m.pickupId,
    lines,
    totals: totalsOf(lines),
    pdfUrl: deps.urlSecret === null ? null : signManifestUrl(deps.publicBaseUrl, m.id, deps.urlSecret),
    createdAt: m.createdAt.toISOString()
  };
}

export async function manifestViews(deps: ManifestDeps, records: store.ManifestRecord[]): Promise<ManifestView[]> {
  const lines = await store.linesOf(
    deps.db,
    records.map(m => m.id)
  );
  return records.map(m => toManifestView(deps, m, lines.get(m.id) ?? []));
}

/** A YYYY-MM-DD that names a real day (not 2026-02-30), or 400 on `pickupDate`: the database would refuse it with a 500. */
export function checkDayExists(day: string): void {
  const noon = new Date(`${day}T12:00:00Z`);
  if (Number.isNaN(noon.getTime()) || noon.toISOString().slice(0, 10) !== day) throw invalid("pickupDate", "must be a date that exists");
}

const sameAddress = (a: PickupAddress, b: PickupAddress) => a.line1 === b.line1 && a.city === b.city && a.wilaya === b.wilaya;

/** One stop: the pickup's address and day, and the parcels it still has to collect. */
async function stopOfPickup(deps: ManifestDeps, owner: pickups.Owner, pickupId: string) {
  const pickup = await pickups.findPickup(deps.db, pickupId, owner);
  if (!pickup) throw PICKUP_NOT_FOUND();
  if (!["CONFIRMED", "IN_PROGRESS"].includes(pickup.status)) {
    throw new AppError("CONFLICT", `A pickup ${pickup.status} takes no manifest: make it while the pickup is CONFIRMED`);
  }
  const parcelIds = ((await pickups.parcelsOf(deps.db, [pickupId])).get(pickupId) ?? [])
    .filter(p => p.state === "ANNOUNCED")
    .map(p => p.id);
  if (parcelIds.length === 0) throw new AppError("CONFLICT", "The pickup has no parcel left to collect");
  return { address: pickup.address, pickupDate: algiersClock(pickup.readyAt).day, parcelIds, pickupId };
}

/** One stop given in the request: an address and a day (today or later, Algiers), and the parcels. */
async function stopOfRequest(deps: ManifestDeps, params: CreateManifestParams, now: Date) {
  if (!params.address) throw invalid("address", "is required with parcelIds");
  if (!params.pickupDate) throw invalid("pickupDate", "is required with parcelIds");
  checkDayExists(params.pickupDate);
  if (params.pickupDate < algiersClock(now).day) throw invalid("pickupDate", "must be today or later (Algiers)");
  const parcelIds = params.parcelIds ?? [];
  // A parcel already booked on a pickup is collected there: the manifest must be for that stop.
  const open = await store.openPickupsOf(deps.db, parcelIds);
  const elsewhere: FieldProblem[] = [];
  for (const pickupId of new Set(open.map(o => o.pickupId))) {
    const pickup = await pickups.findPickup(deps.db, pickupId, null);
    if (pickup && (!sameAddress(pickup.address, params.address) || algiersClock(pickup.readyAt).day !== params.pickupDate)) {
      for (const o of open.filter(o => o.pickupId === pickupId)) {
        elsewhere.push({ field: "parcelIds", message: `${o.parcelId} is on pickup ${pickup.confirmationNumber}, another address or day` });
      }
    }
  }
  if (elsewhere.length > 0) throw new AppError("CONFLICT", "A manifest is for one address and one day", { details: elsewhere });
  return { address: params.address, pickupDate: params.pickupDate, parcelIds, pickupId: null };
}

/** Six characters of 32 a day make a clash unlikely, not impossible: a clash draws another number. */
async function insertWithFreshNumber(insert: () => Promise<store.ManifestRecord>): Promise<store.ManifestRecord> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await insert();
    } catch (err) {
      if (attempt >= 3 || !isUniqueViolation(err, "manifests_number_key")) throw err;
    }
  }
}

function onAnotherManifest(listed: Array<{ parcelId: string; number: string }>): AppError {
  return new AppError("PARCEL_ALREADY_ON_MANIFEST", "A parcel is on one manifest only", {
    details: listed.map(l => ({ field: "parcelIds", message: `${l.parcelId} is on manifest ${l.number}` }))
  });
}

/**
 * Makes a manifest: one address, one day, the parcels with what the document prints of each,
 * copied once (a manifest never changes). Idempotency-Key as for pickups: the same key and body
 * answer the first manifest, another body 422.
 */
export async function createManifest(
  deps: ManifestDeps,
  owner: pickups.Owner,
  params: CreateManifestParams,
  key: string | null,
  now = new Date()
): Promise<store.ManifestRecord> {
  const fingerprint = key === null ? null : fingerprintOf(params);
  const replay = (found: store.ManifestRecord) => {
    if (found.requestFingerprint !== fingerprint) throw keyReused();
    return found;
  };
  if (key !== null) {
    const found = await store.findByKey(deps.db, owner, key);
    if (found) return replay(found);
  }
  // One of the two, checked here as pickups do: the documents cannot say "exactly one of" for every generator.
  if ((params.pickupId === undefined) === (params.parcelIds === undefined))
    throw invalid("pickupId", "give pickupId, or parcelIds (not both)");
  if (params.pickupId !== undefined && (params.address || params.pickupDate)) {
    throw invalid("address", "comes from the pickup: leave address and pickupDate out with pickupId");
  }
  const stop = params.pickupId !== undefined ? await stopOfPickup(deps, owner, params.pickupId) : await stopOfRequest(deps, params, now);
  const parcels = await pickableParcels(deps.caller, owner, stop.parcelIds);
  // The same key sent at once may have listed them a moment ago: its manifest is the answer, not a 409.
  const replayOrRefuse = async (): Promise<store.ManifestRecord> => {
    const first = key === null ? null : await store.findByKey(deps.db, owner, key);
    if (first) return replay(first);
    throw onAnotherManifest(await store.alreadyListed(deps.db, stop.parcelIds));
  };
  if ((await store.alreadyListed(deps.db, stop.parcelIds)).length > 0) return replayOrRefuse();
  const { hints } = await call(deps.caller, "parcels.recipientHints", { parcelIds: stop.parcelIds, owner });
  try {
    return await insertWithFreshNumber(() =>
      deps.db.transaction(tx =>
        store.insertManifest(tx, {
          id: randomUUID(),
          owner,
          number: manifestNumber(stop.pickupDate),
          pickupDate: stop.pickupDate,
          address: stop.address,
          pickupId: stop.pickupId,
          idempotencyKey: key,
          requestFingerprint: fingerprint,
          lines: parcels.map(p => ({
            parcelId: p.id,
            trackingNumber: p.trackingNumber,
            recipientHint: hints[p.id] ?? "—",
            relayCode: p.relayCode,
            codAmountDzd: p.codAmountDzd,
            declaredValueDzd: p.declaredValueDzd
          }))
        })
      )
    );
  } catch (err) {
    if (key !== null && isUniqueViolation(err, "manifests_idempotency")) {
      // The same key sent twice at once: the first one's manifest is the answer.
      const found = await store.findByKey(deps.db, owner, key);
      if (found) return replay(found);
    }
    if (isUniqueViolation(err, "manifest_parcels_pkey")) return replayOrRefuse();
    throw err;
  }
}
