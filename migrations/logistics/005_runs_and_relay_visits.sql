-- Issue 44 C (decision 0057): couriers' runs and their visits to relay points. New tables only.

-- A courier's day: one run per courier and date, kept once an operator looks at it or adjusts it
-- (until then GET /run computes it). Its stops are in run_stops, in order.
CREATE TABLE logistics.runs (
  id uuid PRIMARY KEY,
  courier_id uuid NOT NULL REFERENCES logistics.couriers (id),
  hub_id uuid NOT NULL REFERENCES logistics.hubs (id),
  run_date date NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now()
);
CREATE UNIQUE INDEX runs_one_per_courier_day ON logistics.runs (courier_id, run_date);
CREATE INDEX runs_by_hub_day ON logistics.runs (hub_id, run_date);

-- A stop: a pickup (ref: the pickup id), the hub (ref: the hub id) or a relay point (ref: its code).
-- What to do there (how many parcels) is computed when the run is read, not stored.
CREATE TABLE logistics.run_stops (
  run_id uuid NOT NULL REFERENCES logistics.runs (id) ON DELETE CASCADE,
  position smallint NOT NULL,
  kind text NOT NULL CHECK (kind IN ('PICKUP', 'HUB', 'RELAY')),
  ref text NOT NULL,
  PRIMARY KEY (run_id, position)
);

-- A courier at a relay point, proved by the counter's signed courier pass (POST /relays/{code}/arrive).
-- The agent's arrival scans that follow close the hand-off with this courier as the giver.
CREATE TABLE logistics.relay_visits (
  id uuid PRIMARY KEY,
  courier_id uuid NOT NULL REFERENCES logistics.couriers (id),
  relay_code text NOT NULL,
  arrived_at timestamptz NOT NULL,
  pass_expires_at timestamptz NOT NULL,
  recorded_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX relay_visits_by_relay ON logistics.relay_visits (relay_code, arrived_at DESC);
