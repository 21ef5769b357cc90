import type { Queryable } from "../../../lib/db/database";

/** The SQL of offline hand-overs and offline PIN tries (migration parcels/027), returning camelCase records. */

export type OfflineProof = "pass" | "pin";

export async function recordOfflineHandover(
  tx: Queryable,
  entry: { parcelId: string; relayCode: string; agentKeyId: string; proof: OfflineProof; occurredAt: Date | null }
): Promise<void> {
  await tx.query(
    `INSERT INTO parcels.offline_handovers (parcel_id, relay_code, agent_key_id, proof, occurred_at)
     VALUES ($1, $2, $3, $4, coalesce($5::timestamptz, now())) ON CONFLICT (parcel_id) DO NOTHING`,
    [entry.parcelId, entry.relayCode, entry.agentKeyId, entry.proof, entry.occurredAt]
  );
}

/** Algeria keeps UTC+1 all year (no summer time): its day starts at 23:00 UTC the day before. */
const ALGIERS_OFFSET_MS = 3_600_000;
const DAY_MS = 86_400_000;

/** The device's offline PIN hand-overs on the Algiers day of `at`. */
export async function pinHandoversOnDay(tx: Queryable, agentKeyId: string, at: Date): Promise<number> {
  const start = Math.floor((at.getTime() + ALGIERS_OFFSET_MS) / DAY_MS) * DAY_MS - ALGIERS_OFFSET_MS;
  const [row] = await tx.query<{ n: number }>(
    `SELECT count(*)::integer AS n FROM parcels.offline_handovers
      WHERE agent_key_id = $1 AND proof = 'pin' AND occurred_at >= $2 AND occurred_at < $3`,
    [agentKeyId, new Date(start), new Date(start + DAY_MS)]
  );
  return Number(row.n);
}

/**
 * Wrong PINs a device refused offline, reported at its sync: added to the parcel's count (so the
 * server's five-try lock counts them) and to its offline count; the parcel is flagged the first
 * time that count passes `flagAbove`. Answers whether it is flagged now.
 */
export async function addOfflinePinFailures(tx: Queryable, parcelId: string, tries: number, flagAbove: number): Promise<boolean> {
  const [row] = await tx.query<{ flagged: boolean }>(
    `UPDATE parcels.parcels
        SET pickup_pin_failures = pickup_pin_failures + $2, offline_pin_failures = offline_pin_failures + $2,
            offline_tries_flagged_at = CASE WHEN offline_pin_failures + $2 > $3 THEN coalesce(offline_tries_flagged_at, now())
                                            ELSE offline_tries_flagged_at END
      WHERE id = $1 RETURNING offline_tries_flagged_at IS NOT NULL AS flagged`,
    [parcelId, tries, flagAbove]
  );
  return row?.flagged ?? false;
}

export interface OfflinePinFlag {
  trackingNumber: string;
  relayCode: string;
  offlineWrongTries: number;
  flaggedAt: Date;
}

/** Parcels flagged for their offline tries, newest first (the operators' list). */
export async function listOfflinePinFlags(
  db: Queryable,
  page: { page: number; size: number }
): Promise<{ records: OfflinePinFlag[]; total: number }> {
  const rows = await db.query<{
    tracking_number: string;
    destination_relay_code: string;
    offline_pin_failures: number;
    offline_tries_flagged_at: Date;
    total: number;
  }>(
    `SELECT tracking_number, destination_relay_code, offline_pin_failures, offline_tries_flagged_at, count(*) OVER ()::integer AS total
       FROM parcels.parcels WHERE offline_tries_flagged_at IS NOT NULL
      ORDER BY offline_tries_flagged_at DESC, id LIMIT $1 OFFSET $2`,
    [page.size, page.page * page.size]
  );
  return {
    records: rows.map(r => ({
      trackingNumber: r.tracking_number,
      relayCode: r.destination_relay_code,
      offlineWrongTries: r.offline_pin_failures,
      flaggedAt: r.offline_tries_flagged_at
    })),
    total: rows[0]?.total ?? 0
  };
}

export interface HandoverDispute {
  id: string;
  trackingNumber: string;
  relayCode: string;
  handedOverAt: Date;
  createdAt: Date;
}

type DisputeRow = { id: string; tracking_number: string; relay_code: string; handed_over_at: Date; created_at: Date };
const toDispute = (r: DisputeRow): HandoverDispute => ({
  id: r.id,
  trackingNumber: r.tracking_number,
  relayCode: r.relay_code,
  handedOverAt: r.handed_over_at,
  createdAt: r.created_at
});

/** The offline PIN hand-over of a parcel, if it had one (what a "not me" disputes). */
export async function offlinePinHandoverOf(db: Queryable, parcelId: string): Promise<{ relayCode: string; occurredAt: Date } | null> {
  const [row] = await db.query<{ relay_code: string; occurred_at: Date }>(
    "SELECT relay_code, occurred_at FROM parcels.offline_handovers WHERE parcel_id = $1 AND proof = 'pin'",
    [parcelId]
  );
  return row ? { relayCode: row.relay_code, occurredAt: row.occurred_at } : null;
}

/** One dispute per parcel: a second "not me" answers the first. */
export async function recordDispute(
  db: Queryable,
  dispute: { id: string; parcelId: string; trackingNumber: string; relayCode: string; handedOverAt: Date }
): Promise<{ dispute: HandoverDispute; created: boolean }> {
  const inserted = await db.query<DisputeRow>(
    `INSERT INTO parcels.handover_disputes (id, parcel_id, tracking_number, relay_code, handed_over_at) VALUES ($1, $2, $3, $4, $5)
     ON CONFLICT (parcel_id) DO NOTHING RETURNING id, tracking_number, relay_code, handed_over_at, created_at`,
    [dispute.id, dispute.parcelId, dispute.trackingNumber, dispute.relayCode, dispute.handedOverAt]
  );
  if (inserted[0]) return { dispute: toDispute(inserted[0]), created: true };
  const [existing] = await db.query<DisputeRow>(
    "SELECT id, tracking_number, relay_code, handed_over_at, created_at FROM parcels.handover_disputes WHERE parcel_id = $1",
    [dispute.parcelId]
  );
  return { dispute: toDispute(existing), created: false };
}

export async function listDisputes(
  db: Queryable,
  page: { page: number; size: number }
): Promise<{ records: HandoverDispute[]; total: number }> {
  const rows = await db.query<DisputeRow & { total: number }>(
    `SELECT id, tracking_number, relay_code, handed_over_at, created_at, count(*) OVER ()::integer AS total
       FROM parcels.handover_disputes ORDER BY created_at DESC, id LIMIT $1 OFFSET $2`,
    [page.size, page.page * page.size]
  );
  return { records: rows.map(toDispute), total: rows[0]?.total ?? 0 };
}

export interface UnconfirmedHandover {
  parcelId: string;
  organizationId: string;
  trackingNumber: string;
  relayCode: string;
  occurredAt: Date;
}

/** Offline PIN hand-overs whose recipient's confirmation SMS is not stored yet, oldest first (one, or a batch). */
export async function unconfirmedHandovers(db: Queryable, options: { parcelId?: string; limit: number }): Promise<UnconfirmedHandover[]> {
  const rows = await db.query<{
    parcel_id: string;
    organization_id: string;
    tracking_number: string;
    relay_code: string;
    occurred_at: Date;
  }>(
    `SELECT o.parcel_id, p.organization_id, p.tracking_number, o.relay_code, o.occurred_at
       FROM parcels.offline_handovers o JOIN parcels.parcels p ON p.id = o.parcel_id
      WHERE o.proof = 'pin' AND o.confirmed_at IS NULL AND ($1::uuid IS NULL OR o.parcel_id = $1)
      ORDER BY o.synced_at LIMIT $2`,
    [options.parcelId ?? null, options.limit]
  );
  return rows.map(r => ({
    parcelId: r.parcel_id,
    organizationId: r.organization_id,
    trackingNumber: r.tracking_number,
    relayCode: r.relay_code,
    occurredAt: r.occurred_at
  }));
}

export async function markConfirmed(db: Queryable, parcelId: string): Promise<void> {
  await db.query("UPDATE parcels.offline_handovers SET confirmed_at = now() WHERE parcel_id = $1 AND confirmed_at IS NULL", [parcelId]);
}
