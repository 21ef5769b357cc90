-- Issue 44 E, decision 0058: the steps between the merchant and the relay point that the tracking
-- page shows and the status history cannot say (which hub's wilaya, a mis-sort, on its way to the
-- relay point), written by parcels.recordNetworkSteps for the logistics service's scans. Read by
-- parcel id only, so the page's read stays one indexed query. A `missorted` row is also the
-- parcel.missorted event's line in the parcel's sequence. New table.
CREATE TABLE parcels.network_steps (
  id uuid PRIMARY KEY,
  parcel_id uuid NOT NULL,
  kind text NOT NULL CHECK (kind IN ('at_hub', 'missorted', 'to_relay')),
  -- The hub's wilaya (at_hub, missorted); null for to_relay.
  wilaya_code smallint,
  occurred_at timestamptz NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX network_steps_by_parcel ON parcels.network_steps (parcel_id, occurred_at);
