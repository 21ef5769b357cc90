-- Issue 45 B (decision 0063): the cash of cash on delivery from the till's closing to the merchant.
-- A courier collects closings at a relay (the agent confirms), hands the collections in at its hub
-- (the hub confirms), and remittances are proposed from what the hub confirmed. Every count is
-- kept as counted; a count that is not what the books expect is also a row of cash_differences.
-- Amounts in integer centimes. Couriers and hubs are the logistics service's (their ids only here).

CREATE TABLE parcels.cash_collections (
  id uuid PRIMARY KEY,
  relay_code text NOT NULL REFERENCES parcels.relay_points (code),
  courier_id uuid NOT NULL,
  courier_key_id uuid NOT NULL,
  hub_id uuid NOT NULL,
  -- The books: the cash hand-overs of the closings taken, what the merchants are owed for them.
  expected_centimes bigint NOT NULL CHECK (expected_centimes >= 0),
  -- The cash as last counted: what the agent counted at those closings.
  previous_count_centimes bigint NOT NULL CHECK (previous_count_centimes >= 0),
  courier_counted_centimes bigint NOT NULL CHECK (courier_counted_centimes >= 0),
  courier_denominations jsonb NOT NULL,
  -- Set once, when the agent confirms: until then the cash is still the counter's.
  agent_counted_centimes bigint CHECK (agent_counted_centimes >= 0),
  agent_denominations jsonb,
  agent_key_id uuid,
  occurred_at timestamptz NOT NULL,
  confirmed_at timestamptz,
  -- Set instead, when the agent cancels a collection it will not confirm: its closings are freed
  -- (their rows of cash_collection_closings deleted) and wait for the next courier.
  cancelled_at timestamptz,
  created_at timestamptz NOT NULL DEFAULT now(),
  CHECK (confirmed_at IS NULL OR cancelled_at IS NULL)
);
CREATE INDEX cash_collections_relay ON parcels.cash_collections (relay_code, created_at);
CREATE INDEX cash_collections_courier ON parcels.cash_collections (courier_id, created_at);

-- A closing is taken by one collection only: the primary key.
CREATE TABLE parcels.cash_collection_closings (
  closing_id uuid PRIMARY KEY REFERENCES parcels.relay_cash_closings (id),
  collection_id uuid NOT NULL REFERENCES parcels.cash_collections (id)
);
CREATE INDEX cash_collection_closings_collection ON parcels.cash_collection_closings (collection_id);

CREATE TABLE parcels.cash_deposits (
  id uuid PRIMARY KEY,
  hub_id uuid NOT NULL,
  courier_id uuid NOT NULL,
  courier_key_id uuid NOT NULL,
  expected_centimes bigint NOT NULL CHECK (expected_centimes >= 0),
  -- The cash as last counted: what the courier counted at each collection handed in.
  previous_count_centimes bigint NOT NULL CHECK (previous_count_centimes >= 0),
  courier_counted_centimes bigint NOT NULL CHECK (courier_counted_centimes >= 0),
  courier_denominations jsonb NOT NULL,
  -- Set once, when the hub confirms: until then the cash is still aboard.
  hub_counted_centimes bigint CHECK (hub_counted_centimes >= 0),
  hub_denominations jsonb,
  hub_key_id uuid,
  occurred_at timestamptz NOT NULL,
  confirmed_at timestamptz,
  created_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX cash_deposits_hub ON parcels.cash_deposits (hub_id, created_at);
CREATE INDEX cash_deposits_courier ON parcels.cash_deposits (courier_id, created_at);

-- A collection is handed in once: the primary key.
CREATE TABLE parcels.cash_deposit_collections (
  collection_id uuid PRIMARY KEY REFERENCES parcels.cash_collections (id),
  deposit_id uuid NOT NULL REFERENCES parcels.cash_deposits (id)
);
CREATE INDEX cash_deposit_collections_deposit ON parcels.cash_deposit_collections (deposit_id);

-- A hand-off whose counts disagree (with each other, or with the previous count), with who counted
-- what; one row per confirmed hand-off at most. The books move on regardless (expected_centimes).
CREATE TABLE parcels.cash_differences (
  id uuid PRIMARY KEY,
  stage text NOT NULL CHECK (stage IN ('COLLECTION', 'DEPOSIT')),
  hand_off_id uuid NOT NULL UNIQUE,
  relay_code text,
  hub_id uuid NOT NULL,
  courier_id uuid NOT NULL,
  expected_centimes bigint NOT NULL,
  previous_count_centimes bigint NOT NULL,
  -- [{ "by": "courier" | "agent" | "hub", "keyId": uuid, "centimes": n, "denominations": {...} }]
  counts jsonb NOT NULL,
  recorded_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX cash_differences_recorded ON parcels.cash_differences (recorded_at DESC, id DESC);

-- Where a COD parcel's cash is, for the merchant (`codCashAt`, additive to `codStatus`): set as the
-- cash moves on (COURIER when the agent confirms a collection, CARRIER when the hub confirms a
-- deposit); null before. The view reads REMITTED as PAID and COLLECTED with nothing here as COUNTER.
-- Nullable without a default: no rewrite of the table (decision 0059).
ALTER TABLE parcels.parcels ADD COLUMN cod_cash_at text;

-- A card or QR payment never is cash in the drawer: it is the carrier's from the hand-over on.
CREATE FUNCTION parcels.electronic_cod_at_carrier() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  UPDATE parcels.parcels SET cod_cash_at = 'CARRIER' WHERE id = NEW.parcel_id;
  RETURN NULL;
END $$;
CREATE TRIGGER relay_cash_items_electronic AFTER INSERT ON parcels.relay_cash_items
  FOR EACH ROW WHEN (NEW.tender <> 'cash') EXECUTE FUNCTION parcels.electronic_cod_at_carrier();
