import type { Queryable } from "../../../lib/db/database";

/** A return waiting at a relay point for the courier (issue 44 C): RETURN_PENDING, on the shelf, not handed over yet. */
export interface ReturnAtRelay {
  parcelId: string;
  trackingNumber: string;
  relayCode: string;
}

/** The relay API's "on the shelf" rule for returns (relay.store ON_SHELF), for the courier's run. */
export async function returnsAtRelays(db: Queryable, relayCodes: readonly string[]): Promise<ReturnAtRelay[]> {
  const rows = await db.query<{ id: string; tracking_number: string; destination_relay_code: string }>(
    `SELECT id, tracking_number, destination_relay_code FROM parcels.parcels
      WHERE mode = 'live' AND status = 'RETURN_PENDING' AND destination_relay_code = ANY($1::text[])
        AND arrived_at IS NOT NULL AND return_dispatched_at IS NULL
      ORDER BY destination_relay_code, tracking_number LIMIT 1000`,
    [relayCodes]
  );
  return rows.map(r => ({ parcelId: r.id, trackingNumber: r.tracking_number, relayCode: r.destination_relay_code }));
}
