-- The parcel counters of 005, counted once per statement instead of once per row (issue 26,
-- docs/decisions/0028). Since group commit one INSERT or UPDATE carries many parcels; the row
-- trigger upserted a random shard per row, so one statement locked several counter rows in random
-- order, and two groups locking them crosswise deadlocked (and failed every create of both).
--
-- Now each statement adds up its changes per (organisation, mode, status) from its transition
-- tables and applies them in one upsert, in key order, all on one shard: every statement takes its
-- counter locks in the same global order, so two statements can never wait on each other in a
-- circle. The shard is drawn once per transaction (kept in a transaction-local setting): several
-- statements of one transaction (a shelf's arrivals, one parcel at a time) reuse their shard, so
-- two such transactions contend only when they drew the same one, instead of crossing on every
-- statement. A shard may still go negative; the sum per (organisation, mode, status) is exact.

DROP TRIGGER parcels_counted ON parcels.parcels;
DROP TRIGGER parcels_status_counted ON parcels.parcels;
DROP FUNCTION parcels.count_parcel_change();

-- This transaction's shard: drawn at its first counted statement, then kept until it ends.
CREATE FUNCTION parcels.count_shard() RETURNS smallint LANGUAGE plpgsql AS $$
DECLARE
  kept text := current_setting('parcels.count_shard', true);
BEGIN
  IF kept IS NULL OR kept = '' THEN
    kept := floor(random() * 16)::text;
    PERFORM set_config('parcels.count_shard', kept, true);
  END IF;
  RETURN kept::smallint;
END
$$;

-- One function for the three triggers: a transition table that the event does not have is not
-- read (TG_OP decides), and rows an UPDATE left in their status cancel out (+1 -1) before any lock.
CREATE FUNCTION parcels.count_parcel_changes() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  picked smallint := parcels.count_shard();
BEGIN
  IF TG_OP = 'INSERT' THEN
    INSERT INTO parcels.parcel_counts AS c (organization_id, mode, status, shard, n)
    SELECT organization_id, mode, status, picked, count(*) FROM added
     GROUP BY organization_id, mode, status ORDER BY organization_id, mode, status
    ON CONFLICT (organization_id, mode, status, shard) DO UPDATE SET n = c.n + EXCLUDED.n;
  ELSIF TG_OP = 'DELETE' THEN
    INSERT INTO parcels.parcel_counts AS c (organization_id, mode, status, shard, n)
    SELECT organization_id, mode, status, picked, -count(*) FROM removed
     GROUP BY organization_id, mode, status ORDER BY organization_id, mode, status
    ON CONFLICT (organization_id, mode, status, shard) DO UPDATE SET n = c.n + EXCLUDED.n;
  ELSE
    INSERT INTO parcels.parcel_counts AS c (organization_id, mode, status, shard, n)
    SELECT organization_id, mode, status, picked, sum(d) FROM (
             SELECT organization_id, mode, status, 1 AS d FROM added
             UNION ALL
             SELECT organization_id, mode, status, -1 AS d FROM removed) AS changes
     GROUP BY organization_id, mode, status HAVING sum(d) <> 0 ORDER BY organization_id, mode, status
    ON CONFLICT (organization_id, mode, status, shard) DO UPDATE SET n = c.n + EXCLUDED.n;
  END IF;
  RETURN NULL;
END
$$;

-- A trigger with transition tables takes one event, and no column list (PostgreSQL's rules).
CREATE TRIGGER parcels_inserts_counted AFTER INSERT ON parcels.parcels
  REFERENCING NEW TABLE AS added FOR EACH STATEMENT EXECUTE FUNCTION parcels.count_parcel_changes();
CREATE TRIGGER parcels_updates_counted AFTER UPDATE ON parcels.parcels
  REFERENCING OLD TABLE AS removed NEW TABLE AS added FOR EACH STATEMENT EXECUTE FUNCTION parcels.count_parcel_changes();
CREATE TRIGGER parcels_deletes_counted AFTER DELETE ON parcels.parcels
  REFERENCING OLD TABLE AS removed FOR EACH STATEMENT EXECUTE FUNCTION parcels.count_parcel_changes();
