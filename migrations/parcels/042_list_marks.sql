-- Issue 48, decision 0067: marks on the organisations' parcel lists, counted from the oldest
-- parcel, so that the SPEC's deep page numbers start from the nearest mark instead of walking
-- every parcel they skip (services/parcels/list-marks.store.ts). A new, empty table: no lock on a big one.
CREATE TABLE parcels.list_marks (
  organization_id uuid NOT NULL,
  mode text NOT NULL,
  -- How many parcels of the organisation's list (status <> 'PENDING') are older than this one.
  from_oldest bigint NOT NULL,
  created_at timestamptz NOT NULL,
  id uuid NOT NULL,
  PRIMARY KEY (organization_id, mode, from_oldest)
);
