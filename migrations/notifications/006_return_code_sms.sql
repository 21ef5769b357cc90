-- The return code SMS (issue 21): the customer's return code and its deadline; informs only.
ALTER TABLE notifications.sms_messages DROP CONSTRAINT sms_messages_kind_check;
ALTER TABLE notifications.sms_messages
  ADD CONSTRAINT sms_messages_kind_check CHECK (kind IN ('pickup', 'pickup_reminder', 'pickup_expired', 'return_code'));
