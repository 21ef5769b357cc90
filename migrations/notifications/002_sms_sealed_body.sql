-- A pick-up SMS carries the parcel's PIN: the text as sent is kept sealed (AES-256-GCM,
-- ENCRYPTION_KEY) in body_enc, and `body` keeps it with the PIN masked, for listing and support.
ALTER TABLE notifications.sms_messages ADD COLUMN body_enc text;
