import type { Context } from "moleculer";
import { call } from "../../../lib/contract";
import type { Database } from "../../../lib/db/database";
import { AppError } from "../../../lib/errors";
import type { StaffPrincipal } from "../../../lib/staff-keys";
import type { NetworkParcel } from "../../parcels/parcels.contract";
import * as pickups from "../pickups/pickups.store";
import { leftForRelay, sortAtHub } from "../exceptions/missort";
import { tellCustody } from "./custody-sync";
import * as store from "./network.store";
import { announceOutForDelivery } from "../runs/relay-leg";
import { hubTakesReturn } from "../runs/returns-leg";
import type { ScanAnswer } from "./network.params";
import { parcelByTracking, scanIdFor, StaffContext } from "./scan-context";

// The scan context's helpers, where the courier and hub mixins have always imported them from.
export { occurredAtOf, parcelByTracking, scanIdFor } from "./scan-context";
export type { StaffContext } from "./scan-context";

/**
 * The courier's and the hub's scans (issue 44 C). Each scan is a row of logistics.scans (both
 * sides of a hand-off: the taker is `holder`, the giver the previous holder) whose id comes from
 * the device's Idempotency-Key, and a status change asked of parcels with the same id: a scan sent
 * twice, or concurrently, records one hand-off and changes the status once.
 */

async function moveParcel(
  ctx: Context,
  scanId: string,
  parcel: NetworkParcel,
  toStatus: "PICKED_UP" | "IN_TRANSIT",
  actor: string,
  at: Date
) {
  const { results } = await call(ctx, "parcels.applyNetworkScans", {
    scans: [{ scanId, parcelId: parcel.id, toStatus, occurredAt: at.toISOString(), actor, reason: null }]
  });
  return results[0];
}

/**
 * A courier acts only on the pickups of its run (its home hub's wilaya, as GET /run lists them):
 * another courier's pickup is not found, as another organisation's would be, and reveals nothing.
 */
export async function pickupOnCourierRun(db: Database, staff: StaffPrincipal, pickupId: string): Promise<pickups.PickupRecord> {
  const [hub, pickup] = await Promise.all([store.findHub(db, staff.hubId), pickups.findPickup(db, pickupId, null)]);
  if (!hub || !pickup || pickup.mode !== "live" || pickup.address.wilaya !== hub.wilaya) {
    throw new AppError("PICKUP_NOT_FOUND", "No such pickup on this courier's run");
  }
  return pickup;
}

/** The courier at a merchant: a parcel of the pickup is COLLECTED (PICKED_UP, custody courier); another one is reported as unexpected. */
export async function courierCollects(
  db: Database,
  ctx: StaffContext,
  pickupId: string,
  trackingNumber: string,
  at: Date
): Promise<ScanAnswer> {
  const staff = ctx.meta.staff;
  const pickup = await pickupOnCourierRun(db, staff, pickupId);
  if (!["CONFIRMED", "IN_PROGRESS"].includes(pickup.status)) throw new AppError("CONFLICT", `The pickup is ${pickup.status}`);
  const parcel = await parcelByTracking(ctx, trackingNumber);
  const listed = ((await pickups.parcelsOf(db, [pickupId])).get(pickupId) ?? []).find(p => p.id === parcel.id);
  const scanId = scanIdFor(ctx, `collect:${pickupId}`);
  const expected = listed !== undefined && parcel.organizationId === pickup.organizationId;
  await db.transaction(async tx => {
    await store.insertScan(tx, {
      id: scanId,
      parcelId: parcel.id,
      kind: expected ? "pickup.collected" : "pickup.unexpected",
      holderKind: "courier",
      holderId: staff.subjectId,
      giverKind: "merchant",
      giverId: pickup.organizationId,
      hubId: null,
      pickupId,
      confirmedBy: null,
      occurredAt: at
    });
    if (expected) await pickups.setParcelsState(tx, pickupId, "ANNOUNCED", "COLLECTED", [parcel.id]);
    if (pickup.status === "CONFIRMED") await pickups.setPickupStatus(tx, pickupId, "IN_PROGRESS");
  });
  if (!expected) return { parcelId: parcel.id, trackingNumber, status: parcel.status, outcome: "UNEXPECTED", sort: null };
  const result = await moveParcel(ctx, scanId, parcel, "PICKED_UP", "courier", at);
  if (result.outcome !== "refused") await tellCustody(ctx, db, parcel.id, { kind: "courier", id: staff.subjectId }, at);
  return { parcelId: parcel.id, trackingNumber, status: result.status ?? parcel.status, outcome: "COLLECTED", sort: null };
}

/** The hub's scan in: custody hub, IN_TRANSIT, and where the parcel goes in one line. */
export async function hubScanIn(db: Database, ctx: StaffContext, trackingNumber: string, at: Date): Promise<ScanAnswer> {
  const staff = ctx.meta.staff;
  const hub = await store.findHub(db, staff.subjectId);
  if (!hub) throw new AppError("NOT_FOUND", "This key's hub no longer exists");
  const parcel = await parcelByTracking(ctx, trackingNumber);
  if (parcel.status === "RETURN_PENDING") return hubTakesReturn(db, ctx, parcel, at);
  const previous = await store.lastScan(db, parcel.id);
  const scanId = scanIdFor(ctx, "hub-in");
  await store.insertScan(db, {
    id: scanId,
    parcelId: parcel.id,
    kind: "hub.in",
    holderKind: "hub",
    holderId: hub.id,
    giverKind: previous ? (previous.holderKind === "recipient" ? null : previous.holderKind) : "merchant",
    giverId: previous?.holderId ?? parcel.organizationId,
    hubId: hub.id,
    pickupId: null,
    confirmedBy: `hub:${hub.code}`,
    occurredAt: at
  });
  const result = await moveParcel(ctx, scanId, parcel, "IN_TRANSIT", "hub", at);
  if (result.status !== "IN_TRANSIT")
    return { parcelId: parcel.id, trackingNumber, status: result.status ?? parcel.status, outcome: "REFUSED", sort: null };
  await tellCustody(ctx, db, parcel.id, { kind: "hub", id: hub.id }, at);
  // Decision 0058: the sort line, and a mis-sort when this hub is off the parcel's route.
  const { sort, missorted } = await sortAtHub(db, ctx, { hub, parcel, scanId, at });
  const outcome = missorted ? "MISSORTED" : result.outcome === "already" ? "ALREADY" : "SORTED";
  return { parcelId: parcel.id, trackingNumber, status: result.status, outcome, sort };
}

/** The hub's scan out: the parcel leaves with a courier (custody courier, status unchanged: IN_TRANSIT). */
export async function hubScanOut(db: Database, ctx: StaffContext, trackingNumber: string, at: Date): Promise<ScanAnswer> {
  const staff = ctx.meta.staff;
  const parcel = await parcelByTracking(ctx, trackingNumber);
  const scanId = scanIdFor(ctx, "hub-out");
  await store.insertScan(db, {
    id: scanId,
    parcelId: parcel.id,
    kind: "hub.out",
    holderKind: "courier",
    holderId: null,
    giverKind: "hub",
    giverId: staff.subjectId,
    hubId: staff.subjectId,
    pickupId: null,
    confirmedBy: `hub:${staff.subjectId}`,
    occurredAt: at
  });
  if (parcel.status === "IN_TRANSIT") await leftForRelay(ctx, { hub: await store.findHub(db, staff.subjectId), parcel, scanId, at });
  await tellCustody(ctx, db, parcel.id, { kind: "courier", id: null }, at);
  await announceOutForDelivery(db, ctx, staff.subjectId, parcel);
  return { parcelId: parcel.id, trackingNumber, status: parcel.status, outcome: "DISPATCHED", sort: null };
}
