import type { Queryable } from "../../../lib/db/database";
import { AppError } from "../../../lib/errors";
import type { ParcelStatus } from "../../../lib/parcel-status";
import { findRelayPoint } from "../relay-points.store";
import { assertRelayOpenForNewParcels } from "../relay/closures";
import { countOnShelf, relaySettingsOf } from "../relay/relay.store";
import type { ParcelRecord } from "../parcels.store";
import type { RedirectBy, RedirectRecord } from "./redirect.store";

/**
 * The rules of a redirect before arrival (issue 21), pure or read-only, shared by the merchant's
 * and the recipient's paths (redirect.ts).
 */

/** Before the parcel reaches a relay point: the courier can still take it elsewhere. */
export const REDIRECTABLE_STATUSES: readonly ParcelStatus[] = Object.freeze(["CREATED", "READY_FOR_PICKUP", "PICKED_UP", "IN_TRANSIT"]);
/** At a relay point or past it on the normal way: too late to redirect. */
const AT_OR_AFTER_RELAY: readonly ParcelStatus[] = Object.freeze(["AT_RELAY", "RELAY_NOTIFIED", "DELIVERED", "RETURN_PENDING", "RETURNED"]);

export const MAX_REDIRECTS = 2;
export const MAX_RECIPIENT_REDIRECTS = 1;

export function isRedirectable(status: string): boolean {
  return (REDIRECTABLE_STATUSES as readonly string[]).includes(status);
}

/** 409 unless the parcel may still be redirected, by `by`, given the redirects it had. */
export function assertRedirectable(parcel: ParcelRecord, redirects: readonly Pick<RedirectRecord, "by">[], by: RedirectBy): void {
  if ((AT_OR_AFTER_RELAY as readonly string[]).includes(parcel.status)) {
    throw new AppError(
      "PARCEL_ALREADY_AT_RELAY",
      `Parcel ${parcel.trackingNumber} is ${parcel.status}: a parcel is redirected only before it reaches its relay point`
    );
  }
  if (!isRedirectable(parcel.status)) {
    throw new AppError("INVALID_TRANSITION", `Parcel ${parcel.trackingNumber} is ${parcel.status}: it is going nowhere to redirect`);
  }
  if (redirects.length >= MAX_REDIRECTS) {
    throw new AppError(
      "REDIRECT_LIMIT",
      `Parcel ${parcel.trackingNumber} was already redirected ${redirects.length} times, the most a parcel may be`
    );
  }
  if (by === "recipient" && redirects.filter(r => r.by === "recipient").length >= MAX_RECIPIENT_REDIRECTS) {
    throw new AppError("REDIRECT_LIMIT", "The recipient may change the relay point once, and already did");
  }
}

const refuseRelay = (code: string) =>
  new AppError("RELAY_NOT_FOUND", `Relay point ${code} does not exist or is not in service`, {
    details: [{ field: "destinationRelayCode", message: "unknown or inactive relay point" }]
  });

/**
 * Whether the parcel may go to `relayCode`: the one place a destination is judged for a redirect,
 * so that a rule added later (a closed relay point, say) holds for the merchant and the recipient
 * alike. 400 for the parcel's own destination or an unknown or inactive point, 409 RELAY_CLOSED
 * (with open points nearby) for one closed now or within CLOSURE_NOTICE_DAYS, 409 RELAY_FULL for a
 * point whose shelf holds its capacity.
 */
export async function checkRedirectDestination(
  db: Queryable,
  parcel: ParcelRecord,
  relayCode: string,
  closureNoticeDays: number
): Promise<void> {
  if (relayCode === parcel.destinationRelayCode) {
    throw new AppError("VALIDATION_FAILED", "The request is not valid", {
      details: [{ field: "destinationRelayCode", message: "is already the parcel's destination" }]
    });
  }
  const relay = await findRelayPoint(db, relayCode);
  if (!relay || !relay.active) throw refuseRelay(relayCode);
  await assertRelayOpenForNewParcels({ db, noticeDays: closureNoticeDays }, relayCode);
  const capacity = (await relaySettingsOf(db, [relayCode])).get(relayCode)?.capacity ?? 150;
  const onShelf = await countOnShelf(db, relayCode);
  if (onShelf >= capacity) {
    throw new AppError(
      "RELAY_FULL",
      `Relay point ${relayCode} is full (${onShelf} parcels for a capacity of ${capacity}): choose another one`
    );
  }
}
