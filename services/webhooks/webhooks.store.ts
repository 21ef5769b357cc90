import type { KeyMode } from "../../lib/api-keys";
import type { Database, Queryable } from "../../lib/db/database";
import type { ParcelEvent } from "../../lib/events";
import { isoOrNull } from "../../lib/db/rows";

/** All SQL of the webhooks service (schema `webhooks`, migrations/webhooks/). */

export type DeliveryStatus = "pending" | "delivered" | "failed" | "skipped";
export const DELIVERY_STATUSES: readonly DeliveryStatus[] = ["pending", "delivered", "failed", "skipped"];

export interface Endpoint {
  organizationId: string;
  url: string;
  secretEnc: string;
  disabledAt: string | null;
  disabledReason: string | null;
}

interface EndpointRow {
  organization_id: string;
  url: string;
  secret_enc: string;
  disabled_at: Date | null;
  disabled_reason: string | null;
}

function toEndpoint(row: EndpointRow): Endpoint {
  return {
    organizationId: row.organization_id,
    url: row.url,
    secretEnc: row.secret_enc,
    disabledAt: isoOrNull(row.disabled_at),
    disabledReason: row.disabled_reason
  };
}

export interface Delivery {
  id: string;
  eventId: string;
  organizationId: string;
  mode: KeyMode;
  parcelId: string;
  eventType: string;
  payload: ParcelEvent;
  status: DeliveryStatus;
  attempts: number;
  /** Attempts made before the current round (a redelivery starts a new round). */
  roundStart: number;
  nextAttemptAt: string | null;
  leaseToken: string | null;
  lastStatusCode: number | null;
  lastError: string | null;
  deliveredAt: string | null;
  createdAt: string;
}

interface DeliveryRow {
  id: string;
  event_id: string;
  organization_id: string;
  mode: KeyMode;
  parcel_id: string;
  event_type: string;
  payload: ParcelEvent | string;
  status: DeliveryStatus;
  attempts: number;
  round_start: number;
  next_attempt_at: Date | null;
  lease_token: string | null;
  last_status_code: number | null;
  last_error: string | null;
  delivered_at: Date | null;
  created_at: Date;
}

function toDelivery(row: DeliveryRow): Delivery {
  return {
    id: row.id,
    eventId: row.event_id,
    organizationId: row.organization_id,
    mode: row.mode,
    parcelId: row.parcel_id,
    eventType: row.event_type,
    payload: typeof row.payload === "string" ? (JSON.parse(row.payload) as ParcelEvent) : row.payload,
    status: row.status,
    attempts: Number(row.attempts),
    roundStart: Number(row.round_start),
    nextAttemptAt: isoOrNull(row.next_attempt_at),
    leaseToken: row.lease_token,
    lastStatusCode: row.last_status_code === null ? null : Number(row.last_status_code),
    lastError: row.last_error,
    deliveredAt: isoOrNull(row.delivered_at),
    createdAt: row.created_at.toISOString()
  };
}

// Every column but the payload's duplicates; `*` would also bring `seq` (a bigint, text in pg).
const DELIVERY_COLUMNS = `id, event_id, organization_id, mode, parcel_id, event_type, payload, status, attempts, round_start,
  next_attempt_at, lease_token, last_status_code, last_error, delivered_at, created_at`;

// ---------------------------------------------------------------------------------------------
// Endpoints

export async function findEndpoint(db: Queryable, organizationId: string): Promise<Endpoint | null> {
  const [row] = await db.query<EndpointRow>(
    "SELECT organization_id, url, secret_enc, disabled_at, disabled_reason FROM webhooks.endpoints WHERE organization_id = $1",
    [organizationId]
  );
  return row ? toEndpoint(row) : null;
}

export async function findEndpoints(db: Queryable, organizationIds: string[]): Promise<Map<string, Endpoint>> {
  if (organizationIds.length === 0) return new Map();
  const rows = await db.query<EndpointRow>(
    `SELECT organization_id, url, secret_enc, disabled_at, disabled_reason FROM webhooks.endpoints
      WHERE organization_id = ANY($1::uuid[])`,
    [organizationIds]
  );
  return new Map(rows.map(row => [row.organization_id, toEndpoint(row)]));
}

/** Creates or replaces the endpoint; setting it again is also how a disabled endpoint is re-enabled. */
export async function upsertEndpoint(db: Queryable, endpoint: { organizationId: string; url: string; secretEnc: string }): Promise<void> {
  await db.query(
    `INSERT INTO webhooks.endpoints (organization_id, url, secret_enc) VALUES ($1, $2, $3)
     ON CONFLICT (organization_id) DO UPDATE
       SET url = EXCLUDED.url, secret_enc = EXCLUDED.secret_enc, disabled_at = NULL, disabled_reason = NULL, updated_at = now()`,
    [endpoint.organizationId, endpoint.url, endpoint.secretEnc]
  );
}

export async function disableEndpoint(db: Queryable, organizationId: string, reason: string): Promise<void> {
  await db.query(
    `UPDATE webhooks.endpoints SET disabled_at = now(), disabled_reason = $2, updated_at = now()
      WHERE organization_id = $1 AND disabled_at IS NULL`,
    [organizationId, reason]
  );
}

// ---------------------------------------------------------------------------------------------
// Deliveries

/**
 * One delivery per event: a second insert of the same event changes nothing and answers the
 * first delivery. `skipReason` null means "pending, due now"; otherwise the delivery is stored
 * as skipped with that reason (no active endpoint when the event arrived).
 */
export async function insertDelivery(
  db: Queryable,
  delivery: { id: string; event: ParcelEvent; skipReason: string | null }
): Promise<{ id: string; status: DeliveryStatus; created: boolean }> {
  const { event } = delivery;
  const pending = delivery.skipReason === null;
  const [inserted] = await db.query<{ id: string; status: DeliveryStatus }>(
    `INSERT INTO webhooks.deliveries
       (id, event_id, organization_id, mode, parcel_id, event_type, payload, status, next_attempt_at, last_error)
     VALUES ($1, $2, $3, $4, $5, $6, $7::json, $8, CASE WHEN $9::boolean THEN now() END, $10)
     ON CONFLICT (event_id) DO NOTHING
     RETURNING id, status`,
    [
      delivery.id,
      event.id,
      event.organizationId,
      event.mode,
      event.data.parcel.id,
      event.type,
      JSON.stringify(event),
      pending ? "pending" : "skipped",
      pending,
      delivery.skipReason
    ]
  );
  if (inserted) return { ...inserted, created: true };
  const [existing] = await db.query<{ id: string; status: DeliveryStatus }>(
    "SELECT id, status FROM webhooks.deliveries WHERE event_id = $1",
    [event.id]
  );
  return { ...existing, created: false };
}

/**
 * Claims up to `limit` due deliveries for one worker and commits at once, so that no transaction
 * stays open during HTTP calls:
 * - `FOR UPDATE SKIP LOCKED`: workers claiming at the same moment take disjoint rows;
 * - the claim moves `next_attempt_at` forward by `leaseMs` (and sets a fresh `lease_token`), so a
 *   delivery being sent is not due for anyone else, and the deliveries of a worker that crashed
 *   mid-send become due again once the lease runs out;
 * - per-parcel order: only the oldest pending delivery of a parcel (by enqueue order) can be
 *   claimed, so a parcel's events go out one at a time and in order, never two in one batch; a
 *   later event of a parcel waits while an earlier one is being retried (until it is delivered,
 *   failed or skipped).
 */
export async function claimDue(db: Database, options: { limit: number; leaseMs: number }): Promise<Delivery[]> {
  return db.transaction(async tx => {
    const due = await tx.query<{ id: string }>(
      `SELECT d.id FROM webhooks.deliveries d
        WHERE d.status = 'pending' AND d.next_attempt_at <= now()
          AND NOT EXISTS (
            SELECT 1 FROM webhooks.deliveries o
             WHERE o.parcel_id = d.parcel_id AND o.status = 'pending' AND o.seq < d.seq)
        ORDER BY d.next_attempt_at, d.seq
        LIMIT $1
        FOR UPDATE OF d SKIP LOCKED`,
      [options.limit]
    );
    if (due.length === 0) return [];
    const rows = await tx.query<DeliveryRow>(
      `UPDATE webhooks.deliveries
          SET next_attempt_at = now() + $2::integer * interval '1 millisecond',
              lease_token = gen_random_uuid(), updated_at = now()
        WHERE id = ANY($1::uuid[])
        RETURNING ${DELIVERY_COLUMNS}`,
      [due.map(d => d.id), options.leaseMs]
    );
    return rows.map(toDelivery);
  });
}

export type AttemptOutcome = { status: "delivered" } | { status: "failed" } | { status: "pending"; delayMs: number };

export interface AttemptRecord {
  startedAt: Date;
  durationMs: number;
  statusCode: number | null;
  error: string | null;
  worker: string;
}

/**
 * Records one attempt and the delivery's new state, only if the caller still holds the lease it
 * claimed (it may not, if it overran the lease and another worker took the delivery over; the
 * answer is then dropped). Returns the attempt number, or null when the lease was lost.
 */
export async function recordAttempt(
  db: Database,
  claim: { id: string; leaseToken: string },
  attempt: AttemptRecord,
  outcome: AttemptOutcome
): Promise<number | null> {
  return db.transaction(async tx => {
    const [row] = await tx.query<{ attempts: number }>(
      `UPDATE webhooks.deliveries
          SET attempts = attempts + 1,
              status = $3,
              next_attempt_at = CASE WHEN $3 = 'pending' THEN now() + $4::integer * interval '1 millisecond' END,
              lease_token = NULL,
              last_status_code = $5,
              last_error = $6,
              delivered_at = CASE WHEN $3 = 'delivered' THEN now() ELSE delivered_at END,
              updated_at = now()
        WHERE id = $1 AND lease_token = $2 AND status = 'pending'
        RETURNING attempts`,
      [
        claim.id,
        claim.leaseToken,
        outcome.status,
        outcome.status === "pending" ? Math.max(0, Math.round(outcome.delayMs)) : 0,
        attempt.statusCode,
        attempt.error
      ]
    );
    if (!row) return null;
    const attemptNo = Number(row.attempts);
    await tx.query(
      `INSERT INTO webhooks.attempts (delivery_id, attempt_no, started_at, duration_ms, status_code, error, worker)
       VALUES ($1, $2, $3, $4, $5, $6, $7)`,
      [
        claim.id,
        attemptNo,
        attempt.startedAt,
        Math.max(0, Math.round(attempt.durationMs)),
        attempt.statusCode,
        attempt.error,
        attempt.worker
      ]
    );
    return attemptNo;
  });
}

/** A claimed delivery that cannot be sent (no active endpoint any more): skipped, not attempted. */
export async function markSkipped(db: Queryable, claim: { id: string; leaseToken: string }, reason: string): Promise<boolean> {
  const rows = await db.query(
    `UPDATE webhooks.deliveries
        SET status = 'skipped', next_attempt_at = NULL, lease_token = NULL, last_error = $3, updated_at = now()
      WHERE id = $1 AND lease_token = $2 AND status = 'pending'
      RETURNING id`,
    [claim.id, claim.leaseToken, reason]
  );
  return rows.length > 0;
}

/**
 * Back to pending, due now, same id, with a new round of the retry schedule. A delivery that a
 * worker is sending right now (pending under a live lease) is left alone: it is already being
 * sent, and making it due again would let a second worker send it at the same time.
 * Returns false when the delivery does not exist.
 */
export async function redeliver(db: Queryable, id: string): Promise<boolean> {
  const updated = await db.query(
    `UPDATE webhooks.deliveries
        SET status = 'pending', next_attempt_at = now(), round_start = attempts, lease_token = NULL,
            delivered_at = NULL, updated_at = now()
      WHERE id = $1 AND (status <> 'pending' OR lease_token IS NULL OR next_attempt_at <= now())
      RETURNING id`,
    [id]
  );
  if (updated.length > 0) return true;
  const existing = await db.query("SELECT 1 FROM webhooks.deliveries WHERE id = $1", [id]);
  return existing.length > 0;
}

export interface AttemptLogEntry {
  attempt: number;
  at: string;
  statusCode: number | null;
  error: string | null;
  durationMs: number;
}

/** A page of an organisation's deliveries, newest first, each with its attempt log (oldest first). */
export async function listDeliveries(
  db: Queryable,
  query: { organizationId: string; status: DeliveryStatus | null; page: number; size: number }
): Promise<{ items: (Delivery & { attemptLog: AttemptLogEntry[] })[]; totalElements: number }> {
  const [{ total }] = await db.query<{ total: number }>(
    `SELECT count(*)::integer AS total FROM webhooks.deliveries
      WHERE organization_id = $1 AND ($2::text IS NULL OR status = $2)`,
    [query.organizationId, query.status]
  );
  const rows = await db.query<DeliveryRow>(
    `SELECT ${DELIVERY_COLUMNS} FROM webhooks.deliveries
      WHERE organization_id = $1 AND ($2::text IS NULL OR status = $2)
      ORDER BY created_at DESC, seq DESC
      LIMIT $3 OFFSET $4`,
    [query.organizationId, query.status, query.size, query.page * query.size]
  );
  const deliveries = rows.map(toDelivery);
  const log = new Map<string, AttemptLogEntry[]>(deliveries.map(d => [d.id, []]));
  if (deliveries.length > 0) {
    const attempts = await db.query<{
      delivery_id: string;
      attempt_no: number;
      started_at: Date;
      duration_ms: number;
      status_code: number | null;
      error: string | null;
    }>(
      `SELECT delivery_id, attempt_no, started_at, duration_ms, status_code, error FROM webhooks.attempts
        WHERE delivery_id = ANY($1::uuid[]) ORDER BY delivery_id, attempt_no`,
      [deliveries.map(d => d.id)]
    );
    for (const a of attempts) {
      log.get(a.delivery_id)?.push({
        attempt: Number(a.attempt_no),
        at: a.started_at.toISOString(),
        statusCode: a.status_code === null ? null : Number(a.status_code),
        error: a.error,
        durationMs: Number(a.duration_ms)
      });
    }
  }
  return {
    items: deliveries.map(d => ({ ...d, attemptLog: log.get(d.id) ?? [] })),
    totalElements: Number(total)
  };
}
