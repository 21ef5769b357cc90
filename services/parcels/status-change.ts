import { randomUUID } from "node:crypto";
import type { Queryable } from "../../lib/db/database";
import type { ParcelEvent } from "../../lib/events";
import { eventTypeFor, ParcelStatus } from "../../lib/parcel-status";
import { toParcelView } from "./parcel-view";
import * as store from "./parcels.store";

export interface StatusChange {
  to: ParcelStatus;
  reason: string | null;
  /** Who made the change, for the history: merchant, operator, sandbox, notifications, sweeper. */
  actor: string;
  /** Cancel gives the price back: flagged in the same transaction, cleared once the wallet acknowledged. */
  refundPending?: boolean;
}

/**
 * The one way a parcel changes status: the new status, its history line and its outbox event are
 * written in the caller's transaction, so an event exists exactly when the change does.
 */
export async function applyStatusChange(
  tx: Queryable,
  row: store.ParcelRecord,
  change: StatusChange
): Promise<{ row: store.ParcelRecord; event: ParcelEvent }> {
  const previous = row.status === "PENDING" ? null : row.status;
  const updated = await store.setStatus(tx, row.id, change.to, change.refundPending ?? false);
  const { sequence, occurredAt } = await store.recordHistory(tx, {
    parcelId: row.id,
    from: row.status,
    to: change.to,
    reason: change.reason,
    actor: change.actor
  });
  const event: ParcelEvent = {
    id: randomUUID(),
    type: eventTypeFor(change.to),
    createdAt: updated.updatedAt.toISOString(),
    occurredAt: occurredAt.toISOString(),
    sequence,
    organizationId: updated.organizationId,
    mode: updated.mode,
    sandbox: updated.mode === "sandbox",
    reason: change.reason,
    data: { previousStatus: previous, parcel: toParcelView(updated, null) }
  };
  await store.appendOutbox(tx, {
    eventId: event.id,
    parcelId: row.id,
    owner: { organizationId: updated.organizationId, mode: updated.mode },
    type: event.type,
    payload: event
  });
  return { row: updated, event };
}

/** PENDING → CREATED once the debit is acknowledged; null when someone else finished or discarded it. */
export async function finishCreation(
  db: { transaction: <T>(w: (tx: Queryable) => Promise<T>) => Promise<T> },
  parcelId: string,
  actor: string
) {
  return db.transaction(async tx => {
    const row = await store.lockParcel(tx, parcelId);
    if (!row || row.status !== "PENDING") return row && row.status !== "PENDING" ? row : null;
    return (await applyStatusChange(tx, row, { to: "CREATED", reason: null, actor })).row;
  });
}
