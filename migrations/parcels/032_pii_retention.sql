-- Issue 48, retention (decision 0061): when the recipient's name and phone, the PIN ciphertexts and
-- the claims' evidence notes of a parcel were erased, PII_RETENTION_DAYS after its final status.
-- Nullable without a default: adding it rewrites nothing.
ALTER TABLE parcels.parcels ADD COLUMN pii_erased_at timestamptz;
