-- migrate: no-transaction
-- The erased SMS, oldest first: deleted SMS_LOG_RETENTION_DAYS after they were written
-- (services/notifications/retention.store.ts, decision 0062). Built CONCURRENTLY.
CREATE INDEX CONCURRENTLY IF NOT EXISTS sms_messages_prune_due ON notifications.sms_messages (created_at) WHERE erased_at IS NOT NULL;
