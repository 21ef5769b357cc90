import type { Logger } from "moleculer";
import { decryptField, encryptField } from "../../../lib/crypto";
import type { Queryable } from "../../../lib/db/database";
import { normaliseRecipientPhone } from "../../../lib/recipient-phone";
import { setCheckedPhone, uncheckedPhones } from "./recipient.store";

const BATCH = 200;

/**
 * The rows created before migration parcels/020 (decision 0036): their phone is sealed, so SQL
 * cannot normalise it; this does, in code, at start-up and in batches, as a create would: the
 * number is rewritten as E.164 (spaces dropped when it does not parse) and marked mobile or not.
 * One that no longer decrypts with ENCRYPTION_KEY is kept exactly as it was. A number that cannot
 * take SMS is listed for operators
 * (GET /backoffice/v1/recipient-phones/not-mobile). No row is dropped. Idempotent: a row is
 * checked once, and two instances running it at once write the same thing.
 */
export async function normaliseStoredPhones(
  db: Queryable,
  encryptionKey: string,
  logger: Logger
): Promise<{ checked: number; notMobile: number }> {
  let checked = 0;
  let notMobile = 0;
  for (;;) {
    const batch = await uncheckedPhones(db, BATCH);
    if (batch.length === 0) break;
    for (const row of batch) {
      let phone: string;
      try {
        phone = decryptField(row.phoneEnc, encryptionKey);
      } catch {
        await setCheckedPhone(db, row.id, row.phoneEnc, false);
        notMobile += 1;
        continue;
      }
      const normalised = normaliseRecipientPhone(phone);
      const phoneEnc = encryptField(normalised.e164, encryptionKey);
      await setCheckedPhone(db, row.id, phoneEnc, normalised.mobile);
      if (!normalised.mobile) notMobile += 1;
    }
    checked += batch.length;
  }
  if (checked > 0)
    logger.info(`recipient phones: ${checked} stored number(s) checked, ${notMobile} cannot take SMS (listed for operators)`);
  return { checked, notMobile };
}
