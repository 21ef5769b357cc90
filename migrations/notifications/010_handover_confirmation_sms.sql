-- Issue 43: the recipient of a parcel handed over offline against its PIN is told so by SMS, with a
-- "not me" link (decision 0047). One per parcel (its event id is derived from the parcel).
ALTER TABLE notifications.sms_messages DROP CONSTRAINT IF EXISTS sms_messages_kind_check;
ALTER TABLE notifications.sms_messages
  ADD CONSTRAINT sms_messages_kind_check
  CHECK (kind IN ('pickup', 'pickup_reminder', 'pickup_expired', 'return_code', 'redirect_code', 'pickup_code_resend', 'handover_confirmation'));
