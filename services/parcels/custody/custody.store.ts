import type { Queryable } from "../../../lib/db/database";
import type { HolderKind } from "../../../lib/custody";
import { eventCount } from "../parcels.store";

/**
 * The SQL of custody and investigations (migrations parcels/035): the parcel's custody columns,
 * the investigations, their events' lines, and the loss pass's reads (index parcels_custody_silence).
 */

export interface CustodyWrite {
  holder: HolderKind;
  since: Date;
  name: string | null;
  wilaya: string | null;
}

/**
 * The parcel's holder, unless a later hand-off was written already (scans from offline phones
 * arrive out of order): true when this one was taken. The caller holds the parcel's row lock.
 */
export async function writeCustody(tx: Queryable, parcelId: string, custody: CustodyWrite): Promise<boolean> {
  const rows = await tx.query(
    `UPDATE parcels.parcels SET custody_holder = $2, custody_since = $3, custody_name = $4, custody_wilaya = $5, updated_at = now()
      WHERE id = $1 AND (custody_since IS NULL OR custody_since <= $3) RETURNING id`,
    [parcelId, custody.holder, custody.since, custody.name, custody.wilaya]
  );
  return rows.length > 0;
}

/**
 * Parcels a courier or a hub has held, silent since before `before`, longest first: the partial
 * index parcels_custody_silence holds only PICKED_UP and IN_TRANSIT parcels, so this reads a few
 * rows however many parcels there are. `withoutOpenInvestigation` leaves out those already looked for.
 */
export async function silentParcelIds(
  db: Queryable,
  before: Date,
  limit: number,
  options: { withoutOpenInvestigation: boolean }
): Promise<string[]> {
  const rows = await db.query<{ id: string }>(
    `SELECT p.id FROM parcels.parcels p
      WHERE p.status IN ('PICKED_UP', 'IN_TRANSIT') AND p.custody_holder IN ('courier', 'hub') AND p.custody_since < $1
        AND ($3::boolean IS FALSE OR NOT EXISTS (
              SELECT 1 FROM parcels.investigations i WHERE i.parcel_id = p.id AND i.closed_at IS NULL))
      ORDER BY p.custody_since LIMIT $2`,
    [before, limit, options.withoutOpenInvestigation]
  );
  return rows.map(r => r.id);
}

export type InvestigationReason = "NO_SCAN" | "HANDOVER_DISPUTED";
export type InvestigationOutcome = "FOUND" | "LOST" | "DISMISSED";

export interface InvestigationRecord {
  id: string;
  parcelId: string;
  trackingNumber: string;
  organizationId: string;
  mode: "live" | "sandbox";
  status: string;
  reason: InvestigationReason;
  holder: string | null;
  holderName: string | null;
  holderSince: Date | null;
  disputeId: string | null;
  openedAt: Date;
  closedAt: Date | null;
  outcome: InvestigationOutcome | null;
}

interface InvestigationRow {
  id: string;
  parcel_id: string;
  tracking_number: string;
  organization_id: string;
  mode: "live" | "sandbox";
  status: string;
  reason: InvestigationReason;
  holder: string | null;
  holder_name: string | null;
  holder_since: Date | null;
  dispute_id: string | null;
  opened_at: Date;
  closed_at: Date | null;
  outcome: InvestigationOutcome | null;
}

const toInvestigation = (r: InvestigationRow): InvestigationRecord => ({
  id: r.id,
  parcelId: r.parcel_id,
  trackingNumber: r.tracking_number,
  organizationId: r.organization_id,
  mode: r.mode,
  status: r.status,
  reason: r.reason,
  holder: r.holder,
  holderName: r.holder_name,
  holderSince: r.holder_since,
  disputeId: r.dispute_id,
  openedAt: r.opened_at,
  closedAt: r.closed_at,
  outcome: r.outcome
});

const SELECT = `SELECT i.*, p.tracking_number, p.status FROM parcels.investigations i JOIN parcels.parcels p ON p.id = i.parcel_id`;

export interface NewInvestigation {
  id: string;
  parcelId: string;
  owner: { organizationId: string; mode: "live" | "sandbox" };
  reason: InvestigationReason;
  holder: string | null;
  holderName: string | null;
  holderSince: Date | null;
  disputeId: string | null;
}

/** Opens one unless the parcel has one open (the unique index investigations_one_open): null then. */
export async function insertInvestigation(tx: Queryable, inv: NewInvestigation): Promise<InvestigationRecord | null> {
  const rows = await tx.query<{ id: string }>(
    `INSERT INTO parcels.investigations (id, parcel_id, organization_id, mode, reason, holder, holder_name, holder_since, dispute_id)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9)
     ON CONFLICT (parcel_id) WHERE closed_at IS NULL DO NOTHING RETURNING id`,
    [inv.id, inv.parcelId, inv.owner.organizationId, inv.owner.mode, inv.reason, inv.holder, inv.holderName, inv.holderSince, inv.disputeId]
  );
  return rows.length > 0 ? findInvestigation(tx, inv.id) : null;
}

export async function findInvestigation(db: Queryable, id: string): Promise<InvestigationRecord | null> {
  const [row] = await db.query<InvestigationRow>(`${SELECT} WHERE i.id = $1`, [id]);
  return row ? toInvestigation(row) : null;
}

export async function openInvestigationOf(db: Queryable, parcelId: string): Promise<InvestigationRecord | null> {
  const [row] = await db.query<InvestigationRow>(`${SELECT} WHERE i.parcel_id = $1 AND i.closed_at IS NULL`, [parcelId]);
  return row ? toInvestigation(row) : null;
}

export async function closeInvestigation(tx: Queryable, id: string, outcome: InvestigationOutcome): Promise<InvestigationRecord | null> {
  const rows = await tx.query<{ id: string }>(
    "UPDATE parcels.investigations SET closed_at = now(), outcome = $2 WHERE id = $1 AND closed_at IS NULL RETURNING id",
    [id, outcome]
  );
  return rows.length > 0 ? findInvestigation(tx, id) : null;
}

/**
 * Open NO_SCAN investigations whose parcel left the network's custody without a custody write
 * (an arrival at its relay point, an operator's transition): the pass closes them as DISMISSED.
 */
export async function strayInvestigationParcelIds(db: Queryable, limit: number): Promise<string[]> {
  const rows = await db.query<{ parcel_id: string }>(
    `SELECT i.parcel_id FROM parcels.investigations i JOIN parcels.parcels p ON p.id = i.parcel_id
      WHERE i.closed_at IS NULL AND i.reason = 'NO_SCAN' AND p.status NOT IN ('PICKED_UP', 'IN_TRANSIT')
      ORDER BY i.opened_at LIMIT $1`,
    [limit]
  );
  return rows.map(r => r.parcel_id);
}

/** The back-office queue: open investigations, oldest first (index investigations_open_queue). */
export async function listOpenInvestigations(
  db: Queryable,
  page: { page: number; size: number }
): Promise<{ records: InvestigationRecord[]; total: number }> {
  const [{ n }] = await db.query<{ n: number }>("SELECT count(*)::integer AS n FROM parcels.investigations WHERE closed_at IS NULL");
  const rows = await db.query<InvestigationRow>(`${SELECT} WHERE i.closed_at IS NULL ORDER BY i.opened_at, i.id LIMIT $1 OFFSET $2`, [
    page.size,
    page.page * page.size
  ]);
  return { records: rows.map(toInvestigation), total: Number(n) };
}

/** An investigation event's line (under the parcel's row lock) and its place in the parcel's sequence. */
export async function recordInvestigationHistory(
  tx: Queryable,
  entry: { investigationId: string; parcelId: string; kind: "opened" | "closed" }
): Promise<{ sequence: number; occurredAt: Date }> {
  const [line] = await tx.query<{ created_at: Date }>(
    "INSERT INTO parcels.investigation_history (investigation_id, parcel_id, kind) VALUES ($1, $2, $3) RETURNING created_at",
    [entry.investigationId, entry.parcelId, entry.kind]
  );
  return { sequence: await eventCount(tx, entry.parcelId), occurredAt: line.created_at };
}
