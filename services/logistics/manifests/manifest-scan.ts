import { call } from "../../../lib/contract";
import type { Database } from "../../../lib/db/database";
import { AppError } from "../../../lib/errors";
import { pickupOnCourierRun, scanIdFor, StaffContext } from "../network/scans";
import * as pickups from "../pickups/pickups.store";
import { scanIdOf } from "../../../lib/scan-ids";
import { MANIFEST_NOT_FOUND } from "./manifests";
import type { ManifestScanAnswer } from "./manifests.params";
import * as store from "./manifests.store";

/**
 * The courier's one scan of a manifest at a merchant (issue 44 B, the ScanForm of EasyPost and
 * Shippo): every parcel listed is announced to the pickup (added to its parcels when it was not
 * there, and READY_FOR_PICKUP). It collects nothing: each parcel is then confirmed taken by its own
 * scan or by the merchant's count at closing — a manifest says a parcel exists, not that the
 * courier holds it (research/first-mile.md, USPS: "no physical scans").
 */
export async function scanManifest(
  db: Database,
  ctx: StaffContext,
  pickupId: string,
  number: string,
  at: Date
): Promise<ManifestScanAnswer> {
  const pickup = await pickupOnCourierRun(db, ctx.meta.staff, pickupId);
  if (!["CONFIRMED", "IN_PROGRESS"].includes(pickup.status)) throw new AppError("CONFLICT", `The pickup is ${pickup.status}`);
  const manifest = await store.findManifestByNumber(db, number);
  // Another merchant's manifest, or a sandbox one, is no manifest for this stop and says nothing more.
  if (!manifest || manifest.mode !== "live" || manifest.organizationId !== pickup.organizationId) throw MANIFEST_NOT_FOUND();
  const parcelIds = ((await store.linesOf(db, [manifest.id])).get(manifest.id) ?? []).map(l => l.parcelId);
  const added = await db.transaction(async tx => {
    await store.insertManifestScan(tx, {
      id: scanIdFor(ctx, `manifest:${pickupId}`),
      manifestId: manifest.id,
      pickupId,
      courierId: ctx.meta.staff.subjectId,
      occurredAt: at
    });
    const fresh = await store.announceOnPickup(tx, pickupId, parcelIds);
    if (pickup.status === "CONFIRMED") await pickups.setPickupStatus(tx, pickupId, "IN_PROGRESS");
    return fresh;
  });
  if (added.length > 0) {
    await call(ctx, "parcels.applyNetworkScans", {
      owner: { organizationId: pickup.organizationId, mode: pickup.mode },
      scans: added.map(parcelId => ({
        scanId: scanIdOf(pickupId, parcelId, "manifest"),
        parcelId,
        toStatus: "READY_FOR_PICKUP" as const,
        occurredAt: at.toISOString(),
        actor: "courier",
        reason: `manifest ${manifest.number} scanned at pickup ${pickup.confirmationNumber}`
      }))
    });
  }
  const states = new Map(((await pickups.parcelsOf(db, [pickupId])).get(pickupId) ?? []).map(p => [p.id, p.state]));
  const announced = parcelIds.filter(id => states.get(id) === "ANNOUNCED");
  return {
    manifestNumber: manifest.number,
    pickupId,
    announced,
    added: added.filter(id => announced.includes(id)),
    skipped: parcelIds.filter(id => states.get(id) !== "ANNOUNCED")
  };
}
