import { uuidv7 } from "./uuid7";
import { CodEventType, codStatusAfter, CodStatus } from "../../lib/cod";
import type { Queryable } from "../../lib/db/database";
import { ParcelEvent, parcelOf, RemittanceRef, subjectIdOf } from "../../lib/events";
import { eventTypeFor, ParcelStatus } from "../../lib/parcel-status";
import { generatePickupPin } from "../../lib/pickup-pin";
import { holdingDaysFor, returnFeeCentimes, shippingPaidOf } from "./holding-period";
import { toParcelView } from "./parcel-view";
import * as store from "./parcels.store";
import { returnParcelArrived } from "./returns/return-events";

export interface StatusChange {
  to: ParcelStatus;
  reason: string | null;
  /** Who made the change, for the history: merchant, operator, sandbox, notifications, sweeper. */
  actor: string;
  /** Cancel gives the price back: flagged in the same transaction, cleared once the wallet acknowledged. */
  refundPending?: boolean;
  /** Seals a new pick-up PIN (lib/crypto); a live parcel reaching AT_RELAY without one gets one. */
  sealPin?: (pin: string) => string;
  /** When it happened, if not now: a counter's operation sent later (its history line, arrival and deadline count from it). */
  at?: Date | null;
}

/**
 * The one way a parcel changes status: the new status, its history line and its outbox event are
 * written in the caller's transaction, so an event exists exactly when the change does. The COD
 * status follows (lib/cod.ts), and cash collected on DELIVERED is one more event, cod.collected.
 * Whatever the path: reaching AT_RELAY starts the holding period (pickupDeadline), and entering
 * RETURN_PENDING fixes the return fee, which the wallet is then asked for (return-fees.ts). A
 * customer's return parcel (issue 21) gets no deadline, and its arrival is return.ready_for_collection.
 */
export async function applyStatusChange(
  tx: Queryable,
  row: store.ParcelRecord,
  change: StatusChange
): Promise<{ row: store.ParcelRecord; event: ParcelEvent }> {
  const previous = row.status === "PENDING" ? null : row.status;
  const codStatus = codStatusAfter(row.codStatus, change.to);
  const isReturnParcel = row.direction === "RETURN";
  // A return parcel is collected by the merchant with its PIN, in the sandbox too; it has no deadline.
  const needsPin =
    change.to === "AT_RELAY" && (row.mode === "live" || isReturnParcel) && row.pickupPinEnc === null && change.sealPin !== undefined;
  const newPin = needsPin ? generatePickupPin() : null;
  const updated = await store.setStatus(tx, row.id, {
    status: change.to,
    refundPending: change.refundPending ?? false,
    codStatus,
    pickupPinEnc: newPin !== null ? change.sealPin!(newPin) : row.pickupPinEnc,
    holdingDays: change.to === "AT_RELAY" && !isReturnParcel ? await holdingDaysFor(tx, row.destinationRelayCode) : null,
    returnFeeCentimes: change.to === "RETURN_PENDING" ? returnFeeCentimes(shippingPaidOf(row)) : null,
    at: change.at ?? null
  });
  const { sequence, occurredAt } = await store.recordHistory(tx, {
    parcelId: row.id,
    from: row.status,
    to: change.to,
    reason: change.reason,
    actor: change.actor,
    at: change.at ?? null
  });
  const event = eventOf(updated, { type: eventTypeFor(change.to), sequence, occurredAt, reason: change.reason });
  event.data = { previousStatus: previous, parcel: parcelOf(event)! };
  await appendEvent(tx, event);
  if (row.codStatus === "PENDING" && codStatus === "COLLECTED") {
    await recordCodEvent(tx, updated, { type: "cod.collected", from: "PENDING", remittance: null });
  }
  if (isReturnParcel && change.to === "AT_RELAY" && row.status !== "AT_RELAY") await returnParcelArrived(tx, row.id, newPin);
  return { row: updated, event };
}

/** A COD event of a parcel already updated in this transaction: its history line and its outbox row. */
export async function recordCodEvent(
  tx: Queryable,
  parcel: store.ParcelRecord,
  cod: { type: CodEventType; from: CodStatus; remittance: RemittanceRef | null }
): Promise<ParcelEvent> {
  const { sequence, occurredAt } = await store.recordCodHistory(tx, {
    parcelId: parcel.id,
    to: parcel.codStatus!,
    remittanceId: cod.remittance?.id ?? null
  });
  const event = eventOf(parcel, { type: cod.type, sequence, occurredAt, reason: null });
  event.data = { previousCodStatus: cod.from, parcel: parcelOf(event)!, remittance: cod.remittance };
  await appendEvent(tx, event);
  return event;
}

export function eventOf(
  parcel: store.ParcelRecord,
  at: { type: ParcelEvent["type"]; sequence: number; occurredAt: Date; reason: string | null }
): ParcelEvent {
  return {
    id: uuidv7(),
    type: at.type,
    createdAt: parcel.updatedAt.toISOString(),
    occurredAt: at.occurredAt.toISOString(),
    sequence: at.sequence,
    organizationId: parcel.organizationId,
    mode: parcel.mode,
    sandbox: parcel.mode === "sandbox",
    reason: at.reason,
    data: { previousStatus: null, parcel: toParcelView(parcel, null) }
  };
}

export async function appendEvent(tx: Queryable, event: ParcelEvent): Promise<void> {
  await store.appendOutbox(tx, {
    eventId: event.id,
    parcelId: subjectIdOf(event),
    owner: { organizationId: event.organizationId, mode: event.mode },
    type: event.type,
    payload: event
  });
}

/**
 * PENDING → CREATED once the debit is acknowledged; null when someone else finished or discarded
 * it, or (for the sweeper, which passes `claimAgeSeconds`) when a create is refunding it.
 */
export async function finishCreation(
  db: { transaction: <T>(w: (tx: Queryable) => Promise<T>) => Promise<T> },
  parcelId: string,
  actor: string,
  claimAgeSeconds?: number
) {
  return db.transaction(async tx => {
    const row =
      claimAgeSeconds === undefined
        ? await store.lockParcel(tx, parcelId)
        : await store.lockPendingForSweeper(tx, parcelId, claimAgeSeconds);
    if (!row || row.status !== "PENDING") return row && row.status !== "PENDING" ? row : null;
    return (await applyStatusChange(tx, row, { to: "CREATED", reason: null, actor })).row;
  });
}
