-- One pick-up SMS per parcel event (event_id is unique): a redelivered outbox event never
-- produces a second message.
--
-- Life of a row: 'pending' (due at next_attempt_at) → 'sent' (the provider took it) or 'failed'
-- (attempts used up, or refused for good). A 'sent' row with notified_at NULL still owes the
-- parcels service its RELAY_NOTIFIED transition and is picked up again at next_attempt_at.
-- A worker claims a due row by pushing next_attempt_at forward by a lease and stamping
-- lease_token; it finishes only rows still carrying its token.
CREATE TABLE notifications.sms_messages (
  id uuid PRIMARY KEY,
  event_id uuid NOT NULL UNIQUE,
  parcel_id uuid NOT NULL,
  organization_id uuid NOT NULL,
  -- AES-256-GCM (lib/crypto encryptField, ENCRYPTION_KEY); the number is never stored in clear.
  phone_enc text NOT NULL,
  body text NOT NULL,
  provider text NOT NULL CHECK (provider IN ('log', 'http')),
  status text NOT NULL DEFAULT 'pending' CHECK (status IN ('pending', 'sent', 'failed')),
  attempts integer NOT NULL DEFAULT 0,
  next_attempt_at timestamptz,
  lease_token uuid,
  last_error text,
  provider_message_id text,
  sent_at timestamptz,
  notified_at timestamptz,
  notify_attempts integer NOT NULL DEFAULT 0,
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now(),
  CHECK ((status = 'sent') = (sent_at IS NOT NULL)),
  CHECK (notified_at IS NULL OR status = 'sent')
);

-- The worker's work list: messages to send, and sent messages whose transition is still owed.
CREATE INDEX sms_messages_due ON notifications.sms_messages (next_attempt_at)
  WHERE status = 'pending' OR (status = 'sent' AND notified_at IS NULL);
CREATE INDEX sms_messages_by_parcel ON notifications.sms_messages (parcel_id, created_at);
