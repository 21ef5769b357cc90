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
