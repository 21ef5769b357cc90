import type { Client } from "pg";
import type { ReceivedRequest } from "../../test/helpers/receivers";
import type { RelayRecord } from "./relay";

/** The webhook ids received per event (the body's `id`, the outbox's event_id): a retried delivery keeps its id. */
export function idsPerEvent(requests: ReceivedRequest[]): Map<string, Set<string>> {
  const ids = new Map<string, Set<string>>();
  for (const request of requests) {
    const eventId = (JSON.parse(request.rawBody) as { id: string }).id;
    const webhookId = String(request.headers["webhook-id"]);
    ids.set(eventId, (ids.get(eventId) ?? new Set()).add(webhookId));
  }
  return ids;
}

/** The organisation's events in the outbox (every status change is one, written in its transaction). */
export async function outboxEvents(db: Client, orgId: string): Promise<Array<{ eventId: string; parcelId: string; type: string }>> {
  const { rows } = await db.query<{ eventId: string; parcelId: string; type: string }>(
    `SELECT event_id::text AS "eventId", parcel_id::text AS "parcelId", type FROM parcels.outbox
      WHERE organization_id = $1 AND mode = 'live' ORDER BY id`,
    [orgId]
  );
  return rows;
}

/** Every outbox event delivered to the endpoint under exactly one webhook id (retries of it count once). */
export async function webhookViolations(db: Client, orgId: string, requests: ReceivedRequest[]): Promise<string[]> {
  const ids = idsPerEvent(requests);
  const violations: string[] = [];
  for (const event of await outboxEvents(db, orgId)) {
    const received = ids.get(event.eventId)?.size ?? 0;
    if (received !== 1) violations.push(`${event.type} ${event.eventId} of parcel ${event.parcelId}: ${received} webhook ids`);
  }
  return violations;
}

/** Every acknowledged arrival is in the parcel's history; every acknowledged hand-over left it DELIVERED. */
export async function relayViolations(db: Client, records: RelayRecord[]): Promise<string[]> {
  const ids = records.map(r => r.parcelId);
  const { rows } = await db.query<{ id: string; status: string; history: string[] }>(
    `SELECT p.id::text AS id, p.status, coalesce(array_agg(h.to_status) FILTER (WHERE h.id IS NOT NULL), '{}') AS history
       FROM parcels.parcels p LEFT JOIN parcels.status_history h ON h.parcel_id = p.id
      WHERE p.id = ANY($1::uuid[]) GROUP BY p.id, p.status`,
    [ids]
  );
  const byId = new Map(rows.map(r => [r.id, r]));
  const violations: string[] = [];
  for (const record of records) {
    const parcel = byId.get(record.parcelId);
    if (record.arrival?.acknowledged && !parcel?.history.includes("AT_RELAY"))
      violations.push(`arrival of ${record.trackingNumber} (key ${record.arrival.key}) acknowledged, not in its history`);
    if (record.handover?.acknowledged && (parcel?.status !== "DELIVERED" || !parcel.history.includes("DELIVERED")))
      violations.push(
        `hand-over of ${record.trackingNumber} (key ${record.handover.key}) acknowledged, parcel ${parcel?.status ?? "missing"}`
      );
  }
  return violations;
}
