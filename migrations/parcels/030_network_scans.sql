-- Issue 44: the status changes the logistics service asks for (parcels.applyNetworkScans), one
-- row per scan id: a scan sent again (a retry, a second courier's phone) is answered from here
-- and changes nothing. New and empty: no CONCURRENTLY needed.
CREATE TABLE parcels.network_scans (
  scan_id uuid PRIMARY KEY,
  parcel_id uuid NOT NULL,
  to_status text NOT NULL,
  -- applied: the status changed; already: the parcel was there; refused: another status (see status_after).
  outcome text NOT NULL CHECK (outcome IN ('applied', 'already', 'refused')),
  status_after text NOT NULL,
  recorded_at timestamptz NOT NULL DEFAULT now()
);
