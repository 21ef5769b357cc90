-- Issue 18, relay operations: what a relay point's counter does with its shelf and its till.

-- How many parcels the shelf holds (an arrival beyond it is refused), and how many days a parcel
-- waits there; null: the platform's HOLDING_DAYS.
ALTER TABLE parcels.relay_points
  ADD COLUMN capacity integer NOT NULL DEFAULT 150 CHECK (capacity BETWEEN 0 AND 100000),
  ADD COLUMN holding_days integer CHECK (holding_days BETWEEN 1 AND 60);

-- arrived_at: when the parcel first reached its relay point (AT_RELAY), whoever moved it there
-- (the relay API, an operator, the sandbox trigger): stamped by the trigger below, in the same
-- statement as the change. return_dispatched_at: when a return left the shelf with the courier.
-- A parcel is on the shelf from its arrival until it is handed over, or its return leaves.
ALTER TABLE parcels.parcels
  ADD COLUMN arrived_at timestamptz,
  ADD COLUMN return_dispatched_at timestamptz;

CREATE FUNCTION parcels.stamp_arrival() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  NEW.arrived_at := coalesce(NEW.arrived_at, now());
  RETURN NEW;
END
$$;

CREATE TRIGGER parcels_arrival_stamped BEFORE UPDATE OF status ON parcels.parcels
  FOR EACH ROW WHEN (NEW.status = 'AT_RELAY' AND OLD.status IS DISTINCT FROM 'AT_RELAY')
  EXECUTE FUNCTION parcels.stamp_arrival();

-- The parcels already there.
UPDATE parcels.parcels p SET arrived_at = h.first_arrival
  FROM (SELECT parcel_id, min(created_at) AS first_arrival FROM parcels.status_history
         WHERE to_status = 'AT_RELAY' GROUP BY parcel_id) h
 WHERE h.parcel_id = p.id;

-- A relay point's live parcels coming in, on its shelf, or waiting to leave.
CREATE INDEX parcels_relay_counter ON parcels.parcels (destination_relay_code, status, created_at, id)
  WHERE mode = 'live' AND status IN ('IN_TRANSIT', 'AT_RELAY', 'RELAY_NOTIFIED', 'RETURN_PENDING');

-- The till's closings: what was expected (the COD taken since the last one), what the agent
-- counted, and the difference, recorded as it is.
CREATE TABLE parcels.relay_cash_closings (
  id uuid PRIMARY KEY,
  relay_code text NOT NULL REFERENCES parcels.relay_points (code),
  item_count integer NOT NULL CHECK (item_count >= 0),
  expected_centimes bigint NOT NULL CHECK (expected_centimes >= 0),
  counted_centimes bigint NOT NULL CHECK (counted_centimes >= 0),
  opened_at timestamptz NOT NULL,
  closed_at timestamptz NOT NULL DEFAULT now(),
  agent_key_id uuid
);
CREATE INDEX relay_cash_closings_relay ON parcels.relay_cash_closings (relay_code, closed_at DESC, id DESC);

-- The cash of each COD hand-over at the counter, in the till until a closing takes it. parcel_id is
-- the primary key and closing_id is set once: no hand-over is ever counted twice.
CREATE TABLE parcels.relay_cash_items (
  parcel_id uuid PRIMARY KEY REFERENCES parcels.parcels (id),
  relay_code text NOT NULL REFERENCES parcels.relay_points (code),
  amount_centimes bigint NOT NULL CHECK (amount_centimes > 0),
  delivered_at timestamptz NOT NULL DEFAULT now(),
  closing_id uuid REFERENCES parcels.relay_cash_closings (id)
);
CREATE INDEX relay_cash_items_open ON parcels.relay_cash_items (relay_code, delivered_at) WHERE closing_id IS NULL;
CREATE INDEX relay_cash_items_closing ON parcels.relay_cash_items (closing_id) WHERE closing_id IS NOT NULL;
