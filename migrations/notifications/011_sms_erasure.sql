-- Issue 48, retention (decision 0061): when an SMS's number and text were erased, PII_RETENTION_DAYS
-- after it was written. Nullable without a default: adding it rewrites nothing.
ALTER TABLE notifications.sms_messages ADD COLUMN erased_at timestamptz;
