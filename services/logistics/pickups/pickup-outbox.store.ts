import { randomUUID } from "node:crypto";
import type { Queryable } from "../../../lib/db/database";
import type { PickupStopEventType } from "../../../lib/pickup-events";
import type { PickupRecord } from "./pickups.store";

/**
 * The SQL of the logistics outbox (migration logistics/003, decision 0054): a pickup's event is a
 * row written in the transaction that changes the pickup; the relay (pickup-events-relay.ts)
 * hands it to webhooks and marks it dispatched.
 */

const EVENT_OF_STATUS: Partial<Record<PickupRecord["status"], PickupStopEventType>> = {
  CONFIRMED: "pickup.confirmed",
  COMPLETED: "pickup.completed",
  PARTIALLY_COMPLETED: "pickup.completed",
  CANCELLED: "pickup.cancelled"
};

/** The merchant's event for the pickup's new status, in the caller's transaction; none for a status without one. */
export async function queuePickupEvent(tx: Queryable, pickup: PickupRecord): Promise<void> {
  const type = EVENT_OF_STATUS[pickup.status];
  if (!type) return;
  await tx.query("INSERT INTO logistics.outbox (event_id, pickup_id, type, status, occurred_at) VALUES ($1, $2, $3, $4, $5)", [
    randomUUID(),
    pickup.id,
    type,
    pickup.status,
    pickup.updatedAt
  ]);
}

export interface OutboxRow {
  id: string;
  eventId: string;
  pickupId: string;
  type: PickupStopEventType;
  status: string;
  occurredAt: Date;
}

/** The oldest undispatched rows: one pickup's events in the order they were written. */
export async function undispatched(db: Queryable, limit: number): Promise<OutboxRow[]> {
  const rows = await db.query<{
    id: string;
    event_id: string;
    pickup_id: string;
    type: PickupStopEventType;
    status: string;
    occurred_at: Date;
  }>("SELECT id, event_id, pickup_id, type, status, occurred_at FROM logistics.outbox WHERE dispatched_at IS NULL ORDER BY id LIMIT $1", [
    limit
  ]);
  return rows.map(r => ({
    id: String(r.id),
    eventId: r.event_id,
    pickupId: r.pickup_id,
    type: r.type,
    status: r.status,
    occurredAt: r.occurred_at
  }));
}

export async function markDispatched(db: Queryable, ids: string[]): Promise<void> {
  await db.query("UPDATE logistics.outbox SET dispatched_at = now() WHERE id = ANY($1::bigint[]) AND dispatched_at IS NULL", [ids]);
}

/** Dispatched rows are kept a week (for investigation, as parcels' outbox), then purged in batches. */
export async function purgeDispatched(db: Queryable, days: number): Promise<number> {
  const purged = await db.query(
    `DELETE FROM logistics.outbox WHERE id IN (
       SELECT id FROM logistics.outbox WHERE dispatched_at < now() - make_interval(days => $1::int) LIMIT 1000)
     RETURNING id`,
    [days]
  );
  return purged.length;
}
