-- Issue 27: the relay API's Idempotency-Key (decision 0031). A phone on a bad network sends an
-- operation again when the answer was lost; the first answer is kept here, per relay point and
-- key, and given again. answer is NULL while the first request runs (claimed_at: since when; a
-- claim older than a minute is abandoned and may be taken over), then {"ok":true,"body":…} or
-- {"ok":false,"code","message","details"} for a business refusal. Rows older than 24 hours are
-- released for reuse, as the partner API's keys are.
CREATE TABLE parcels.relay_idempotency (
  relay_code text NOT NULL,
  idempotency_key text NOT NULL,
  operation text NOT NULL,
  request_fingerprint text NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now(),
  claimed_at timestamptz NOT NULL DEFAULT now(),
  answer jsonb,
  PRIMARY KEY (relay_code, idempotency_key)
);

CREATE INDEX relay_idempotency_age_idx ON parcels.relay_idempotency (created_at);
