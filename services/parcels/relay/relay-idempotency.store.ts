import type { Queryable } from "../../../lib/db/database";

/** The SQL of the relay API's kept answers (migration parcels/018). */

export type KeptAnswer = { ok: true; body: unknown } | { ok: false; code: string; message: string; details?: unknown };

export interface KeptRequest {
  fingerprint: string;
  answer: KeptAnswer | null;
  claimedAt: Date;
  stale: boolean;
}

interface Scope {
  relayCode: string;
  key: string;
}

/** Releases this key if its 24 hours are over, then claims it; false when someone holds it. */
export async function claim(
  db: Queryable,
  scope: Scope,
  request: { operation: string; fingerprint: string; hours: number }
): Promise<boolean> {
  await db.query(
    "DELETE FROM parcels.relay_idempotency WHERE relay_code = $1 AND idempotency_key = $2 AND created_at < now() - make_interval(hours => $3::int)",
    [scope.relayCode, scope.key, request.hours]
  );
  const rows = await db.query(
    `INSERT INTO parcels.relay_idempotency (relay_code, idempotency_key, operation, request_fingerprint)
     VALUES ($1, $2, $3, $4) ON CONFLICT DO NOTHING RETURNING 1`,
    [scope.relayCode, scope.key, request.operation, request.fingerprint]
  );
  return rows.length > 0;
}

export async function read(db: Queryable, scope: Scope, staleSeconds: number): Promise<KeptRequest | null> {
  const [row] = await db.query<{ request_fingerprint: string; answer: KeptAnswer | null; claimed_at: Date; stale: boolean }>(
    `SELECT request_fingerprint, answer, claimed_at, claimed_at < now() - make_interval(secs => $3::int) AS stale
       FROM parcels.relay_idempotency WHERE relay_code = $1 AND idempotency_key = $2`,
    [scope.relayCode, scope.key, staleSeconds]
  );
  return row ? { fingerprint: row.request_fingerprint, answer: row.answer, claimedAt: row.claimed_at, stale: row.stale } : null;
}

/** Takes over an abandoned claim (its process died mid-request); false when another did first. */
export async function takeOver(db: Queryable, scope: Scope, claimedAt: Date): Promise<boolean> {
  const rows = await db.query(
    `UPDATE parcels.relay_idempotency SET claimed_at = now()
      WHERE relay_code = $1 AND idempotency_key = $2 AND answer IS NULL AND claimed_at = $3 RETURNING 1`,
    [scope.relayCode, scope.key, claimedAt]
  );
  return rows.length > 0;
}

export async function keep(db: Queryable, scope: Scope, answer: KeptAnswer): Promise<void> {
  await db.query("UPDATE parcels.relay_idempotency SET answer = $3 WHERE relay_code = $1 AND idempotency_key = $2", [
    scope.relayCode,
    scope.key,
    JSON.stringify(answer)
  ]);
}

/** A request that failed for a reason worth trying again (a 5xx, a conflict): the key is free again. */
export async function release(db: Queryable, scope: Scope): Promise<void> {
  await db.query("DELETE FROM parcels.relay_idempotency WHERE relay_code = $1 AND idempotency_key = $2 AND answer IS NULL", [
    scope.relayCode,
    scope.key
  ]);
}

/**
 * Issue 48, bounded tables: the keys whose 24 hours are over, oldest first from the age index, in
 * batches. A key is otherwise released only when its relay point sends it again, so the table
 * would hold every operation ever made; the retention pass (lib/retention.ts) calls this.
 */
export async function pruneExpiredKeys(db: Queryable, hours: number, batch: number): Promise<number> {
  const rows = await db.query(
    `DELETE FROM parcels.relay_idempotency WHERE (relay_code, idempotency_key) IN (
       SELECT relay_code, idempotency_key FROM parcels.relay_idempotency
        WHERE created_at < now() - make_interval(hours => $1::int) ORDER BY created_at LIMIT $2 FOR UPDATE SKIP LOCKED)
     RETURNING relay_code`,
    [hours, batch]
  );
  return rows.length;
}
