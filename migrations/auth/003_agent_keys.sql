-- Issue 18: keys of relay-point agents (the counter's app). Apart from partner keys: an agent key
-- belongs to a relay point, not to an organisation, and opens only the relay API. Like partner
-- keys, only the SHA-256 of the key and a readable prefix are kept.
CREATE TABLE auth.agent_keys (
  id uuid PRIMARY KEY,
  relay_code text NOT NULL,
  name text,
  key_prefix text NOT NULL,
  key_hash text NOT NULL UNIQUE,
  created_at timestamptz NOT NULL DEFAULT now(),
  revoked_at timestamptz
);

CREATE INDEX agent_keys_relay_idx ON auth.agent_keys (relay_code, created_at DESC);
