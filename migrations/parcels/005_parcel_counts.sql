-- How many parcels each organisation has in each mode and status, kept by a trigger in the same
-- transaction as every insert, status change and delete: a list page's totalElements is a sum of
-- a few rows instead of a count over the organisation's whole table (which grew with every parcel).
-- Each change lands on one of 16 shards picked at random, so that concurrent creates of one
-- organisation do not queue on a single counter row; a shard may go negative, the sum is exact.
CREATE TABLE parcels.parcel_counts (
  organization_id uuid NOT NULL,
  mode text NOT NULL,
  status text NOT NULL,
  shard smallint NOT NULL,
  n bigint NOT NULL,
  PRIMARY KEY (organization_id, mode, status, shard)
);

CREATE FUNCTION parcels.count_parcel_change() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  picked smallint := floor(random() * 16);
BEGIN
  IF TG_OP IN ('UPDATE', 'DELETE') THEN
    INSERT INTO parcels.parcel_counts AS c (organization_id, mode, status, shard, n)
         VALUES (OLD.organization_id, OLD.mode, OLD.status, picked, -1)
    ON CONFLICT (organization_id, mode, status, shard) DO UPDATE SET n = c.n - 1;
  END IF;
  IF TG_OP IN ('INSERT', 'UPDATE') THEN
    INSERT INTO parcels.parcel_counts AS c (organization_id, mode, status, shard, n)
         VALUES (NEW.organization_id, NEW.mode, NEW.status, picked, 1)
    ON CONFLICT (organization_id, mode, status, shard) DO UPDATE SET n = c.n + 1;
  END IF;
  RETURN NULL;
END
$$;

CREATE TRIGGER parcels_counted AFTER INSERT OR DELETE ON parcels.parcels
  FOR EACH ROW EXECUTE FUNCTION parcels.count_parcel_change();
CREATE TRIGGER parcels_status_counted AFTER UPDATE OF status ON parcels.parcels
  FOR EACH ROW WHEN (OLD.status IS DISTINCT FROM NEW.status) EXECUTE FUNCTION parcels.count_parcel_change();

-- The parcels already stored.
INSERT INTO parcels.parcel_counts (organization_id, mode, status, shard, n)
SELECT organization_id, mode, status, 0, count(*) FROM parcels.parcels GROUP BY organization_id, mode, status;
