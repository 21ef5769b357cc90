import { directoryText } from "./directory-text";
import type { FieldProblem } from "./errors";
import { Joi } from "./joi";
import { isValidLatLng, LatLng } from "./geo";
import { OpeningHours, openingHoursSchema } from "./opening-hours";

/**
 * A relay point of the directory: what `resources/relay-points.json` ships, what
 * `parcels.relay_points` stores (migration 004) and what the back-office sets. The optional
 * fields are null for points an operator created before the directory had them.
 */
export interface RelayPointEntry {
  /** DZ-<wilaya>-<NAME>, e.g. DZ-16-ALGER-CENTRE (SPEC §2.2); never changes, even when the point's wilaya does (2026). */
  code: string;
  name: string;
  /** Name in Arabic script, for Arabic pages and labels. */
  nameAr: string | null;
  city: string;
  cityAr: string | null;
  /** Two digits, "01" to "69" (resources/wilayas.json); the commune's wilaya when the commune is known. */
  wilaya: string | null;
  /** The commune's ONS code, four digits (resources/communes.json); null when not given. */
  commune: string | null;
  /**
   * The wilaya the point's place belonged to before law 26-06 (2026), for a point in wilayas 59–69
   * (lib/wilayas.ts formerWilayaOf); a search for it still finds the point. Null elsewhere.
   */
  formerWilaya: string | null;
  address: string | null;
  latitude: number | null;
  longitude: number | null;
  openingHours: OpeningHours | null;
  active: boolean;
}

export const DIRECTORY_NAME_MAX = 200;
export const DIRECTORY_CITY_MAX = 100;

/**
 * The directory fields beside code/name/city/wilaya/commune/address/active, for the back-office's
 * relay-point schema: `Joi.object({ ...existingKeys, ...relayPointDirectoryKeys() })`.
 * A latitude needs its longitude and the other way round: `positionProblems` says so after Joi
 * (the table checks it too).
 */
export const relayPointDirectoryKeys = () => ({
  nameAr: directoryText(DIRECTORY_NAME_MAX)
    .allow(null)
    .default(null)
    .description("Name in Arabic script, for Arabic pages.")
    .example("مكتبة ديدوش"),
  cityAr: directoryText(DIRECTORY_CITY_MAX).allow(null).default(null).description("City in Arabic script.").example("الجزائر الوسطى"),
  latitude: Joi.number()
    .min(-90)
    .max(90)
    .allow(null)
    .default(null)
    .description("Latitude in decimal degrees (WGS 84), -90 to 90; given with longitude, or both null.")
    .example(36.76695),
  longitude: Joi.number()
    .min(-180)
    .max(180)
    .allow(null)
    .default(null)
    .description("Longitude in decimal degrees (WGS 84), -180 to 180; given with latitude, or both null.")
    .example(3.05287),
  openingHours: openingHoursSchema()
    .allow(null)
    .default(null)
    .description("Opening hours in Algiers time, every weekday present ([] when closed all day); null when unknown.")
});

/** A position is both coordinates or neither; the field named is the one missing. */
export function positionProblems(p: { latitude: number | null; longitude: number | null }): FieldProblem[] {
  if ((p.latitude === null) === (p.longitude === null)) return [];
  const missing = p.latitude === null ? "latitude" : "longitude";
  const given = missing === "latitude" ? "longitude" : "latitude";
  return [{ field: missing, message: `${missing} is required beside ${given} (give both, or neither)` }];
}

/** The position of a point, when it has one. */
export function positionOf(entry: Pick<RelayPointEntry, "latitude" | "longitude">): LatLng | null {
  return isValidLatLng(entry) ? { latitude: entry.latitude, longitude: entry.longitude } : null;
}
