import type { Queryable } from "../../../lib/db/database";

/** The SQL of the pickup pass (migration parcels/027), returning camelCase records. */

export interface PassSubject {
  id: string;
  trackingNumber: string;
  relayCode: string;
  status: string;
  mode: string;
  passVersion: number;
}

export async function passSubject(db: Queryable, trackingNumber: string): Promise<PassSubject | null> {
  const [row] = await db.query<{
    id: string;
    tracking_number: string;
    destination_relay_code: string;
    status: string;
    mode: string;
    pickup_pass_version: number;
  }>(
    `SELECT id, tracking_number, destination_relay_code, status, mode, pickup_pass_version
       FROM parcels.parcels WHERE tracking_number = $1 AND status <> 'PENDING'`,
    [trackingNumber]
  );
  return row
    ? {
        id: row.id,
        trackingNumber: row.tracking_number,
        relayCode: row.destination_relay_code,
        status: row.status,
        mode: row.mode,
        passVersion: row.pickup_pass_version
      }
    : null;
}
