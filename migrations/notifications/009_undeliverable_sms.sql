-- Issue 30: a message to a number that cannot take an SMS (a landline, too short) is recorded,
-- never sent: status 'undeliverable'. The worker never claims it.
ALTER TABLE notifications.sms_messages DROP CONSTRAINT sms_messages_status_check;
ALTER TABLE notifications.sms_messages
  ADD CONSTRAINT sms_messages_status_check CHECK (status IN ('pending', 'sent', 'failed', 'undeliverable'));
ALTER TABLE notifications.sms_messages DROP CONSTRAINT IF EXISTS sms_messages_kind_check;
ALTER TABLE notifications.sms_messages
  ADD CONSTRAINT sms_messages_kind_check
  CHECK (kind IN ('pickup', 'pickup_reminder', 'pickup_expired', 'return_code', 'redirect_code', 'pickup_code_resend'));
