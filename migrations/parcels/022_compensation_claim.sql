-- Issue 26. A create that must give its money back first claims its PENDING row, so that the
-- sweeper, which finishes debited PENDING rows as CREATED, never finishes one whose debit is being
-- refunded (a parcel CREATED and refunded without being cancelled). A claim older than the
-- sweeper's age limit is a compensation a crash cut short: the sweeper settles it like any PENDING row.
ALTER TABLE parcels.parcels ADD COLUMN compensating_since timestamptz;
