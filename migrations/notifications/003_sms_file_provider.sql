-- SMS_PROVIDER=file (a developer's phone: the SMS written to DATA_DIR/sms-outbox.jsonl).
ALTER TABLE notifications.sms_messages DROP CONSTRAINT sms_messages_provider_check;
ALTER TABLE notifications.sms_messages ADD CONSTRAINT sms_messages_provider_check CHECK (provider IN ('log', 'http', 'file'));
