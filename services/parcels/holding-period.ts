import type { AppConfig } from "../../lib/config";
import type { Queryable } from "../../lib/db/database";
import type { ParcelStatus } from "../../lib/parcel-status";
import { shippingPriceOf } from "./tariff";

/**
 * The rules of a parcel's stay at its relay point (issue 18): how long it waits, when the
 * recipient is reminded, and what a return costs. Pure apart from `holdingDaysFor`, which is the
 * one place that answers "how many days at this relay point".
 */

/** A parcel "on the shelf": it waits for its recipient, and its deadline runs. */
export const ON_SHELF: readonly ParcelStatus[] = Object.freeze(["AT_RELAY", "RELAY_NOTIFIED"]);

export const PICKUP_EXPIRED = "PICKUP_EXPIRED";

/** The merchant's one extension: whole days, 1 to 7. */
export const MAX_EXTENSION_DAYS = 7;

export interface HoldingPolicy {
  holdingDays: number;
  pickupReminderHours: number;
  returnFeePercent: number;
}

/*
 * The policy of this process, set by the parcels service from its configuration when it is created.
 * Held here rather than passed along because every path that moves a parcel (operator transitions,
 * the sandbox trigger, relay arrivals, refusals) goes through applyStatusChange, and each of them
 * must get a deadline and a return fee without having to remember to pass them.
 */
let policy: HoldingPolicy = { holdingDays: 7, pickupReminderHours: 48, returnFeePercent: 50 };

export function useHoldingPolicy(config: Pick<AppConfig, keyof HoldingPolicy>): void {
  policy = { holdingDays: config.holdingDays, pickupReminderHours: config.pickupReminderHours, returnFeePercent: config.returnFeePercent };
}

export function holdingPolicy(): HoldingPolicy {
  return policy;
}

/**
 * Days a parcel waits at `relayCode` before it goes back: the relay point's own `holding_days`
 * (back-office `holdingDays`), or HOLDING_DAYS where it sets none.
 */
export async function holdingDaysFor(db: Queryable, relayCode: string): Promise<number> {
  const rows = await db.query<{ holding_days: number | null }>("SELECT holding_days FROM parcels.relay_points WHERE code = $1", [
    relayCode
  ]);
  return rows[0]?.holding_days ?? policy.holdingDays;
}

/**
 * What a return fee is a share of: the parcel's shipping price (its weight tier), never its insurance
 * or COD fee (issue 26). The price paid bounds it, should the tariff have risen since.
 */
export function shippingPaidOf(parcel: { weightG: number; priceCentimes: number }): number {
  return Math.min(shippingPriceOf(parcel.weightG) ?? parcel.priceCentimes, parcel.priceCentimes);
}

/** The fee of a return, to the centime (half-centimes round up): a share of the shipping price. */
export function returnFeeCentimes(priceCentimes: number, percent: number = policy.returnFeePercent): number {
  return Math.round((priceCentimes * percent) / 100);
}

export function isOnShelf(status: string): boolean {
  return (ON_SHELF as readonly string[]).includes(status);
}
