-- Closures extend only what they close (issue 26, decision 0029). A parcel on the shelf keeps the
-- days its relay point's closures add to its deadline, so that the extension is recomputed from
-- the base deadline (pickup_deadline - pickup_closure_days) and the closures that exist now,
-- instead of adding each closure's length: announcing the same closure twice adds nothing, and
-- removing one takes back what it added.
--   pickup_closure_days  days of pickup_deadline that closures gave (0 to the holding period)
-- Deadlines pushed before this migration stay as they are, counted as base deadline.
ALTER TABLE parcels.parcels ADD COLUMN pickup_closure_days integer NOT NULL DEFAULT 0 CHECK (pickup_closure_days >= 0);
