import type { Queryable } from "../../lib/db/database";
import { encryptField } from "../../lib/crypto";

/**
 * Issue 48, Law 18-07 (decision 0061): an SMS's number and text are needed until it was sent and
 * its code used, not for years. PII_RETENTION_DAYS after it was written, the number becomes the
 * ciphertext of an empty text (its column is NOT NULL, and readers decrypt it), the text empty and
 * the number's digest (the per-phone cap's key) NULL; its status, dates and provider answer stay.
 * A pending one is left alone. Idempotent (`erased_at`), in batches of `batch`.
 */
export async function eraseOldSms(db: Queryable, encryptionKey: string, days: number, batch: number): Promise<number> {
  const rows = await db.query<{ id: string }>(
    `UPDATE notifications.sms_messages SET phone_enc = $1, body = '', body_enc = NULL, phone_digest = NULL, erased_at = now()
      WHERE id IN (SELECT id FROM notifications.sms_messages
                    WHERE erased_at IS NULL AND created_at < now() - make_interval(days => $2::int) AND status <> 'pending'
                    ORDER BY created_at LIMIT $3 FOR UPDATE SKIP LOCKED)
      RETURNING id`,
    [encryptField("", encryptionKey), days, batch]
  );
  return rows.length;
}

/**
 * Issue 48, bounded SMS log (decision 0062): an erased SMS keeps its status, dates and provider
 * answer for the carrier's accounts with its SMS provider; SMS_LOG_RETENTION_DAYS after it was
 * written (not before PII_RETENTION_DAYS, checked by the configuration) the row goes, so the table
 * holds that many days of messages under a steady load. In batches of `batch`, oldest first.
 */
export async function pruneErasedSms(db: Queryable, days: number, batch: number): Promise<number> {
  const rows = await db.query<{ id: string }>(
    `DELETE FROM notifications.sms_messages
      WHERE id IN (SELECT id FROM notifications.sms_messages
                    WHERE erased_at IS NOT NULL AND created_at < now() - make_interval(days => $1::int)
                    ORDER BY created_at LIMIT $2 FOR UPDATE SKIP LOCKED)
      RETURNING id`,
    [days, batch]
  );
  return rows.length;
}
