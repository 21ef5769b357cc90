-- One relay at a time hands outbox rows over, so that events of one parcel leave in order even
-- with several parcels replicas. A lease (not a held transaction) because PGlite has one
-- connection, and the relay's calls may need it.
CREATE TABLE parcels.relay_lease (
  name text PRIMARY KEY,
  holder text NOT NULL,
  expires_at timestamptz NOT NULL
);
