import { randomUUID } from "node:crypto";
import type { Database, Queryable } from "../../../lib/db/database";
import { AppError } from "../../../lib/errors";
import type { ReturnItem } from "../../../lib/returns";
import * as parcels from "../parcels.store";
import { quotePrice } from "../tariff";
import { generateReturnCode } from "./return-code";
import { appendReturnEvent } from "./return-events";
import * as store from "./returns.store";

const CODE_ATTEMPTS = 5;

export const RETURN_NOT_FOUND = () => new AppError("RETURN_NOT_FOUND", "Return not found");

/** What a return shipment of this weight costs: the tariff's price by weight (no COD, no declared value). */
export function returnShipmentCentimes(weightG: number): number {
  return quotePrice({ weightG, declaredValueDzd: null, codAmountDzd: null }).totalCentimes;
}

/** The relay point a return goes to: the one asked for, else the organisation's return relay point; it must be in service. */
async function destinationOf(db: Queryable, owner: parcels.Owner, asked: string | null): Promise<string> {
  const code = asked ?? (await store.returnRelayOf(db, owner));
  if (code === null) {
    throw new AppError("VALIDATION_FAILED", "The request is not valid", {
      details: [
        { field: "destinationRelayCode", message: 'is required: no return relay point is set (PUT /return-settings {"returnRelayCode"})' }
      ]
    });
  }
  await activeRelayOrRefuse(db, code, asked === null ? "returnRelayCode" : "destinationRelayCode");
  return code;
}

export async function activeRelayOrRefuse(db: Queryable, code: string, field: string): Promise<void> {
  const relay = await parcels.findRelayPoint(db, code);
  if (!relay || !relay.active) {
    throw new AppError("RELAY_NOT_FOUND", `Relay point ${code} does not exist or is not in service`, {
      details: [{ field, message: "unknown or inactive relay point" }]
    });
  }
}

/**
 * Opens a return of a delivered parcel (POST /parcels/{id}/returns): within the window after its
 * delivery, one open return at a time (the parcel's row lock serialises two requests), a fresh
 * code, and return.created in the same transaction (its webhook, and the customer's SMS with the
 * code). Nothing is charged until the drop-off.
 */
export async function openReturn(
  db: Database,
  owner: parcels.Owner,
  request: { parcelId: string; reason: string; items: ReturnItem[]; destinationRelayCode: string | null },
  days: { windowDays: number; codeDays: number }
): Promise<store.ReturnRecord> {
  const visible = await parcels.findVisible(db, owner, { id: request.parcelId });
  if (!visible) throw new AppError("PARCEL_NOT_FOUND", "Parcel not found");
  const destination = await destinationOf(db, owner, request.destinationRelayCode);
  return db.transaction(async tx => {
    const parcel = (await parcels.lockParcel(tx, visible.id))!;
    if (parcel.direction !== "OUTBOUND" || parcel.status !== "DELIVERED") {
      throw new AppError("PARCEL_NOT_RETURNABLE", `Only a DELIVERED parcel can be returned; this one is ${parcel.status}`);
    }
    if (!(await store.deliveredWithin(tx, parcel.id, days.windowDays))) {
      throw new AppError("PARCEL_NOT_RETURNABLE", `The return window (${days.windowDays} days after delivery) has passed`);
    }
    const open = await store.openReturnOf(tx, parcel.id);
    if (open) throw new AppError("RETURN_ALREADY_OPEN", `Return ${open.id} of this parcel is ${open.status}`);
    let code = generateReturnCode();
    for (let attempt = 1; (await store.codeInUse(tx, code)) && attempt < CODE_ATTEMPTS; attempt++) code = generateReturnCode();
    const created = await store.insertReturn(tx, {
      id: randomUUID(),
      parcelId: parcel.id,
      owner,
      returnCode: code,
      reason: request.reason,
      items: request.items,
      destinationRelayCode: destination,
      feeCentimes: returnShipmentCentimes(parcel.weightG),
      windowDays: days.codeDays
    });
    await appendReturnEvent(tx, "return.created", created);
    return created;
  });
}

/** AWAITING_DROP_OFF → CANCELLED by the merchant, with return.cancelled; anything else is 409. */
export async function cancelReturn(db: Database, owner: parcels.Owner, id: string): Promise<store.ReturnRecord> {
  return db.transaction(async tx => {
    const found = await store.findReturn(tx, owner, id);
    if (!found) throw RETURN_NOT_FOUND();
    await store.lockReturn(tx, id);
    const cancelled = await store.closeReturn(tx, id, "CANCELLED");
    if (!cancelled) {
      const now = (await store.lockReturn(tx, id))!;
      throw new AppError("RETURN_NOT_CANCELLABLE", `Only a return AWAITING_DROP_OFF can be cancelled; this one is ${now.status}`);
    }
    await appendReturnEvent(tx, "return.cancelled", cancelled, { reason: "cancelled by the merchant" });
    return cancelled;
  });
}
