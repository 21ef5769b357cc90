-- The recipient's redirect verification code (issue 21): informs only, like the holding-period
-- notices; its text as sent (with the code) is sealed in body_enc, `body` has the code masked.
-- 'return_code' is the returns' SMS (notifications/006, issue 21 too), kept when both have landed.
ALTER TABLE notifications.sms_messages DROP CONSTRAINT IF EXISTS sms_messages_kind_check;
ALTER TABLE notifications.sms_messages
  ADD CONSTRAINT sms_messages_kind_check
  CHECK (kind IN ('pickup', 'pickup_reminder', 'pickup_expired', 'return_code', 'redirect_code'));
