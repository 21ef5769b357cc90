-- Issue 44 C (decision 0057): parcel.out_for_delivery, once per parcel and destination relay point
-- (a redirect and a new load give a new one). The status does not change (IN_TRANSIT); a row here
-- is one event of the parcel's sequence (parcels.store eventCount). New and empty: no CONCURRENTLY.
CREATE TABLE parcels.out_for_delivery (
  parcel_id uuid NOT NULL,
  relay_code text NOT NULL,
  actor text NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (parcel_id, relay_code)
);
