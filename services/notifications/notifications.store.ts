import { randomUUID } from "node:crypto";
import type { Queryable } from "../../lib/db/database";
import type { SmsKind } from "./holding-sms";
import type { SmsProviderName } from "./sms-providers";
import { isoOrNull } from "../../lib/db/rows";

export type SmsStatus = "pending" | "sent" | "failed" | "undeliverable";

/** A stored message. `phoneEnc` is the sealed number; only the worker opens it, to send. */
export interface SmsMessage {
  id: string;
  eventId: string;
  parcelId: string;
  organizationId: string;
  kind: SmsKind;
  phoneEnc: string;
  /** The text with the pick-up PIN masked: what lists and logs may show. */
  body: string;
  /** The text as sent, sealed (it holds the PIN); null for messages without one. */
  bodyEnc: string | null;
  provider: SmsProviderName;
  status: SmsStatus;
  attempts: number;
  nextAttemptAt: string | null;
  leaseToken: string | null;
  lastError: string | null;
  providerMessageId: string | null;
  sentAt: string | null;
  notifiedAt: string | null;
  notifyAttempts: number;
  createdAt: string;
  updatedAt: string;
}

interface SmsRow {
  id: string;
  event_id: string;
  parcel_id: string;
  organization_id: string;
  kind: SmsKind;
  phone_enc: string;
  body: string;
  body_enc: string | null;
  provider: SmsProviderName;
  status: SmsStatus;
  attempts: number;
  next_attempt_at: Date | null;
  lease_token: string | null;
  last_error: string | null;
  provider_message_id: string | null;
  sent_at: Date | null;
  notified_at: Date | null;
  notify_attempts: number;
  created_at: Date;
  updated_at: Date;
}

function toMessage(row: SmsRow): SmsMessage {
  return {
    id: row.id,
    eventId: row.event_id,
    parcelId: row.parcel_id,
    organizationId: row.organization_id,
    kind: row.kind,
    phoneEnc: row.phone_enc,
    body: row.body,
    bodyEnc: row.body_enc,
    provider: row.provider,
    status: row.status,
    attempts: Number(row.attempts),
    nextAttemptAt: isoOrNull(row.next_attempt_at),
    leaseToken: row.lease_token,
    lastError: row.last_error,
    providerMessageId: row.provider_message_id,
    sentAt: isoOrNull(row.sent_at),
    notifiedAt: isoOrNull(row.notified_at),
    notifyAttempts: Number(row.notify_attempts),
    createdAt: row.created_at.toISOString(),
    updatedAt: row.updated_at.toISOString()
  };
}

export type NewSmsMessage = Pick<
  SmsMessage,
  "eventId" | "parcelId" | "organizationId" | "kind" | "phoneEnc" | "body" | "bodyEnc" | "provider"
> & {
  /** The keyed digest of the number, on the kinds capped per phone (notifications/phone-cap.ts). */
  phoneDigest?: string | null;
  /** Issue 30: the number cannot take an SMS; recorded, never sent (the worker does not claim it). */
  undeliverable?: boolean;
};

/** Idempotent on the event: a second call for one event returns the first message untouched. */
export async function insertMessage(db: Queryable, m: NewSmsMessage): Promise<{ message: SmsMessage; created: boolean }> {
  const [stored] = await insertMessages(db, [m]);
  if (!stored) throw new Error(`sms message of event ${m.eventId} vanished`);
  return stored;
}

/**
 * Stores a batch of messages in one statement, idempotent on the event like insertMessage; answers
 * every event's message, stored now or before.
 */
export async function insertMessages(db: Queryable, messages: NewSmsMessage[]): Promise<{ message: SmsMessage; created: boolean }[]> {
  if (messages.length === 0) return [];
  const rows = await db.query<SmsRow>(
    `INSERT INTO notifications.sms_messages
       (id, event_id, parcel_id, organization_id, kind, phone_enc, phone_digest, body, body_enc, provider, status, next_attempt_at)
     SELECT m.id, m.event_id, m.parcel_id, m.organization_id, m.kind, m.phone_enc, m.phone_digest, m.body, m.body_enc, m.provider,
            CASE WHEN m.undeliverable THEN 'undeliverable' ELSE 'pending' END,
            CASE WHEN m.undeliverable THEN NULL ELSE now() END
       FROM json_to_recordset($1::json) AS m(
         id uuid, event_id uuid, parcel_id uuid, organization_id uuid, kind text, phone_enc text, phone_digest text, body text, body_enc text,
         provider text, undeliverable boolean)
     ON CONFLICT (event_id) DO NOTHING
     RETURNING *`,
    [
      JSON.stringify(
        messages.map(m => ({
          id: randomUUID(),
          event_id: m.eventId,
          parcel_id: m.parcelId,
          organization_id: m.organizationId,
          kind: m.kind,
          phone_enc: m.phoneEnc,
          phone_digest: m.phoneDigest ?? null,
          body: m.body,
          body_enc: m.bodyEnc,
          provider: m.provider,
          undeliverable: m.undeliverable === true
        }))
      )
    ]
  );
  const created = new Map(rows.map(row => [row.event_id, toMessage(row)]));
  const earlier = await findByEventIds(
    db,
    messages.map(m => m.eventId).filter(id => !created.has(id))
  );
  return messages.flatMap((m): { message: SmsMessage; created: boolean }[] => {
    const fresh = created.get(m.eventId);
    if (fresh) return [{ message: fresh, created: true }];
    const existing = earlier.get(m.eventId);
    return existing ? [{ message: existing, created: false }] : [];
  });
}

/** The messages already stored for these events, by event id. */
export async function findByEventIds(db: Queryable, eventIds: string[]): Promise<Map<string, SmsMessage>> {
  if (eventIds.length === 0) return new Map();
  const rows = await db.query<SmsRow>("SELECT * FROM notifications.sms_messages WHERE event_id = ANY($1::uuid[])", [eventIds]);
  return new Map(rows.map(row => [row.event_id, toMessage(row)]));
}

export async function findByEventId(db: Queryable, eventId: string): Promise<SmsMessage | null> {
  const [row] = await db.query<SmsRow>("SELECT * FROM notifications.sms_messages WHERE event_id = $1", [eventId]);
  return row ? toMessage(row) : null;
}

export async function listByParcel(db: Queryable, parcelId: string): Promise<SmsMessage[]> {
  const rows = await db.query<SmsRow>("SELECT * FROM notifications.sms_messages WHERE parcel_id = $1 ORDER BY created_at, id", [parcelId]);
  return rows.map(toMessage);
}

/**
 * Claims up to `limit` due rows for one worker: messages to send and sent messages whose
 * RELAY_NOTIFIED transition is still owed. SKIP LOCKED lets several workers claim at once without
 * waiting on each other; pushing next_attempt_at forward by the lease keeps a claimed row away
 * from every other worker until this one finishes it, or until the lease runs out because this
 * worker died (then the row is simply claimed again). Attempts are counted at the claim, so a
 * worker that dies mid-send still used one.
 */
export async function claimDue(db: Queryable, limit: number, leaseMs: number): Promise<SmsMessage[]> {
  const rows = await db.query<SmsRow>(
    `WITH due AS (
       SELECT id FROM notifications.sms_messages
        WHERE (status = 'pending' OR (status = 'sent' AND notified_at IS NULL))
          AND next_attempt_at <= now()
        ORDER BY next_attempt_at
        LIMIT $1
        FOR UPDATE SKIP LOCKED
     )
     UPDATE notifications.sms_messages m
        SET next_attempt_at = now() + ($2::bigint * interval '1 millisecond'),
            lease_token = $3,
            attempts = m.attempts + CASE WHEN m.status = 'pending' THEN 1 ELSE 0 END,
            notify_attempts = m.notify_attempts + CASE WHEN m.status = 'sent' THEN 1 ELSE 0 END,
            updated_at = now()
       FROM due
      WHERE m.id = due.id
     RETURNING m.*`,
    [limit, leaseMs, randomUUID()]
  );
  return rows.map(toMessage).sort((a, b) => (a.nextAttemptAt ?? "").localeCompare(b.nextAttemptAt ?? ""));
}

/** The lease (next_attempt_at) stays: if the process dies before the transition, the row comes back. */
export async function markSent(
  db: Queryable,
  claimed: SmsMessage,
  sent: { provider: SmsProviderName; providerMessageId: string | null }
): Promise<boolean> {
  const rows = await db.query(
    `UPDATE notifications.sms_messages
        SET status = 'sent', sent_at = now(), provider = $3, provider_message_id = $4, last_error = NULL, updated_at = now()
      WHERE id = $1 AND lease_token = $2 AND status = 'pending'
      RETURNING id`,
    [claimed.id, claimed.leaseToken, sent.provider, sent.providerMessageId]
  );
  return rows.length > 0;
}

export async function scheduleSendRetry(db: Queryable, claimed: SmsMessage, error: string, delayMs: number): Promise<void> {
  await db.query(
    `UPDATE notifications.sms_messages
        SET next_attempt_at = now() + ($3::bigint * interval '1 millisecond'), last_error = $4, lease_token = NULL, updated_at = now()
      WHERE id = $1 AND lease_token = $2 AND status = 'pending'`,
    [claimed.id, claimed.leaseToken, Math.max(0, Math.round(delayMs)), error]
  );
}

export async function markFailed(db: Queryable, claimed: SmsMessage, error: string): Promise<void> {
  await db.query(
    `UPDATE notifications.sms_messages
        SET status = 'failed', next_attempt_at = NULL, last_error = $3, lease_token = NULL, updated_at = now()
      WHERE id = $1 AND lease_token = $2 AND status = 'pending'`,
    [claimed.id, claimed.leaseToken, error]
  );
}

/** `note` says why the parcel did not move, when it was already past AT_RELAY; null otherwise. */
export async function markNotified(db: Queryable, claimed: SmsMessage, note: string | null): Promise<void> {
  await db.query(
    `UPDATE notifications.sms_messages
        SET notified_at = now(), next_attempt_at = NULL, last_error = $3, lease_token = NULL, updated_at = now()
      WHERE id = $1 AND lease_token = $2 AND status = 'sent'`,
    [claimed.id, claimed.leaseToken, note]
  );
}

export async function scheduleNotifyRetry(db: Queryable, claimed: SmsMessage, error: string, delayMs: number): Promise<void> {
  await db.query(
    `UPDATE notifications.sms_messages
        SET next_attempt_at = now() + ($3::bigint * interval '1 millisecond'), last_error = $4, lease_token = NULL, updated_at = now()
      WHERE id = $1 AND lease_token = $2 AND status = 'sent' AND notified_at IS NULL`,
    [claimed.id, claimed.leaseToken, Math.max(0, Math.round(delayMs)), error]
  );
}
