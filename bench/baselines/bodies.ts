/** What the baseline servers answer: bodies captured from the system under test in the same run. */
export interface BaselineBodies {
  port: number;
  /** The JSON of `GET /api/partner/v1/health`. */
  health: string;
  /** The JSON of `GET /api/partner/v1/parcels/{id}`. */
  parcel: string;
  logLevel: string;
}

export const HEALTH_PATH = "/api/partner/v1/health";
export const PARCEL_PATH_PREFIX = "/api/partner/v1/parcels/";
