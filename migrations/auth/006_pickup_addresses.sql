-- Issue 44 B, decision 0054: the organisation's stored pickup address, which a pickup booked
-- without one uses. A table of its own (one row per organisation that stored one): nothing of
-- auth.organizations is rewritten or locked. A shop's address, not a person's: kept in clear.
CREATE TABLE auth.pickup_addresses (
  organization_id uuid PRIMARY KEY REFERENCES auth.organizations (id),
  address jsonb NOT NULL,
  updated_at timestamptz NOT NULL DEFAULT now()
);
