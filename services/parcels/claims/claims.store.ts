import type { KeyMode } from "../../../lib/api-keys";
import type { ClaimEvidence, ClaimStatus, ClaimType } from "../../../lib/claim-view";
import type { Queryable } from "../../../lib/db/database";
import { eventCount, Owner } from "../parcels.store";

/** The SQL of claims (migration parcels/013): the claims, their events' lines, and what evidence reads. */

export interface ClaimRecord {
  id: string;
  parcelId: string;
  trackingNumber: string;
  organizationId: string;
  mode: KeyMode;
  type: ClaimType;
  status: ClaimStatus;
  description: string;
  amountClaimedCentimes: number;
  maxCompensationCentimes: number;
  evidence: ClaimEvidence;
  compensationCentimes: number | null;
  decisionNote: string | null;
  decidedAt: Date | null;
  creditPending: boolean;
  paidCentimes: number | null;
  createdAt: Date;
}

interface ClaimRow {
  id: string;
  parcel_id: string;
  tracking_number: string;
  organization_id: string;
  mode: KeyMode;
  type: ClaimType;
  status: ClaimStatus;
  description: string;
  amount_claimed_centimes: string | number;
  max_compensation_centimes: string | number;
  evidence: ClaimEvidence | string;
  compensation_centimes: string | number | null;
  decision_note: string | null;
  decided_at: Date | null;
  credit_pending: boolean;
  paid_centimes: string | number | null;
  created_at: Date;
}

const orNull = (value: string | number | null): number | null => (value === null ? null : Number(value));

function toClaim(row: ClaimRow): ClaimRecord {
  return {
    id: row.id,
    parcelId: row.parcel_id,
    trackingNumber: row.tracking_number,
    organizationId: row.organization_id,
    mode: row.mode,
    type: row.type,
    status: row.status,
    description: row.description,
    amountClaimedCentimes: Number(row.amount_claimed_centimes),
    maxCompensationCentimes: Number(row.max_compensation_centimes),
    evidence: typeof row.evidence === "string" ? (JSON.parse(row.evidence) as ClaimEvidence) : row.evidence,
    compensationCentimes: orNull(row.compensation_centimes),
    decisionNote: row.decision_note,
    decidedAt: row.decided_at,
    creditPending: row.credit_pending,
    paidCentimes: orNull(row.paid_centimes),
    createdAt: row.created_at
  };
}

const SELECT = "SELECT c.*, p.tracking_number FROM parcels.claims c JOIN parcels.parcels p ON p.id = c.parcel_id";

export interface NewClaim {
  id: string;
  parcelId: string;
  owner: Owner;
  type: ClaimType;
  description: string;
  amountClaimedCentimes: number;
  maxCompensationCentimes: number;
  evidence: ClaimEvidence;
}

const INSERT_CLAIM = `INSERT INTO parcels.claims (id, parcel_id, organization_id, mode, type, status, description, amount_claimed_centimes,
                                 max_compensation_centimes, evidence)
     VALUES ($1, $2, $3, $4, $5, 'OPEN', $6, $7, $8, $9::json)`;

const claimValues = (claim: NewClaim) => [
  claim.id,
  claim.parcelId,
  claim.owner.organizationId,
  claim.owner.mode,
  claim.type,
  claim.description,
  claim.amountClaimedCentimes,
  claim.maxCompensationCentimes,
  JSON.stringify(claim.evidence)
];

export async function insertClaim(tx: Queryable, claim: NewClaim): Promise<ClaimRecord> {
  await tx.query(INSERT_CLAIM, claimValues(claim));
  return (await findClaim(tx, claim.id))!;
}

/** Issue 44 D: the network's own claim, unless one is open for the parcel already (the unique index claims_one_open_per_parcel): null then. */
export async function insertClaimUnlessOpen(tx: Queryable, claim: NewClaim): Promise<ClaimRecord | null> {
  const rows = await tx.query(`${INSERT_CLAIM} ON CONFLICT (parcel_id) WHERE status = 'OPEN' DO NOTHING RETURNING id`, claimValues(claim));
  return rows.length > 0 ? findClaim(tx, claim.id) : null;
}

export async function findClaim(db: Queryable, id: string, owner: Owner | null = null): Promise<ClaimRecord | null> {
  const [row] = await db.query<ClaimRow>(`${SELECT} WHERE c.id = $1 AND ($2::uuid IS NULL OR (c.organization_id = $2 AND c.mode = $3))`, [
    id,
    owner?.organizationId ?? null,
    owner?.mode ?? null
  ]);
  return row ? toClaim(row) : null;
}

/** The claim's row, locked for its decision: two decisions at once are one after the other. */
export async function lockClaim(tx: Queryable, id: string): Promise<ClaimRecord | null> {
  const [row] = await tx.query<{ id: string }>("SELECT id FROM parcels.claims WHERE id = $1 FOR UPDATE", [id]);
  return row ? findClaim(tx, id) : null;
}

/** The parcel's claims that are OPEN or APPROVED (at most one each: migration parcels/013). */
export async function standingClaims(db: Queryable, parcelId: string): Promise<{ open: boolean; approved: boolean }> {
  const rows = await db.query<{ status: ClaimStatus }>(
    "SELECT status FROM parcels.claims WHERE parcel_id = $1 AND status IN ('OPEN', 'APPROVED')",
    [parcelId]
  );
  return { open: rows.some(r => r.status === "OPEN"), approved: rows.some(r => r.status === "APPROVED") };
}

export async function listClaims(
  db: Queryable,
  filter: { owner: Owner | null; status: ClaimStatus | null; page: number; size: number }
): Promise<{ records: ClaimRecord[]; total: number }> {
  const params = [filter.owner?.organizationId ?? null, filter.owner?.mode ?? null, filter.status];
  const where = "($1::uuid IS NULL OR (c.organization_id = $1 AND c.mode = $2)) AND ($3::text IS NULL OR c.status = $3)";
  const [{ n }] = await db.query<{ n: number }>(`SELECT count(*)::integer AS n FROM parcels.claims c WHERE ${where}`, params);
  const rows = await db.query<ClaimRow>(`${SELECT} WHERE ${where} ORDER BY c.created_at DESC, c.id DESC LIMIT $4 OFFSET $5`, [
    ...params,
    filter.size,
    filter.page * filter.size
  ]);
  return { records: rows.map(toClaim), total: Number(n) };
}

export async function decideClaim(
  tx: Queryable,
  id: string,
  decision: { status: "APPROVED" | "REJECTED"; compensationCentimes: number | null; note: string }
): Promise<ClaimRecord> {
  await tx.query(
    `UPDATE parcels.claims SET status = $2, compensation_centimes = $3, decision_note = $4, decided_at = now(),
            credit_pending = ($2 = 'APPROVED')
      WHERE id = $1`,
    [id, decision.status, decision.compensationCentimes, decision.note]
  );
  return (await findClaim(tx, id))!;
}

/** Approved claims whose credit the wallet has not acknowledged yet, oldest decision first. */
export async function creditsPending(db: Queryable, limit: number): Promise<ClaimRecord[]> {
  const rows = await db.query<ClaimRow>(`${SELECT} WHERE c.credit_pending ORDER BY c.decided_at LIMIT $1`, [limit]);
  return rows.map(toClaim);
}

export async function markCredited(db: Queryable, id: string, paidCentimes: number): Promise<void> {
  await db.query("UPDATE parcels.claims SET credit_pending = false, paid_centimes = $2 WHERE id = $1", [id, paidCentimes]);
}

/** A claim event's line (under the parcel's row lock, like every event of the parcel) and its place in the parcel's sequence. */
export async function recordClaimHistory(
  tx: Queryable,
  entry: { claimId: string; parcelId: string; kind: "opened" | "approved" | "rejected" }
): Promise<{ sequence: number; occurredAt: Date }> {
  const [line] = await tx.query<{ created_at: Date }>(
    "INSERT INTO parcels.claim_history (claim_id, parcel_id, kind) VALUES ($1, $2, $3) RETURNING created_at",
    [entry.claimId, entry.parcelId, entry.kind]
  );
  return { sequence: await eventCount(tx, entry.parcelId), occurredAt: line.created_at };
}

/** The cash a relay agent put in the till when handing the parcel over (parcels/007); null when none. */
export async function tillCentimesOf(db: Queryable, parcelId: string): Promise<number | null> {
  const [row] = await db.query<{ amount_centimes: string | number }>(
    "SELECT amount_centimes FROM parcels.relay_cash_items WHERE parcel_id = $1",
    [parcelId]
  );
  return row ? Number(row.amount_centimes) : null;
}
