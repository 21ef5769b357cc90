-- The outbox relay reads after the last event it handed over (decision 0041). An event whose
-- transaction committed after a later event was handed over lies below that point; the read then
-- skips every event of a parcel that still has an undispatched event below it, so a parcel's events
-- never leave out of order. This index answers that question per parcel, without walking the
-- entries of every event dispatched since the last vacuum.
CREATE INDEX outbox_undispatched_by_parcel ON parcels.outbox (parcel_id, id) WHERE dispatched_at IS NULL;
