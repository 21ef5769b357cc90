import type { Queryable } from "../../lib/db/database";
import { encryptField } from "../../lib/crypto";

/**
 * Issue 48, Law 18-07 (decision 0061): a recipient's name and phone, the parcel's pick-up PIN
 * ciphertexts, the notes of its moves and of its claims' evidence are needed until the parcel's story ends, not
 * for years. PII_RETENTION_DAYS after its final status (its last change, `updated_at`), they are
 * erased; what accounting needs stays (amounts, statuses, dates, relay point, ledger). The name and
 * phone, which every reader decrypts, become the ciphertext of an empty text rather than NULL, as a
 * customer return's phone already is (returns/drop-off.ts): every code path keeps working, on
 * nothing. Idempotent (`pii_erased_at` marks what is done) and in batches of `batch` parcels.
 */

export const FINAL_STATUSES = ["DELIVERED", "RETURNED", "LOST", "DAMAGED", "CANCELLED"] as const;

/** One batch; answers how many parcels it erased (fewer than `batch`: caught up). */
export async function erasePersonalData(db: Queryable, encryptionKey: string, days: number, batch: number): Promise<number> {
  const nothing = encryptField("", encryptionKey);
  // The due parcels from their index (migration parcels/033), locked and skipped when another instance has them.
  const erased = await db.query<{ id: string }>(
    `UPDATE parcels.parcels SET recipient_name_enc = $1, recipient_phone_enc = $1, pickup_pin_enc = NULL, pii_erased_at = now()
      WHERE id IN (SELECT id FROM parcels.parcels
                    WHERE pii_erased_at IS NULL AND status IN ('DELIVERED', 'RETURNED', 'LOST', 'DAMAGED', 'CANCELLED')
                      AND updated_at < now() - make_interval(days => $2::int)
                    ORDER BY updated_at LIMIT $3 FOR UPDATE SKIP LOCKED)
      RETURNING id`,
    [nothing, days, batch]
  );
  if (erased.length === 0) return 0;
  const ids = erased.map(r => r.id);
  await db.query("DELETE FROM parcels.replaced_pickup_pins WHERE parcel_id = ANY($1::uuid[])", [ids]);
  // The notes of its moves (a refusal's reason, an operator's note) are typed text that may name
  // the recipient: the events API then answers them present and null.
  await db.query("UPDATE parcels.status_history SET reason = NULL WHERE parcel_id = ANY($1::uuid[]) AND reason IS NOT NULL", [ids]);
  // The evidence's free-text notes (a refusal's reason, an operator's note) may name the recipient:
  // present and null, as the claim view allows them to be; dates, statuses and amounts stay.
  await db.query(
    `UPDATE parcels.claims SET evidence = json_build_object(
        'statusHistory', (SELECT coalesce(jsonb_agg(move || '{"reason": null}'::jsonb ORDER BY n), '[]'::jsonb)
                            FROM jsonb_array_elements(evidence::jsonb -> 'statusHistory') WITH ORDINALITY AS m (move, n)),
        'refusal', CASE WHEN jsonb_typeof(evidence::jsonb -> 'refusal') = 'object'
                        THEN (evidence::jsonb -> 'refusal') || '{"reason": null}'::jsonb ELSE 'null'::jsonb END)::jsonb
        || (evidence::jsonb - 'statusHistory' - 'refusal')
      WHERE parcel_id = ANY($1::uuid[])`,
    [ids]
  );
  return erased.length;
}
