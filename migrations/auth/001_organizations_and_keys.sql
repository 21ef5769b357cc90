CREATE TABLE auth.organizations (
  id uuid PRIMARY KEY,
  name text NOT NULL CHECK (length(name) BETWEEN 1 AND 200),
  created_at timestamptz NOT NULL DEFAULT now()
);

-- The key itself is never stored: only its SHA-256 and a readable prefix.
CREATE TABLE auth.api_keys (
  id uuid PRIMARY KEY,
  organization_id uuid NOT NULL REFERENCES auth.organizations (id),
  name text,
  mode text NOT NULL CHECK (mode IN ('live', 'sandbox')),
  key_prefix text NOT NULL,
  key_hash text NOT NULL UNIQUE,
  scopes text[] NOT NULL,
  rate_limit_per_minute integer CHECK (rate_limit_per_minute > 0),
  created_at timestamptz NOT NULL DEFAULT now(),
  revoked_at timestamptz
);

CREATE INDEX api_keys_organization_idx ON auth.api_keys (organization_id, created_at DESC);
