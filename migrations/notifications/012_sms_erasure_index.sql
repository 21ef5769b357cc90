-- migrate: no-transaction
-- The SMS not yet erased, oldest first (services/notifications/retention.ts). Built CONCURRENTLY.
CREATE INDEX CONCURRENTLY IF NOT EXISTS sms_messages_erasure_due ON notifications.sms_messages (created_at) WHERE erased_at IS NULL;
