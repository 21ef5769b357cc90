-- Issue 26: the code SMS a visitor can ask for (redirect codes) are capped per phone number and
-- day, across all its parcels. The phone is sealed (phone_enc, decision 0017), so each message
-- carries a keyed digest of it (HMAC-SHA-256 under a key derived from ENCRYPTION_KEY): equal for
-- one number, useless without the key. Null on the rows written before, and on the kinds not capped.
ALTER TABLE notifications.sms_messages ADD COLUMN IF NOT EXISTS phone_digest text;
CREATE INDEX IF NOT EXISTS sms_messages_phone_digest_idx
  ON notifications.sms_messages (phone_digest, created_at)
  WHERE phone_digest IS NOT NULL;
