-- Issue 43. The pickup pass: its version, signed with the parcel's number and relay point; a new
-- PIN or a redirect moves it on, which voids every pass shown before (decision 0047).
ALTER TABLE parcels.parcels ADD COLUMN pickup_pass_version integer NOT NULL DEFAULT 1;

-- Wrong PINs typed on a device offline, reported at its sync: they count against the parcel's
-- five like the server's own, and more than five on one parcel flags it for the operators.
ALTER TABLE parcels.parcels ADD COLUMN offline_pin_failures integer NOT NULL DEFAULT 0;
ALTER TABLE parcels.parcels ADD COLUMN offline_tries_flagged_at timestamptz;

-- Every hand-over a device recorded offline, by the proof it took (a pass, or the PIN checked on
-- the phone): the daily limit of PIN ones per device counts them, and each PIN one is confirmed to
-- the recipient by SMS (with a "not me" link) once it is accepted.
CREATE TABLE parcels.offline_handovers (
  parcel_id uuid PRIMARY KEY REFERENCES parcels.parcels (id) ON DELETE CASCADE,
  relay_code text NOT NULL,
  agent_key_id uuid NOT NULL,
  proof text NOT NULL CHECK (proof IN ('pass', 'pin')),
  occurred_at timestamptz NOT NULL,
  synced_at timestamptz NOT NULL DEFAULT now(),
  -- Set once notifications stored the recipient's confirmation SMS (PIN hand-overs only); the
  -- holding pass asks again for those still without it.
  confirmed_at timestamptz
);
CREATE INDEX offline_handovers_pin_by_device ON parcels.offline_handovers (agent_key_id, occurred_at) WHERE proof = 'pin';
CREATE INDEX offline_handovers_unconfirmed ON parcels.offline_handovers (synced_at) WHERE proof = 'pin' AND confirmed_at IS NULL;

-- "Not me": a recipient says a hand-over recorded offline was not theirs. One per parcel; the
-- operators' list reads them newest first (the investigation of issue 44 is opened from here).
CREATE TABLE parcels.handover_disputes (
  id uuid PRIMARY KEY,
  parcel_id uuid NOT NULL UNIQUE REFERENCES parcels.parcels (id) ON DELETE CASCADE,
  tracking_number text NOT NULL,
  relay_code text NOT NULL,
  handed_over_at timestamptz NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX handover_disputes_newest ON parcels.handover_disputes (created_at DESC, id);
