import type { Queryable } from "../../../lib/db/database";

/** The SQL of the network's exceptions (migration logistics/006, decision 0058) and the reads a route needs. */

export type MissortReason = "OFF_ROUTE_HUB" | "WRONG_RELAY";

export interface ExceptionRecord {
  id: string;
  parcelId: string;
  trackingNumber: string;
  organizationId: string;
  kind: "MISSORT";
  reason: MissortReason;
  foundAt: string;
  foundInWilaya: string | null;
  rerouteToWilaya: string | null;
  rerouteToRelayCode: string;
  occurredAt: string;
  createdAt: string;
}

interface ExceptionRow {
  id: string;
  parcel_id: string;
  tracking_number: string;
  organization_id: string;
  kind: "MISSORT";
  reason: MissortReason;
  found_at: string;
  found_wilaya: number | null;
  reroute_wilaya: number | null;
  reroute_relay_code: string;
  occurred_at: Date;
  created_at: Date;
}

const wilayaText = (code: number | null) => (code === null ? null : String(code).padStart(2, "0"));
const wilayaCode = (text: string | null) => (text === null ? null : Number(text));

const toException = (r: ExceptionRow): ExceptionRecord => ({
  id: r.id,
  parcelId: r.parcel_id,
  trackingNumber: r.tracking_number,
  organizationId: r.organization_id,
  kind: r.kind,
  reason: r.reason,
  foundAt: r.found_at,
  foundInWilaya: wilayaText(r.found_wilaya),
  rerouteToWilaya: wilayaText(r.reroute_wilaya),
  rerouteToRelayCode: r.reroute_relay_code,
  occurredAt: r.occurred_at.toISOString(),
  createdAt: r.created_at.toISOString()
});

/** The exception, unless one with its id exists (the same parcel found at the same place for the same reason): then false. */
export async function insertException(
  db: Queryable,
  e: Omit<ExceptionRecord, "kind" | "occurredAt" | "createdAt"> & { occurredAt: Date }
): Promise<boolean> {
  const rows = await db.query<{ id: string }>(
    `INSERT INTO logistics.exceptions (id, parcel_id, tracking_number, organization_id, kind, reason, found_at, found_wilaya,
                                       reroute_wilaya, reroute_relay_code, occurred_at)
     VALUES ($1, $2, $3, $4, 'MISSORT', $5, $6, $7, $8, $9, $10) ON CONFLICT (id) DO NOTHING RETURNING id`,
    [
      e.id,
      e.parcelId,
      e.trackingNumber,
      e.organizationId,
      e.reason,
      e.foundAt,
      wilayaCode(e.foundInWilaya),
      wilayaCode(e.rerouteToWilaya),
      e.rerouteToRelayCode,
      e.occurredAt
    ]
  );
  return rows.length > 0;
}

/** Newest first, a page of them, and how many there are. */
export async function listExceptions(db: Queryable, page: number, size: number): Promise<{ items: ExceptionRecord[]; total: number }> {
  const [rows, [{ n }]] = await Promise.all([
    db.query<ExceptionRow>("SELECT * FROM logistics.exceptions ORDER BY created_at DESC, id DESC LIMIT $1 OFFSET $2", [size, page * size]),
    db.query<{ n: number }>("SELECT count(*)::integer AS n FROM logistics.exceptions")
  ]);
  return { items: rows.map(toException), total: Number(n) };
}

/**
 * Where the parcel entered the network (decision 0058): the wilaya of the pickup it was collected
 * in, else the wilaya of the first hub that scanned it in; null when neither exists yet.
 */
export async function originWilayaOf(db: Queryable, parcelId: string): Promise<string | null> {
  const [row] = await db.query<{ wilaya: string | null }>(
    `SELECT COALESCE(
       (SELECT p.address->>'wilaya' FROM logistics.pickup_parcels pp JOIN logistics.pickups p ON p.id = pp.pickup_id
         WHERE pp.parcel_id = $1 AND pp.state = 'COLLECTED' ORDER BY p.created_at DESC LIMIT 1),
       (SELECT lpad(h.wilaya_code::text, 2, '0') FROM logistics.scans s JOIN logistics.hubs h ON h.id = s.hub_id
         WHERE s.parcel_id = $1 AND s.kind = 'hub.in' ORDER BY s.occurred_at, s.recorded_at LIMIT 1)
     ) AS wilaya`,
    [parcelId]
  );
  return row?.wilaya ?? null;
}
