-- Issue 45 A (decision 0065): the same one-time codes pair a courier's phone. A code is for a
-- relay point (relay_code, exchanged for an agent key) or for a courier (courier_id, exchanged for
-- a staff key of role courier), never both; the key it gave is in agent_key_id or staff_key_id.
-- auth.pairing_codes holds a few codes per device ever paired (hundreds of rows), so its short
-- locks here stop nobody.
ALTER TABLE auth.pairing_codes ADD COLUMN courier_id uuid;
-- lock-ok: pairing_codes holds a few hundred rows (one per phone paired)
ALTER TABLE auth.pairing_codes ADD COLUMN staff_key_id uuid REFERENCES auth.staff_keys (id);
-- lock-ok: pairing_codes holds a few hundred rows (one per phone paired)
ALTER TABLE auth.pairing_codes ALTER COLUMN relay_code DROP NOT NULL;
-- lock-ok: pairing_codes holds a few hundred rows (one per phone paired)
ALTER TABLE auth.pairing_codes ADD CONSTRAINT pairing_codes_one_subject CHECK ((relay_code IS NULL) <> (courier_id IS NULL));
