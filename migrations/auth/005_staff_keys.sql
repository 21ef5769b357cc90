-- Issue 44: keys of the network's staff and devices (a courier's phone, a hub's sort station).
-- Like agent keys: their own table, only the SHA-256 of the key and a readable prefix kept. The
-- courier or hub is the logistics service's: here only its id and its hub's.
CREATE TABLE auth.staff_keys (
  id uuid PRIMARY KEY,
  role text NOT NULL CHECK (role IN ('courier', 'hub')),
  subject_id uuid NOT NULL,
  hub_id uuid NOT NULL,
  name text,
  key_prefix text NOT NULL,
  key_hash text NOT NULL UNIQUE,
  created_at timestamptz NOT NULL DEFAULT now(),
  revoked_at timestamptz
);

CREATE INDEX staff_keys_subject_idx ON auth.staff_keys (subject_id, created_at DESC);
