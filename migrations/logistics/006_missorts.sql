-- Issue 44 C, decision 0058: the network's exceptions, today the mis-sorts: a parcel scanned in at
-- a hub off its route, or brought to a relay point it is not addressed to. One row per scan that
-- found it (the id is the scan's id), so a scan sent again records nothing twice. New table.
CREATE TABLE logistics.exceptions (
  id uuid PRIMARY KEY,
  parcel_id uuid NOT NULL,
  tracking_number text NOT NULL,
  organization_id uuid NOT NULL,
  kind text NOT NULL CHECK (kind IN ('MISSORT')),
  -- OFF_ROUTE_HUB: a hub of neither the origin's nor the destination's wilaya; WRONG_RELAY: another relay point.
  reason text NOT NULL CHECK (reason IN ('OFF_ROUTE_HUB', 'WRONG_RELAY')),
  -- Where it was found: a hub's code or a relay point's code, and that place's wilaya.
  found_at text NOT NULL,
  found_wilaya smallint,
  -- Where it must go now: its destination's wilaya and relay point.
  reroute_wilaya smallint,
  reroute_relay_code text NOT NULL,
  occurred_at timestamptz NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX exceptions_newest ON logistics.exceptions (created_at DESC, id DESC);
CREATE INDEX exceptions_by_parcel ON logistics.exceptions (parcel_id);
