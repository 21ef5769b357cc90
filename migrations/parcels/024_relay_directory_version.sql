-- The relay directory's change counter (issue 31, decision 0038). Every parcels instance keeps the
-- relay points and their closures in memory (services/parcels/relay/relay-directory.ts) and reads
-- them from there on the create, quote and batch paths. A broadcast tells the other instances of
-- a change; this counter is the safety net for a broadcast they missed: each instance reads it at
-- most once a second (and after a reconnect) and reloads when it moved.
-- The triggers bump it in the same transaction as the change, whoever makes it (an action, the
-- seed, an operator's SQL): a change cannot commit without moving the counter. Row-level, so a
-- statement that changes nothing (the seed at every start, mostly) does not move it.
CREATE TABLE parcels.relay_directory_version (
  id boolean PRIMARY KEY DEFAULT true CHECK (id),
  version bigint NOT NULL
);
INSERT INTO parcels.relay_directory_version (id, version) VALUES (true, 1);

CREATE FUNCTION parcels.bump_relay_directory_version() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
  UPDATE parcels.relay_directory_version SET version = version + 1 WHERE id;
  RETURN NULL;
END;
$$;

CREATE TRIGGER relay_points_bump_directory_version
  AFTER INSERT OR UPDATE OR DELETE ON parcels.relay_points
  FOR EACH ROW EXECUTE FUNCTION parcels.bump_relay_directory_version();

CREATE TRIGGER relay_closures_bump_directory_version
  AFTER INSERT OR UPDATE OR DELETE ON parcels.relay_closures
  FOR EACH ROW EXECUTE FUNCTION parcels.bump_relay_directory_version();
