import { Joi } from "./joi";

/** Decimal degrees, WGS 84 (what phones and maps give). */
export interface LatLng {
  latitude: number;
  longitude: number;
}

/** Mean Earth radius (IUGG); the great-circle error against the ellipsoid stays under 0.5 %. */
export const EARTH_RADIUS_KM = 6371.0088;

export const MAX_RADIUS_KM = 500;
export const DEFAULT_RADIUS_KM = 20;

const toRadians = (degrees: number) => (degrees * Math.PI) / 180;

/** Great-circle distance in km (haversine: well conditioned at the short distances we sort by). */
export function distanceKm(a: LatLng, b: LatLng): number {
  const dLat = toRadians(b.latitude - a.latitude);
  const dLng = toRadians(b.longitude - a.longitude);
  const h = Math.sin(dLat / 2) ** 2 + Math.cos(toRadians(a.latitude)) * Math.cos(toRadians(b.latitude)) * Math.sin(dLng / 2) ** 2;
  return 2 * EARTH_RADIUS_KM * Math.asin(Math.min(1, Math.sqrt(h)));
}

export function isValidLatLng(p: { latitude: unknown; longitude: unknown }): p is LatLng {
  return (
    typeof p.latitude === "number" &&
    typeof p.longitude === "number" &&
    Number.isFinite(p.latitude) &&
    Number.isFinite(p.longitude) &&
    Math.abs(p.latitude) <= 90 &&
    Math.abs(p.longitude) <= 180
  );
}

/** Plain decimal degrees with a dot; no exponent, no hex, no comma decimals (the comma separates). */
const NEAR = /^\s*([+-]?\d{1,3}(?:\.\d{1,12})?)\s*,\s*([+-]?\d{1,3}(?:\.\d{1,12})?)\s*$/;

export type NearProblem = "format" | "latitude" | "longitude";

/** `"36.7538,3.0588"` → `{ latitude: 36.7538, longitude: 3.0588 }`, or what is wrong with it. */
export function parseLatLng(text: string): { ok: true; value: LatLng } | { ok: false; problem: NearProblem } {
  const match = typeof text === "string" ? NEAR.exec(text) : null;
  if (!match) return { ok: false, problem: "format" };
  const latitude = Number(match[1]);
  const longitude = Number(match[2]);
  if (Math.abs(latitude) > 90) return { ok: false, problem: "latitude" };
  if (Math.abs(longitude) > 180) return { ok: false, problem: "longitude" };
  // -0 would print as "-0" in a Location or an echo of the query.
  return { ok: true, value: { latitude: latitude + 0, longitude: longitude + 0 } };
}

/** The `near=LAT,LNG` query parameter: validated text in, `LatLng` out. */
export const nearSchema = () =>
  Joi.string()
    .max(60)
    .custom((text: string, helpers) => {
      const parsed = parseLatLng(text);
      return parsed.ok ? parsed.value : helpers.error(`near.${parsed.problem}`);
    })
    .messages({
      "near.format": "{{#label}} must be LAT,LNG in decimal degrees with a dot, e.g. 36.7538,3.0588",
      "near.latitude": "{{#label}} has a latitude outside -90 to 90",
      "near.longitude": "{{#label}} has a longitude outside -180 to 180"
    })
    .meta({ openapi: { pattern: NEAR.source, examples: ["36.7538,3.0588"] } });

/** `radiusKm`: more than 0, at most 500; query text is converted here. */
export const radiusKmSchema = () =>
  Joi.number()
    .greater(0)
    .max(MAX_RADIUS_KM)
    .prefs({ convert: true })
    .messages({ "number.greater": "{{#label}} must be more than 0 km", "number.max": `{{#label}} must be at most ${MAX_RADIUS_KM} km` });

export interface BoundingBox {
  minLatitude: number;
  maxLatitude: number;
  minLongitude: number;
  maxLongitude: number;
}

/**
 * A latitude/longitude box that contains every point within `radiusKm` of `center`, for an
 * index-friendly SQL pre-filter (`latitude BETWEEN … AND longitude BETWEEN …`) before the exact
 * distance. Near a pole, or across the ±180° meridian, longitude is not bounded at all: the box
 * is then wider than needed, never too narrow.
 */
export function boundingBox(center: LatLng, radiusKm: number): BoundingBox {
  const dLat = (radiusKm / EARTH_RADIUS_KM) * (180 / Math.PI);
  const minLatitude = center.latitude - dLat;
  const maxLatitude = center.latitude + dLat;
  if (minLatitude <= -90 || maxLatitude >= 90) {
    return { minLatitude: Math.max(minLatitude, -90), maxLatitude: Math.min(maxLatitude, 90), minLongitude: -180, maxLongitude: 180 };
  }
  // The widest longitude span of the circle is at the latitude where it touches its meridians.
  const dLng = Math.asin(Math.sin(radiusKm / EARTH_RADIUS_KM) / Math.cos(toRadians(center.latitude))) * (180 / Math.PI);
  const minLongitude = center.longitude - dLng;
  const maxLongitude = center.longitude + dLng;
  if (!Number.isFinite(dLng) || minLongitude < -180 || maxLongitude > 180) {
    return { minLatitude, maxLatitude, minLongitude: -180, maxLongitude: 180 };
  }
  return { minLatitude, maxLatitude, minLongitude, maxLongitude };
}

export function insideBox(p: LatLng, box: BoundingBox): boolean {
  return (
    p.latitude >= box.minLatitude && p.latitude <= box.maxLatitude && p.longitude >= box.minLongitude && p.longitude <= box.maxLongitude
  );
}

/** Distances as the API shows them: to the 10 m. */
export function roundKm(km: number): number {
  return Math.round(km * 100) / 100;
}
