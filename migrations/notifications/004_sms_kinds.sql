-- What an SMS is for (issue 18). 'pickup' (the parcel arrived, with its PIN) moves the parcel to
-- RELAY_NOTIFIED once sent; 'pickup_reminder' (its deadline is near) and 'pickup_expired' (it
-- goes back to the sender) only inform, and owe the parcel nothing once sent.
ALTER TABLE notifications.sms_messages
  ADD COLUMN kind text NOT NULL DEFAULT 'pickup' CHECK (kind IN ('pickup', 'pickup_reminder', 'pickup_expired'));
