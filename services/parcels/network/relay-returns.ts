import type { Queryable } from "../../../lib/db/database";

/**
 * A return waiting at a relay point for the courier (issue 44 C): RETURN_PENDING, arrived there, and
 * not yet taken by the network (no courier's or hub's custody since it arrived).
 */
export interface ReturnAtRelay {
  parcelId: string;
  trackingNumber: string;
  relayCode: string;
}

/**
 * Which returns a courier is to take at a relay point, for its run and its arrival. Not the
 * shelf's rule (relay.store ON_SHELF): the agent's return dispatch takes a return off the shelf's
 * list, often before the courier comes (the agent prepares the bag), yet the return is still at the
 * counter for the courier to take; only the courier's scan (custody courier, written after the
 * arrival) ends the wait. A parcel delivered by a courier holds that courier's custody from before its
 * arrival, hence "since it arrived" (decision 0057). Over parcels.parcels' own columns (unqualified),
 * for the reads that list or probe such returns.
 */
export const RETURN_WAITING = `mode = 'live' AND status = 'RETURN_PENDING' AND arrived_at IS NOT NULL
  AND NOT COALESCE(custody_holder IN ('courier', 'hub') AND custody_since > arrived_at, false)`;

/** The returns waiting at these relay points (RETURN_WAITING), for a courier's run and arrival. */
export async function returnsAtRelays(db: Queryable, relayCodes: readonly string[]): Promise<ReturnAtRelay[]> {
  const rows = await db.query<{ id: string; tracking_number: string; destination_relay_code: string }>(
    `SELECT id, tracking_number, destination_relay_code FROM parcels.parcels
      WHERE ${RETURN_WAITING} AND destination_relay_code = ANY($1::text[])
      ORDER BY destination_relay_code, tracking_number LIMIT 1000`,
    [relayCodes]
  );
  return rows.map(r => ({ parcelId: r.id, trackingNumber: r.tracking_number, relayCode: r.destination_relay_code }));
}
