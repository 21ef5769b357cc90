import type { KeyMode } from "../../lib/api-keys";
import type { Database, Queryable } from "../../lib/db/database";
import type { ParcelEvent } from "../../lib/events";
import { isoOrNull } from "../../lib/db/rows";
import { named } from "../../lib/db/statement";

/**
 * All SQL of the webhooks service (schema `webhooks`, migrations/webhooks/): endpoints and their
 * secrets, the events feed, deliveries and their attempts, notices.
 */

export type DeliveryStatus = "pending" | "delivered" | "failed" | "skipped";
export const DELIVERY_STATUSES: readonly DeliveryStatus[] = ["pending", "delivered", "failed", "skipped"];

export type EndpointMode = KeyMode | "both";
export const ENDPOINT_MODES: readonly EndpointMode[] = ["live", "sandbox", "both"];

/**
 * A stored event as the code knows it. Events recorded before `occurredAt` and `sequence` existed
 * (moved here by migration 002) get them here: the change time, and 0 (no known place).
 */
function eventOf(payload: ParcelEvent | string): ParcelEvent {
  const event = (typeof payload === "string" ? JSON.parse(payload) : payload) as ParcelEvent;
  return { ...event, occurredAt: event.occurredAt ?? event.createdAt, sequence: event.sequence ?? 0 };
}

// ---------------------------------------------------------------------------------------------
// Endpoints and their secrets

export interface Endpoint {
  id: string;
  organizationId: string;
  url: string;
  description: string | null;
  mode: EndpointMode;
  /** null: every event type. */
  eventTypes: string[] | null;
  isDefault: boolean;
  disabledAt: string | null;
  disabledReason: string | null;
  /** First failed attempt since the last success (null when the last attempt succeeded). */
  firstFailureAt: string | null;
  lastSuccessAt: string | null;
  createdAt: string;
  updatedAt: string;
}

interface EndpointRow {
  id: string;
  organization_id: string;
  url: string;
  description: string | null;
  mode: EndpointMode;
  event_types: string[] | null;
  is_default: boolean;
  disabled_at: Date | null;
  disabled_reason: string | null;
  first_failure_at: Date | null;
  last_success_at: Date | null;
  created_at: Date;
  updated_at: Date;
}

const ENDPOINT_COLUMNS = `id, organization_id, url, description, mode, event_types, is_default, disabled_at, disabled_reason,
  first_failure_at, last_success_at, created_at, updated_at`;

function toEndpoint(row: EndpointRow): Endpoint {
  return {
    id: row.id,
    organizationId: row.organization_id,
    url: row.url,
    description: row.description,
    mode: row.mode,
    eventTypes: row.event_types,
    isDefault: row.is_default,
    disabledAt: isoOrNull(row.disabled_at),
    disabledReason: row.disabled_reason,
    firstFailureAt: isoOrNull(row.first_failure_at),
    lastSuccessAt: isoOrNull(row.last_success_at),
    createdAt: row.created_at.toISOString(),
    updatedAt: row.updated_at.toISOString()
  };
}

export interface StoredSecret {
  endpointId: string;
  secretEnc: string;
  createdAt: Date;
  /** null while it is the current secret. */
  expiresAt: Date | null;
}

export async function listEndpoints(db: Queryable, organizationId: string): Promise<Endpoint[]> {
  const rows = await db.query<EndpointRow>(
    `SELECT ${ENDPOINT_COLUMNS} FROM webhooks.endpoints WHERE organization_id = $1 ORDER BY created_at, id`,
    [organizationId]
  );
  return rows.map(toEndpoint);
}

export async function countEndpoints(db: Queryable, organizationId: string): Promise<number> {
  const [{ n }] = await db.query<{ n: number }>("SELECT count(*)::integer AS n FROM webhooks.endpoints WHERE organization_id = $1", [
    organizationId
  ]);
  return Number(n);
}

/** One endpoint of one organisation (another organisation's is not found); `forUpdate` locks it for the transaction. */
export async function findEndpoint(
  db: Queryable,
  organizationId: string,
  id: string,
  options: { forUpdate?: boolean } = {}
): Promise<Endpoint | null> {
  const [row] = await db.query<EndpointRow>(
    `SELECT ${ENDPOINT_COLUMNS} FROM webhooks.endpoints WHERE id = $1 AND organization_id = $2${options.forUpdate ? " FOR UPDATE" : ""}`,
    [id, organizationId]
  );
  return row ? toEndpoint(row) : null;
}

export async function findEndpointsByIds(db: Queryable, ids: string[]): Promise<Map<string, Endpoint>> {
  if (ids.length === 0) return new Map();
  const rows = await db.query<EndpointRow>(`SELECT ${ENDPOINT_COLUMNS} FROM webhooks.endpoints WHERE id = ANY($1::uuid[])`, [ids]);
  return new Map(rows.map(row => [row.id, toEndpoint(row)]));
}

/** The secrets of each endpoint, newest first; expired ones included (the caller judges validity by its clock). */
export async function secretsOf(db: Queryable, endpointIds: string[]): Promise<Map<string, StoredSecret[]>> {
  const out = new Map<string, StoredSecret[]>(endpointIds.map(id => [id, []]));
  if (endpointIds.length === 0) return out;
  const rows = await db.query<{ endpoint_id: string; secret_enc: string; created_at: Date; expires_at: Date | null }>(
    `SELECT endpoint_id, secret_enc, created_at, expires_at FROM webhooks.endpoint_secrets
      WHERE endpoint_id = ANY($1::uuid[]) ORDER BY endpoint_id, created_at DESC, id`,
    [endpointIds]
  );
  for (const row of rows) {
    out
      .get(row.endpoint_id)
      ?.push({ endpointId: row.endpoint_id, secretEnc: row.secret_enc, createdAt: row.created_at, expiresAt: row.expires_at });
  }
  return out;
}

/** An endpoint's secrets become exactly `secrets` (rotation computes them; see services/webhooks/signing/rotation.ts). */
export async function replaceSecrets(tx: Queryable, endpointId: string, secrets: Omit<StoredSecret, "endpointId">[]): Promise<void> {
  await tx.query("DELETE FROM webhooks.endpoint_secrets WHERE endpoint_id = $1", [endpointId]);
  for (const secret of secrets) {
    await tx.query("INSERT INTO webhooks.endpoint_secrets (endpoint_id, secret_enc, created_at, expires_at) VALUES ($1, $2, $3, $4)", [
      endpointId,
      secret.secretEnc,
      secret.createdAt,
      secret.expiresAt
    ]);
  }
}

export interface EndpointSettings {
  url: string;
  description: string | null;
  mode: EndpointMode;
  eventTypes: string[] | null;
  enabled: boolean;
}

export async function insertEndpoint(
  db: Database,
  endpoint: EndpointSettings & { id: string; organizationId: string; secretEnc: string; now: Date }
): Promise<Endpoint> {
  return db.transaction(async tx => {
    const [row] = await tx.query<EndpointRow>(
      `INSERT INTO webhooks.endpoints (id, organization_id, url, description, mode, event_types, disabled_at, disabled_reason)
       VALUES ($1, $2, $3, $4, $5, $6::text[], CASE WHEN $7::boolean THEN NULL ELSE now() END,
               CASE WHEN $7::boolean THEN NULL ELSE 'disabled by hand' END)
       RETURNING ${ENDPOINT_COLUMNS}`,
      [endpoint.id, endpoint.organizationId, endpoint.url, endpoint.description, endpoint.mode, endpoint.eventTypes, endpoint.enabled]
    );
    await replaceSecrets(tx, endpoint.id, [{ secretEnc: endpoint.secretEnc, createdAt: endpoint.now, expiresAt: null }]);
    return toEndpoint(row);
  });
}

/**
 * The single-URL back-office call: creates or updates the organisation's default endpoint with
 * this URL and this one secret (no overlap: setting a secret replaces it at once), enabled again.
 * Its mode, filter and description are left as they are.
 */
export async function setDefaultEndpoint(
  db: Database,
  endpoint: { id: string; organizationId: string; url: string; secretEnc: string; now: Date }
): Promise<void> {
  await db.transaction(async tx => {
    const [row] = await tx.query<{ id: string }>(
      `INSERT INTO webhooks.endpoints (id, organization_id, url, is_default) VALUES ($1, $2, $3, true)
       ON CONFLICT (organization_id) WHERE is_default DO UPDATE
         SET url = EXCLUDED.url, disabled_at = NULL, disabled_reason = NULL, first_failure_at = NULL, updated_at = now()
       RETURNING id`,
      [endpoint.id, endpoint.organizationId, endpoint.url]
    );
    await replaceSecrets(tx, row.id, [{ secretEnc: endpoint.secretEnc, createdAt: endpoint.now, expiresAt: null }]);
  });
}

/**
 * Writes an endpoint's settings. Enabling a disabled endpoint clears its failing streak (it gets a
 * fresh 5 days); disabling one by hand records why.
 */
export async function updateEndpoint(tx: Queryable, current: Endpoint, next: EndpointSettings): Promise<Endpoint> {
  const [row] = await tx.query<EndpointRow>(
    `UPDATE webhooks.endpoints
        SET url = $2, description = $3, mode = $4, event_types = $5::text[],
            disabled_at = CASE WHEN $6::boolean THEN NULL ELSE COALESCE(disabled_at, now()) END,
            disabled_reason = CASE WHEN $6::boolean THEN NULL ELSE COALESCE(disabled_reason, 'disabled by hand') END,
            first_failure_at = CASE WHEN $6::boolean AND disabled_at IS NOT NULL THEN NULL ELSE first_failure_at END,
            updated_at = now()
      WHERE id = $1
      RETURNING ${ENDPOINT_COLUMNS}`,
    [current.id, next.url, next.description, next.mode, next.eventTypes, next.enabled]
  );
  return toEndpoint(row);
}

export async function deleteEndpoint(db: Queryable, organizationId: string, id: string): Promise<boolean> {
  const rows = await db.query("DELETE FROM webhooks.endpoints WHERE id = $1 AND organization_id = $2 RETURNING id", [id, organizationId]);
  return rows.length > 0;
}

/**
 * The failing streak after one attempt that ended at `at` (services/webhooks/retry-schedule.ts
 * failureStreakAfterAttempt, in SQL so that concurrent workers cannot lose an update).
 */
export async function recordEndpointOutcome(
  db: Queryable,
  endpointId: string,
  succeeded: boolean,
  at: Date
): Promise<{ firstFailureAt: Date | null; lastSuccessAt: Date | null; disabledAt: Date | null } | null> {
  const [row] = await db.query<{ first_failure_at: Date | null; last_success_at: Date | null; disabled_at: Date | null }>(
    succeeded
      ? `UPDATE webhooks.endpoints
            SET last_success_at = GREATEST(last_success_at, $2),
                first_failure_at = CASE WHEN first_failure_at > $2 THEN first_failure_at END
          WHERE id = $1 RETURNING first_failure_at, last_success_at, disabled_at`
      : `UPDATE webhooks.endpoints
            SET first_failure_at = CASE WHEN last_success_at >= $2 THEN first_failure_at ELSE LEAST(first_failure_at, $2) END
          WHERE id = $1 RETURNING first_failure_at, last_success_at, disabled_at`,
    [endpointId, at]
  );
  return row ? { firstFailureAt: row.first_failure_at, lastSuccessAt: row.last_success_at, disabledAt: row.disabled_at } : null;
}

/** Disables an enabled endpoint; true when this call did it (so that one worker, not two, writes the notice). */
export async function disableEndpoint(db: Queryable, endpointId: string, reason: string): Promise<boolean> {
  const rows = await db.query(
    `UPDATE webhooks.endpoints SET disabled_at = now(), disabled_reason = $2, updated_at = now()
      WHERE id = $1 AND disabled_at IS NULL RETURNING id`,
    [endpointId, reason]
  );
  return rows.length > 0;
}

// ---------------------------------------------------------------------------------------------
// The events feed

/** Arbitrary, fixed: the first key of the per-organisation advisory lock that orders the feed. */
export const EVENT_FEED_LOCK = 7_211_012;

export interface StoredEvent {
  /** The event's place in the feed (a bigint, as text). */
  position: string;
  event: ParcelEvent;
}

export interface NewDelivery {
  id: string;
  endpointId: string;
  status: DeliveryStatus;
}

/** What storing one event did: whether it is new, and its deliveries (made now, or the first time). */
export interface RecordedEvent {
  eventId: string;
  created: boolean;
  deliveries: NewDelivery[];
}

// The organisations' locks first (their one fixed order is the array's), then the events, then
// their deliveries; see recordEvents. Prepared once per connection (lib/db/statement.ts).
const RECORD_EVENTS = named(
  "webhooks_record_events",
  `WITH locked AS MATERIALIZED (
     SELECT count(pg_advisory_xact_lock($2::integer, hashtext(o))) AS n FROM unnest($3::text[]) AS o
   ), incoming AS (
     SELECT x, n FROM json_array_elements($1::json) WITH ORDINALITY AS t(x, n) WHERE (SELECT n FROM locked) >= 0
   ), stored AS (
     INSERT INTO webhooks.events (id, organization_id, mode, parcel_id, type, payload)
     SELECT (x->>'id')::uuid, (x->>'organizationId')::uuid, x->>'mode', coalesce(x->'data'->'parcel'->>'id', x->'data'->'closure'->>'id', x->'data'->'pickup'->>'id')::uuid, x->>'type', x
       FROM incoming ORDER BY n
     ON CONFLICT (id) DO NOTHING
     RETURNING id, seq, organization_id, mode, parcel_id, type
   ), made AS (
     INSERT INTO webhooks.deliveries
       (id, event_id, event_seq, endpoint_id, organization_id, mode, parcel_id, event_type, status, next_attempt_at, last_error)
     SELECT gen_random_uuid(), s.id, s.seq, e.id, e.organization_id, s.mode, s.parcel_id, s.type,
            CASE WHEN e.disabled_at IS NULL THEN 'pending' ELSE 'skipped' END,
            CASE WHEN e.disabled_at IS NULL THEN now() END,
            CASE WHEN e.disabled_at IS NULL THEN NULL
                 ELSE 'webhook endpoint disabled' || COALESCE(': ' || e.disabled_reason, '') END
       FROM stored s
       JOIN webhooks.endpoints e
         ON e.organization_id = s.organization_id AND (e.mode = 'both' OR e.mode = s.mode)
        AND (e.event_types IS NULL OR s.type = ANY (e.event_types))
      ORDER BY s.seq, e.created_at, e.id
     RETURNING id, event_id, endpoint_id, status, seq
   )
   SELECT s.id::text AS event_id, m.id, m.endpoint_id, m.status
     FROM stored s LEFT JOIN made m ON m.event_id = s.id
    ORDER BY s.seq, m.seq`
);

/**
 * Stores a batch of events and, in the same statement, one delivery for each endpoint of the
 * event's organisation that takes it (mode and event type): pending, or skipped when the endpoint
 * is disabled (kept for a replay). One statement whatever the batch's size, and no transaction
 * around it (one round trip: the statement is its own transaction); an organisation without an
 * endpoint costs only its events' rows (the events API and replays read them). The events take
 * their feed positions in the batch's order, so a parcel's events keep the order the outbox gave
 * them. Idempotent per event id: an event stored before (a redelivered batch) adds nothing, even
 * for an endpoint created in between, and answers the deliveries made the first time.
 *
 * The organisations' locks, taken in one fixed order by the statement's first step, make each
 * organisation's events commit in feed order: no row is read from `incoming`, so no `seq` is drawn,
 * until every lock is held (the locks are the one-time filter of `incoming`, an init plan run before
 * its first row), and they are held until the statement's commit.
 */
export async function recordEvents(db: Queryable, events: ParcelEvent[]): Promise<RecordedEvent[]> {
  if (events.length === 0) return [];
  const organizations = [...new Set(events.map(e => e.organizationId))].sort();
  // json keeps each element's text: the stored payload is the event exactly as parcels wrote it.
  const fresh = await db.query<{ event_id: string; id: string | null; endpoint_id: string | null; status: DeliveryStatus | null }>(
    RECORD_EVENTS,
    [JSON.stringify(events), EVENT_FEED_LOCK, organizations]
  );
  const made = new Map<string, NewDelivery[]>();
  for (const row of fresh) {
    const list = made.get(row.event_id) ?? [];
    if (row.id && row.endpoint_id && row.status) list.push({ id: row.id, endpointId: row.endpoint_id, status: row.status });
    made.set(row.event_id, list);
  }
  const before = events.map(e => e.id).filter(id => !made.has(id));
  const earlier = new Map<string, NewDelivery[]>();
  if (before.length > 0) {
    const rows = await db.query<{ id: string; event_id: string; endpoint_id: string; status: DeliveryStatus }>(
      "SELECT id, event_id, endpoint_id, status FROM webhooks.deliveries WHERE event_id = ANY($1::uuid[]) ORDER BY seq",
      [before]
    );
    for (const row of rows) {
      earlier.set(row.event_id, [...(earlier.get(row.event_id) ?? []), { id: row.id, endpointId: row.endpoint_id, status: row.status }]);
    }
  }
  const answered = new Set<string>();
  return events.map(event => {
    // The same event twice in one batch: stored once, the second answered as already stored.
    const created = made.has(event.id) && !answered.has(event.id);
    answered.add(event.id);
    return { eventId: event.id, created, deliveries: made.get(event.id) ?? earlier.get(event.id) ?? [] };
  });
}

/** One event (see recordEvents). */
export async function recordEvent(db: Database, event: ParcelEvent): Promise<{ created: boolean; deliveries: NewDelivery[] }> {
  const [recorded] = await recordEvents(db, [event]);
  return { created: recorded.created, deliveries: recorded.deliveries };
}

export interface FeedQuery {
  organizationId: string;
  mode: KeyMode;
  /** Position to resume after; null from the start of the retention window. */
  after: string | null;
  type: string | null;
  parcelId: string | null;
  limit: number;
  retentionDays: number;
}

/** The organisation's events of one mode, oldest first, within the retention window. */
export async function listEvents(db: Queryable, query: FeedQuery): Promise<StoredEvent[]> {
  // The position as text (a bigint), under another name: ORDER BY seq must sort the numbers.
  const rows = await db.query<{ position: string; payload: ParcelEvent | string }>(
    `SELECT seq::text AS position, payload FROM webhooks.events
      WHERE organization_id = $1 AND mode = $2 AND seq > COALESCE($3::bigint, 0)
        AND created_at >= now() - $7::integer * interval '1 day'
        AND ($4::text IS NULL OR type = $4) AND ($5::uuid IS NULL OR parcel_id = $5)
      ORDER BY seq
      LIMIT $6`,
    [query.organizationId, query.mode, query.after, query.type, query.parcelId, query.limit, query.retentionDays]
  );
  return rows.map(row => ({ position: row.position, event: eventOf(row.payload) }));
}

export async function findEvent(
  db: Queryable,
  query: { organizationId: string; mode: KeyMode; id: string; retentionDays: number }
): Promise<ParcelEvent | null> {
  const [row] = await db.query<{ payload: ParcelEvent | string }>(
    `SELECT payload FROM webhooks.events
      WHERE id = $1 AND organization_id = $2 AND mode = $3 AND created_at >= now() - $4::integer * interval '1 day'`,
    [query.id, query.organizationId, query.mode, query.retentionDays]
  );
  return row ? eventOf(row.payload) : null;
}

/**
 * Drops events past the retention window, with their deliveries and attempt logs, a bounded batch
 * at a time; an event with a delivery still pending stays until it is settled. Answers how many went.
 */
export async function purgeEvents(db: Queryable, retentionDays: number, batch = 1000): Promise<number> {
  const rows = await db.query(
    `DELETE FROM webhooks.events WHERE id IN (
       SELECT ev.id FROM webhooks.events ev
        WHERE ev.created_at < now() - $1::integer * interval '1 day'
          AND NOT EXISTS (SELECT 1 FROM webhooks.deliveries d WHERE d.event_id = ev.id AND d.status = 'pending')
        ORDER BY ev.created_at
        LIMIT $2)
     RETURNING id`,
    [retentionDays, batch]
  );
  return rows.length;
}

// ---------------------------------------------------------------------------------------------
// Deliveries

export interface Delivery {
  id: string;
  eventId: string;
  endpointId: string;
  organizationId: string;
  mode: KeyMode;
  parcelId: string;
  eventType: string;
  status: DeliveryStatus;
  attempts: number;
  /** Attempts made before the current round (a redelivery or replay starts a new round). */
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
  endpoint_id: string;
  organization_id: string;
  mode: KeyMode;
  parcel_id: string;
  event_type: string;
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
    endpointId: row.endpoint_id,
    organizationId: row.organization_id,
    mode: row.mode,
    parcelId: row.parcel_id,
    eventType: row.event_type,
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

// Named one by one: `*` would also bring the bigints seq and event_seq (text in pg).
const DELIVERY_COLUMNS = `d.id, d.event_id, d.endpoint_id, d.organization_id, d.mode, d.parcel_id, d.event_type, d.status, d.attempts,
  d.round_start, d.next_attempt_at, d.lease_token, d.last_status_code, d.last_error, d.delivered_at, d.created_at`;

/** A claimed delivery, with the event it carries. */
export type ClaimedDelivery = Delivery & { event: ParcelEvent };

/**
 * Claims up to `limit` due deliveries for one worker and commits at once, so that no transaction
 * stays open during HTTP calls:
 * - `FOR UPDATE SKIP LOCKED`: workers claiming at the same moment take disjoint rows;
 * - the claim moves `next_attempt_at` forward by `leaseMs` (and sets a fresh `lease_token`), so a
 *   delivery being sent is not due for anyone else, and the deliveries of a worker that crashed
 *   mid-send become due again once the lease runs out;
 * - per endpoint and parcel, in the order of the events: only the endpoint's oldest pending
 *   delivery of a parcel can be claimed, so a parcel's events reach an endpoint one at a time and
 *   in order; a later one waits while an earlier one is retried (until it is delivered, failed
 *   or skipped). Another endpoint's outage holds nothing back.
 */
export async function claimDue(db: Queryable, options: { limit: number; leaseMs: number }): Promise<ClaimedDelivery[]> {
  // One statement (its own transaction): the rows it locks are skipped by a concurrent claim, and
  // it updates only the rows it locked.
  const rows = await db.query<DeliveryRow & { payload: ParcelEvent | string }>(
    `WITH due AS (
       SELECT d.id FROM webhooks.deliveries d
        WHERE d.status = 'pending' AND d.next_attempt_at <= now()
          AND NOT EXISTS (
            SELECT 1 FROM webhooks.deliveries o
             WHERE o.endpoint_id = d.endpoint_id AND o.parcel_id = d.parcel_id AND o.status = 'pending' AND o.event_seq < d.event_seq)
        ORDER BY d.next_attempt_at, d.seq
        LIMIT $1
        FOR UPDATE OF d SKIP LOCKED
     )
     UPDATE webhooks.deliveries d
        SET next_attempt_at = now() + $2::integer * interval '1 millisecond',
            lease_token = gen_random_uuid(), updated_at = now()
       FROM due, webhooks.events ev
      WHERE d.id = due.id AND ev.id = d.event_id
      RETURNING ${DELIVERY_COLUMNS}, ev.payload`,
    [options.limit, options.leaseMs]
  );
  return rows.map(row => ({ ...toDelivery(row), event: eventOf(row.payload) }));
}

export type AttemptOutcome = { status: "delivered" } | { status: "failed" } | { status: "pending"; delayMs: number };

export interface AttemptRecord {
  startedAt: Date;
  durationMs: number;
  statusCode: number | null;
  error: string | null;
  worker: string;
}

/** One attempt of a claimed delivery, and the state it leaves the delivery in. */
export interface AttemptReport {
  claim: { id: string; leaseToken: string };
  attempt: AttemptRecord;
  outcome: AttemptOutcome;
}

/**
 * Records a batch of attempts and each delivery's new state in one statement. Each is recorded
 * only if its worker still holds the lease it claimed (it may not, if it overran the lease and
 * another worker took the delivery over; that answer is then dropped). Answers, per delivery id,
 * the attempt number, or null when the lease was lost.
 */
export async function recordAttempts(db: Queryable, reports: AttemptReport[]): Promise<Map<string, number | null>> {
  const numbers = new Map<string, number | null>(reports.map(r => [r.claim.id, null]));
  if (reports.length === 0) return numbers;
  const rows = await db.query<{ delivery_id: string; attempt_no: number }>(
    `WITH report AS (
       SELECT * FROM json_to_recordset($1::json) AS r(
         id uuid, lease_token uuid, status text, delay_ms integer, status_code integer, error text,
         started_at timestamptz, duration_ms integer, worker text)
     ), recorded AS (
       UPDATE webhooks.deliveries d
          SET attempts = d.attempts + 1,
              status = r.status,
              next_attempt_at = CASE WHEN r.status = 'pending' THEN now() + r.delay_ms * interval '1 millisecond' END,
              lease_token = NULL,
              last_status_code = r.status_code,
              last_error = r.error,
              delivered_at = CASE WHEN r.status = 'delivered' THEN now() ELSE d.delivered_at END,
              updated_at = now()
         FROM report r
        WHERE d.id = r.id AND d.lease_token = r.lease_token AND d.status = 'pending'
        RETURNING d.id, d.attempts
     )
     INSERT INTO webhooks.attempts (delivery_id, attempt_no, started_at, duration_ms, status_code, error, worker)
     SELECT c.id, c.attempts, r.started_at, r.duration_ms, r.status_code, r.error, r.worker
       FROM recorded c JOIN report r ON r.id = c.id
     RETURNING delivery_id, attempt_no`,
    [
      JSON.stringify(
        reports.map(({ claim, attempt, outcome }) => ({
          id: claim.id,
          lease_token: claim.leaseToken,
          status: outcome.status,
          delay_ms: outcome.status === "pending" ? Math.max(0, Math.round(outcome.delayMs)) : 0,
          status_code: attempt.statusCode,
          error: attempt.error,
          started_at: attempt.startedAt.toISOString(),
          duration_ms: Math.max(0, Math.round(attempt.durationMs)),
          worker: attempt.worker
        }))
      )
    ]
  );
  for (const row of rows) numbers.set(row.delivery_id, Number(row.attempt_no));
  return numbers;
}

/** One attempt (see recordAttempts): the attempt number, or null when the lease was lost. */
export async function recordAttempt(
  db: Queryable,
  claim: { id: string; leaseToken: string },
  attempt: AttemptRecord,
  outcome: AttemptOutcome
): Promise<number | null> {
  return (await recordAttempts(db, [{ claim, attempt, outcome }])).get(claim.id) ?? null;
}

/** A claimed delivery that cannot be sent (its endpoint is disabled): skipped, not attempted. */
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

// Back to pending, due now, with a new round of the retry schedule; a delivery that a worker is
// sending right now (pending under a live lease) is left alone: making it due again would let a
// second worker send it at the same time.
const RESCHEDULE = `status = 'pending', next_attempt_at = now(), round_start = attempts, lease_token = NULL,
  delivered_at = NULL, updated_at = now()`;
const NOT_IN_FLIGHT = `(d.status <> 'pending' OR d.lease_token IS NULL OR d.next_attempt_at <= now())`;

/** Sends one delivery again, same id. Returns false when the delivery does not exist. */
export async function redeliver(db: Queryable, id: string): Promise<boolean> {
  const updated = await db.query(`UPDATE webhooks.deliveries d SET ${RESCHEDULE} WHERE d.id = $1 AND ${NOT_IN_FLIGHT} RETURNING d.id`, [
    id
  ]);
  if (updated.length > 0) return true;
  const existing = await db.query("SELECT 1 FROM webhooks.deliveries WHERE id = $1", [id]);
  return existing.length > 0;
}

/**
 * Sends an endpoint every event since `since` again, each with its event id and, where the
 * endpoint already had a delivery of it, that delivery's id:
 * - `all`: every stored event the endpoint takes (its mode and event types), delivered or not,
 *   including events from before the endpoint existed;
 * - `failed`: only its deliveries that failed or were skipped (endpoint disabled).
 * Deliveries already pending are left to their schedule. Answers how many deliveries were queued.
 */
export async function replay(db: Database, request: { endpoint: Endpoint; since: Date; only: "all" | "failed" }): Promise<number> {
  const { endpoint, since, only } = request;
  return db.transaction(async tx => {
    const again = await tx.query(
      `UPDATE webhooks.deliveries d SET ${RESCHEDULE}
         FROM webhooks.events ev
        WHERE d.endpoint_id = $1 AND ev.id = d.event_id AND ev.created_at >= $2 AND d.status <> 'pending'
          AND ($3::boolean OR d.status IN ('failed', 'skipped'))
        RETURNING d.id`,
      [endpoint.id, since, only === "all"]
    );
    if (only === "failed") return again.length;
    const fresh = await tx.query(
      `INSERT INTO webhooks.deliveries
         (id, event_id, event_seq, endpoint_id, organization_id, mode, parcel_id, event_type, status, next_attempt_at)
       SELECT gen_random_uuid(), ev.id, ev.seq, $1::uuid, ev.organization_id, ev.mode, ev.parcel_id, ev.type, 'pending', now()
         FROM webhooks.events ev
        WHERE ev.organization_id = $2 AND ev.created_at >= $3
          AND ($4::text = 'both' OR ev.mode = $4::text) AND ($5::text[] IS NULL OR ev.type = ANY ($5::text[]))
          AND NOT EXISTS (SELECT 1 FROM webhooks.deliveries o WHERE o.event_id = ev.id AND o.endpoint_id = $1)
        ORDER BY ev.seq
       ON CONFLICT (event_id, endpoint_id) DO NOTHING
       RETURNING id`,
      [endpoint.id, endpoint.organizationId, since, endpoint.mode, endpoint.eventTypes]
    );
    return again.length + fresh.length;
  });
}

/** Deliveries of an endpoint that have not reached it (failed, skipped, or still being retried). */
export async function countUndelivered(db: Queryable, endpointId: string): Promise<number> {
  const [{ n }] = await db.query<{ n: number }>(
    "SELECT count(*)::integer AS n FROM webhooks.deliveries WHERE endpoint_id = $1 AND status <> 'delivered'",
    [endpointId]
  );
  return Number(n);
}

export interface AttemptLogEntry {
  attempt: number;
  at: string;
  statusCode: number | null;
  error: string | null;
  durationMs: number;
}

export interface DeliveryQuery {
  organizationId: string;
  endpointId: string | null;
  status: DeliveryStatus | null;
  page: number;
  size: number;
}

/** A page of an organisation's deliveries, newest first, each with its attempt log (oldest first). */
export async function listDeliveries(
  db: Queryable,
  query: DeliveryQuery
): Promise<{ items: (Delivery & { attemptLog: AttemptLogEntry[] })[]; totalElements: number }> {
  const filter = `d.organization_id = $1 AND ($2::text IS NULL OR d.status = $2) AND ($3::uuid IS NULL OR d.endpoint_id = $3)`;
  const args = [query.organizationId, query.status, query.endpointId];
  const [{ total }] = await db.query<{ total: number }>(
    `SELECT count(*)::integer AS total FROM webhooks.deliveries d WHERE ${filter}`,
    args
  );
  const rows = await db.query<DeliveryRow>(
    `SELECT ${DELIVERY_COLUMNS} FROM webhooks.deliveries d WHERE ${filter}
      ORDER BY d.created_at DESC, d.seq DESC
      LIMIT $4 OFFSET $5`,
    [...args, query.size, query.page * query.size]
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

// ---------------------------------------------------------------------------------------------
// Notices

export interface Notice {
  id: string;
  organizationId: string;
  endpointId: string | null;
  kind: string;
  language: string;
  subject: string;
  body: string;
  createdAt: string;
}

export async function insertNotice(db: Queryable, notice: Omit<Notice, "createdAt">): Promise<void> {
  await db.query(
    `INSERT INTO webhooks.notices (id, organization_id, endpoint_id, kind, language, subject, body)
     VALUES ($1, $2, $3, $4, $5, $6, $7)`,
    [notice.id, notice.organizationId, notice.endpointId, notice.kind, notice.language, notice.subject, notice.body]
  );
}

/** The organisation's notices, newest first. */
export async function listNotices(db: Queryable, organizationId: string, limit: number): Promise<Notice[]> {
  const rows = await db.query<{
    id: string;
    organization_id: string;
    endpoint_id: string | null;
    kind: string;
    language: string;
    subject: string;
    body: string;
    created_at: Date;
  }>(
    `SELECT id, organization_id, endpoint_id, kind, language, subject, body, created_at FROM webhooks.notices
      WHERE organization_id = $1 ORDER BY created_at DESC, id LIMIT $2`,
    [organizationId, limit]
  );
  return rows.map(row => ({
    id: row.id,
    organizationId: row.organization_id,
    endpointId: row.endpoint_id,
    kind: row.kind,
    language: row.language,
    subject: row.subject,
    body: row.body,
    createdAt: row.created_at.toISOString()
  }));
}
