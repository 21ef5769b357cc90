-- Issue 27: one-time codes that pair a phone with a relay point. The back-office draws a code (8
-- characters a person can type, 15 minutes); the phone exchanges it once for an agent key of its
-- own. Only the code's SHA-256 is kept, like keys. used_at is set once, by the one exchange that
-- wins (UPDATE … WHERE used_at IS NULL), so two phones racing on one code get one key.
-- idempotency_key, request_fingerprint and key_sealed let the winning phone ask again with the
-- same Idempotency-Key after a lost answer and get the same key back (sealed with ENCRYPTION_KEY,
-- like PII; cleared once the 24 hours of an Idempotency-Key are over).
CREATE TABLE auth.pairing_codes (
  id uuid PRIMARY KEY,
  relay_code text NOT NULL,
  device_name text,
  code_hash text NOT NULL UNIQUE,
  expires_at timestamptz NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now(),
  used_at timestamptz,
  agent_key_id uuid REFERENCES auth.agent_keys (id),
  idempotency_key text,
  request_fingerprint text,
  key_sealed text
);

CREATE INDEX pairing_codes_sealed_idx ON auth.pairing_codes (used_at) WHERE key_sealed IS NOT NULL;
