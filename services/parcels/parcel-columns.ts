/**
 * The columns of a ParcelRow, for the hot statements: fewer than `*` (the table has more, e.g. the
 * compensation claim and the search text), and a fixed result for a named statement, which
 * PostgreSQL refuses to re-plan into other columns if a migration adds some (lib/db/statement.ts).
 */
export const PARCEL_COLUMNS =
  "id, organization_id, mode, tracking_number, status, destination_relay_code, recipient_name_enc, recipient_phone_enc, " +
  "weight_g, length_cm, width_cm, height_cm, declared_value_centimes, cod_amount_centimes, price_centimes, idempotency_key, " +
  "request_fingerprint, refund_pending, cod_status, cod_cash_at, pickup_pin_enc, pickup_pin_failures, pickup_deadline, pickup_reminded_for, " +
  "pickup_extended_days, return_fee_centimes, return_fee_pending, direction, return_of, origin_relay_code, " +
  "recipient_phone_mobile, recipient_language, created_at, updated_at, custody_holder, custody_since, custody_name, custody_wilaya";
