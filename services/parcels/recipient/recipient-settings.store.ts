import type { Queryable } from "../../../lib/db/database";
import { DEFAULT_LANG, type Lang } from "../../../lib/languages";
import type { Owner } from "../parcels.store";

/** An organisation's settings for its recipients, per mode (migration parcels/021). */
export interface RecipientSettings {
  /** Refuse (400 RECIPIENT_PHONE_INVALID) a number that cannot take an SMS, instead of a warning. */
  rejectNonMobilePhones: boolean;
  /** The language of a parcel's SMS when the create names none. */
  defaultLanguage: Lang;
}

export const DEFAULT_RECIPIENT_SETTINGS: Readonly<RecipientSettings> = Object.freeze({
  rejectNonMobilePhones: false,
  defaultLanguage: DEFAULT_LANG
});

export async function recipientSettingsOf(db: Queryable, owner: Owner): Promise<RecipientSettings> {
  const [row] = await db.query<{ reject_non_mobile_phones: boolean; default_language: Lang }>(
    "SELECT reject_non_mobile_phones, default_language FROM parcels.recipient_settings WHERE organization_id = $1 AND mode = $2",
    [owner.organizationId, owner.mode]
  );
  return row
    ? { rejectNonMobilePhones: row.reject_non_mobile_phones, defaultLanguage: row.default_language }
    : { ...DEFAULT_RECIPIENT_SETTINGS };
}

export async function setRecipientSettings(db: Queryable, owner: Owner, settings: RecipientSettings): Promise<void> {
  await db.query(
    `INSERT INTO parcels.recipient_settings (organization_id, mode, reject_non_mobile_phones, default_language) VALUES ($1, $2, $3, $4)
     ON CONFLICT (organization_id, mode)
     DO UPDATE SET reject_non_mobile_phones = EXCLUDED.reject_non_mobile_phones, default_language = EXCLUDED.default_language, updated_at = now()`,
    [owner.organizationId, owner.mode, settings.rejectNonMobilePhones, settings.defaultLanguage]
  );
}
