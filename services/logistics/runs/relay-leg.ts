import type { Context } from "moleculer";
import { call } from "../../../lib/contract";
import { checkCourierPass } from "../../../lib/courier-pass";
import type { Database } from "../../../lib/db/database";
import { AppError } from "../../../lib/errors";
import type { NetworkParcel } from "../../parcels/parcels.contract";
import "../../parcels/network/delivery.contract";
import { scanIdOf } from "../../../lib/scan-ids";
import type { ScanAnswer } from "../network/network.params";
import { parcelByTracking, scanIdFor, StaffContext } from "../network/scan-context";
import { tellCustody } from "../network/custody-sync";
import * as network from "../network/network.store";
import type { ArrivalView } from "./runs.params";
import * as store from "./runs.store";

/**
 * The last leg (issue 44 C, decision 0057): the courier loads a relay point's parcels at the hub
 * (custody courier, parcel.out_for_delivery), proves it stands at the relay point's counter with
 * the counter's signed pass, and the agent's arrival scan closes the hand-off (custody relay, the
 * courier its giver), told by parcels after its AT_RELAY commit.
 */

/** How long a visit proved by a pass confirms the arrival scans that follow it. */
const VISIT_CONFIRMS_MS = 4 * 3_600_000;

/**
 * The hub's scan out (an existing scan): a parcel for a relay point of the hub's own wilaya leaves
 * with the courier who delivers it, so parcel.out_for_delivery; one going on to another wilaya's hub gets nothing.
 */
export async function announceOutForDelivery(db: Database, ctx: Context, hubId: string, parcel: NetworkParcel): Promise<void> {
  if (parcel.relayCode === null || parcel.status !== "IN_TRANSIT") return;
  const hub = await network.findHub(db, hubId);
  if (!hub || hub.wilaya !== parcel.relayWilaya) return;
  await call(ctx, "parcels.outForDelivery", { parcelId: parcel.id, relayCode: parcel.relayCode, actor: "hub" });
}

/** The courier's load scan at its hub: a parcel for the relay point `code` (a stop of its run) leaves the hub with it. */
export async function courierLoads(db: Database, ctx: StaffContext, code: string, trackingNumber: string, at: Date): Promise<ScanAnswer> {
  const staff = ctx.meta.staff;
  const hub = await network.findHub(db, staff.hubId);
  if (!hub) throw new AppError("NOT_FOUND", "This courier's hub no longer exists");
  const parcel = await parcelByTracking(ctx, trackingNumber);
  if (parcel.relayCode !== code) {
    throw new AppError("WRONG_RELAY", `Parcel ${trackingNumber} is addressed to relay point ${parcel.relayCode ?? "?"}, not to ${code}`);
  }
  if (parcel.relayWilaya !== hub.wilaya) throw new AppError("WRONG_RELAY", `Relay point ${code} is not on the routes of hub ${hub.code}`);
  if (parcel.status !== "IN_TRANSIT") throw new AppError("CONFLICT", `A parcel ${parcel.status} is not waiting at a hub`);
  await network.insertScan(db, {
    id: scanIdFor(ctx, `load:${code}`),
    parcelId: parcel.id,
    kind: "courier.load",
    holderKind: "courier",
    holderId: staff.subjectId,
    giverKind: "hub",
    giverId: hub.id,
    hubId: hub.id,
    pickupId: null,
    confirmedBy: null,
    occurredAt: at
  });
  await tellCustody(ctx, db, parcel.id, { kind: "courier", id: staff.subjectId }, at);
  await call(ctx, "parcels.outForDelivery", { parcelId: parcel.id, relayCode: code, actor: "courier" });
  return { parcelId: parcel.id, trackingNumber, status: parcel.status, outcome: "LOADED", sort: null };
}

/** The courier at the counter: the pass it scanned proves it (400 when forged, expired or another relay point's). */
export async function courierArrives(
  db: Database,
  ctx: StaffContext,
  encryptionKey: string,
  request: { code: string; pass: string },
  at: Date,
  now = new Date()
): Promise<ArrivalView> {
  const check = checkCourierPass(encryptionKey, request.pass, request.code, now);
  if (!check.ok) {
    const message = {
      MALFORMED: "is not a courier pass",
      FORGED: "is not signed by Relay Parcels",
      OTHER_RELAY: `is another relay point's, not ${request.code}'s`,
      EXPIRED: "has expired: ask the counter for a fresh one"
    }[check.reason];
    throw new AppError("VALIDATION_FAILED", `The courier pass ${message}`, { details: [{ field: "pass", message }] });
  }
  const courierId = ctx.meta.staff.subjectId;
  const visit = await store.insertVisit(db, {
    id: scanIdFor(ctx, `arrive:${request.code}`),
    courierId,
    relayCode: request.code,
    arrivedAt: at,
    passExpiresAt: check.expiresAt
  });
  const held = await store.parcelIdsHeldByCourier(db, courierId);
  const parcels = held.length ? (await call(ctx, "parcels.networkParcels", { parcelIds: held.map(h => h.parcelId) })).parcels : [];
  const { returns } = await call(ctx, "parcels.returnsAtRelays", { relayCodes: [request.code] });
  return {
    visitId: visit.id,
    relayCode: request.code,
    arrivedAt: visit.arrivedAt,
    deliver: parcels
      .filter(p => p.relayCode === request.code && p.status === "IN_TRANSIT")
      .map(p => p.trackingNumber)
      .sort(),
    collectReturns: returns.map(r => r.trackingNumber)
  };
}

/**
 * The relay's side of the hand-off, told by parcels once its arrival scan (AT_RELAY) committed:
 * custody relay; the giver is the parcel's last holder (the courier who loaded it), confirmed by
 * that courier's pass when it proved its visit in the hours before. Idempotent by parcel and relay
 * point: a repeat of the notice records nothing twice.
 */
export async function recordRelayArrival(db: Database, notice: { parcelId: string; relayCode: string; occurredAt: string }): Promise<void> {
  const previous = await network.lastScan(db, notice.parcelId);
  const at = new Date(notice.occurredAt);
  const courierId = previous?.holderKind === "courier" ? previous.holderId : null;
  const visit = courierId ? await store.lastVisit(db, courierId, notice.relayCode, new Date(at.getTime() - VISIT_CONFIRMS_MS)) : null;
  await network.insertScan(db, {
    id: scanIdOf("relay-arrival", notice.parcelId, notice.relayCode),
    parcelId: notice.parcelId,
    kind: "relay.arrival",
    holderKind: "relay",
    holderId: notice.relayCode,
    giverKind: previous && previous.holderKind !== "recipient" ? previous.holderKind : null,
    giverId: previous?.holderId ?? null,
    hubId: null,
    pickupId: null,
    confirmedBy: visit ? `courier-pass:${visit}` : `relay:${notice.relayCode}`,
    occurredAt: at
  });
}
