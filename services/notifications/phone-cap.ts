import { createHmac } from "node:crypto";
import type { Queryable } from "../../lib/db/database";
import type { SmsKind } from "./holding-sms";
import { insertMessage, NewSmsMessage, SmsMessage } from "./notifications.store";

/**
 * Issue 26: the SMS a visitor can make us send (a redirect code: anyone who knows a tracking
 * number can ask for one) are capped per phone number over any 24 hours, across all the parcels
 * of that number (SMS_CODES_PER_PHONE_PER_DAY), on top of the per-parcel hourly limit of parcels.
 * The numbers are sealed at rest (decision 0017), so they are counted by a keyed digest.
 * The SMS a merchant's or the carrier's own act sends (pick-up, reminders, return codes) are not capped.
 */

export const PHONE_CAPPED_KINDS: readonly SmsKind[] = ["redirect_code"];

/** HMAC-SHA-256 of the number (digits only) under a key derived from ENCRYPTION_KEY: one number, one digest. */
export function phoneDigest(phone: string, encryptionKey: string): string {
  const key = createHmac("sha256", encryptionKey).update("notifications: phone digest v1").digest();
  return createHmac("sha256", key).update(phone.replace(/\D/g, "")).digest("base64url");
}

/**
 * Stores a capped message unless its number has had `cap` of them in the last 24 hours: the
 * count and the insert under one lock per number, so that concurrent requests cannot pass the
 * cap together. Null when the cap is reached.
 */
export async function insertCappedMessage(
  db: { transaction<T>(work: (tx: Queryable) => Promise<T>): Promise<T> },
  message: NewSmsMessage & { phoneDigest: string },
  cap: number
): Promise<{ message: SmsMessage; created: boolean } | null> {
  return db.transaction(async tx => {
    await tx.query("SELECT pg_advisory_xact_lock(hashtextextended($1, 26))", [message.phoneDigest]);
    const [row] = await tx.query<{ sent: string }>(
      `SELECT count(*) AS sent FROM notifications.sms_messages
        WHERE phone_digest = $1 AND kind = ANY($2::text[]) AND created_at > now() - interval '24 hours'`,
      [message.phoneDigest, PHONE_CAPPED_KINDS]
    );
    if (Number(row.sent) >= cap) return null;
    return insertMessage(tx, message);
  });
}
