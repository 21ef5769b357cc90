import { AppError } from "./errors";

/** The twelve public statuses, exactly as SPEC §3 lists them (the internal PENDING is not one). */
export const PARCEL_STATUSES = [
  "CREATED",
  "READY_FOR_PICKUP",
  "PICKED_UP",
  "IN_TRANSIT",
  "AT_RELAY",
  "RELAY_NOTIFIED",
  "DELIVERED",
  "RETURN_PENDING",
  "RETURNED",
  "LOST",
  "DAMAGED",
  "CANCELLED"
] as const;

export type ParcelStatus = (typeof PARCEL_STATUSES)[number];

/** Once a courier holds the parcel, cancelling is a support matter, not an API call (SPEC §3). */
export const CANCELLABLE_STATUSES: readonly ParcelStatus[] = Object.freeze(["CREATED", "READY_FOR_PICKUP"]);

/**
 * Moves operators (couriers, relay points) may make on a live parcel (DESIGN §3). Cancel and the
 * sandbox trigger are separate paths and deliberately absent; statuses with no entry are terminal.
 */
export const OPERATOR_TRANSITIONS: Readonly<Record<ParcelStatus, readonly ParcelStatus[]>> = Object.freeze({
  CREATED: ["READY_FOR_PICKUP"],
  READY_FOR_PICKUP: ["PICKED_UP"],
  PICKED_UP: ["IN_TRANSIT", "LOST", "DAMAGED"],
  IN_TRANSIT: ["AT_RELAY", "RETURN_PENDING", "LOST", "DAMAGED"],
  AT_RELAY: ["RELAY_NOTIFIED", "DELIVERED", "RETURN_PENDING", "LOST", "DAMAGED"],
  RELAY_NOTIFIED: ["DELIVERED", "RETURN_PENDING"],
  DELIVERED: [],
  RETURN_PENDING: ["RETURNED", "LOST"],
  RETURNED: [],
  LOST: [],
  DAMAGED: [],
  CANCELLED: []
});

export function isParcelStatus(x: unknown): x is ParcelStatus {
  return typeof x === "string" && (PARCEL_STATUSES as readonly string[]).includes(x);
}

export function canTransition(from: ParcelStatus, to: ParcelStatus): boolean {
  return isParcelStatus(from) && isParcelStatus(to) && OPERATOR_TRANSITIONS[from].includes(to);
}

export function assertOperatorTransition(from: ParcelStatus, to: ParcelStatus): void {
  if (!canTransition(from, to)) {
    throw new AppError("INVALID_TRANSITION", `a parcel cannot move from ${from} to ${to}`);
  }
}

export function isCancellable(status: ParcelStatus): boolean {
  return CANCELLABLE_STATUSES.includes(status);
}

export function assertCancellable(status: ParcelStatus): void {
  if (!isCancellable(status)) {
    throw new AppError(
      "PARCEL_NOT_CANCELLABLE",
      `a parcel in status ${status} can no longer be cancelled; only ${CANCELLABLE_STATUSES.join(" and ")} parcels can (contact support after pick-up)`
    );
  }
}

export type ParcelEventType = `parcel.${Lowercase<ParcelStatus>}`;

/** The webhook `X-Relay-Event` / payload `type` of a change to this status (DESIGN §3). */
export function eventTypeFor(status: ParcelStatus): ParcelEventType {
  return `parcel.${status.toLowerCase() as Lowercase<ParcelStatus>}`;
}
