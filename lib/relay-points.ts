import { Joi } from "./joi";
import { isValidLatLng, LatLng } from "./geo";
import { OpeningHours, openingHoursSchema } from "./opening-hours";

/**
 * A relay point of the directory: what `resources/relay-points.json` ships, what
 * `parcels.relay_points` stores (migration 004) and what the back-office sets. The optional
 * fields are null for points an operator created before the directory had them.
 */
export interface RelayPointEntry {
  /** DZ-<wilaya>-<NAME>, e.g. DZ-16-ALGER-CENTRE (SPEC §2.2). */
  code: string;
  name: string;
  /** Name in Arabic script, for Arabic pages and labels. */
  nameAr: string | null;
  city: string;
  cityAr: string | null;
  /** Two digits, "01" to "58" (resources/wilayas.json). */
  wilaya: string | null;
  address: string | null;
  latitude: number | null;
  longitude: number | null;
  openingHours: OpeningHours | null;
  active: boolean;
}

export const DIRECTORY_NAME_MAX = 200;
export const DIRECTORY_CITY_MAX = 100;

/**
 * The directory fields beside code/name/city/wilaya/address/active, for the back-office's
 * relay-point schema: `Joi.object({ ...existingKeys, ...relayPointDirectoryKeys() })`.
 * A latitude needs its longitude and the other way round (the table checks it too).
 */
export const relayPointDirectoryKeys = () => ({
  nameAr: Joi.string().min(1).max(DIRECTORY_NAME_MAX).allow(null).default(null),
  cityAr: Joi.string().min(1).max(DIRECTORY_CITY_MAX).allow(null).default(null),
  latitude: Joi.number().min(-90).max(90).allow(null).default(null),
  // Joi cannot make two keys depend on each other; one direction covers both cases.
  longitude: Joi.number()
    .min(-180)
    .max(180)
    .allow(null)
    .default(null)
    .when("latitude", { is: Joi.number().required(), then: Joi.required().invalid(null), otherwise: Joi.valid(null) })
    .messages({
      "any.only": "{{#label}} needs a latitude beside it",
      "any.invalid": "{{#label}} is required beside a latitude",
      "any.required": "{{#label}} is required beside a latitude"
    }),
  openingHours: openingHoursSchema().allow(null).default(null)
});

/** The position of a point, when it has one. */
export function positionOf(entry: Pick<RelayPointEntry, "latitude" | "longitude">): LatLng | null {
  return isValidLatLng(entry) ? { latitude: entry.latitude, longitude: entry.longitude } : null;
}
