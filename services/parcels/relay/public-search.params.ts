import { API_BASE_PATH, RELAY_POINTS_PATH } from "../../../lib/endpoint";
import { arrayOf, component, nullable, objectOf } from "../../../lib/openapi/json-schema";
import { pageSchema } from "../../../lib/parcel-view";
import { commune, communeName, communeNameAr, formerWilaya, latitude, longitude, OpeningHoursSchema, wilaya } from "../relay-points.params";
import { ClosureRefSchema } from "./closures.params";
import type { PublicRelayPoint } from "./public-search";

/** The public relay-point search's answer (its query is the partner search's: relay-search.ts). */

/** Seconds a browser or a shared cache may keep an answer: short, since `openNow` moves with the clock. */
export const PUBLIC_SEARCH_MAX_AGE_SECONDS = 60;

export const PublicRelayPointView = component(
  "PublicRelayPoint",
  objectOf<PublicRelayPoint>(
    {
      code: { type: "string", description: "The code the shop sends as destinationRelayCode.", examples: ["DZ-16-ALGER-CENTRE"] },
      name: { type: "string" },
      nameAr: {
        type: ["string", "null"],
        description: "Its name in Arabic script, for a checkout in Arabic; null when the directory has none."
      },
      address: { type: ["string", "null"] },
      city: { type: "string" },
      wilaya,
      formerWilaya,
      commune,
      communeName,
      communeNameAr,
      latitude,
      longitude,
      openingHours: nullable(OpeningHoursSchema),
      openNow: {
        type: "boolean",
        description: "Open at this moment: not closed today, and within today's opening hours (when they are known)."
      },
      closures: arrayOf(ClosureRefSchema, "Its current and future closures, by first day (whole days, Algiers time)."),
      takesNewParcels: {
        type: "boolean",
        description:
          "A parcel created now may be addressed to it: it is neither closed today or within the notice days (CLOSURE_NOTICE_DAYS, 2) nor full."
      },
      notTakingReason: {
        type: ["string", "null"],
        enum: ["FULL", "CLOSED", null],
        description:
          "Why it takes no new parcel today: CLOSED (a closure meets today or the notice days) or FULL (its shelf is full); null when it does."
      },
      distanceKm: {
        type: "number",
        minimum: 0,
        description: "Great-circle distance from near, in km to the 10 m; only when near was given."
      }
    },
    { optional: ["distanceKm"], description: "An active relay point, as a shop's customer may see it." }
  )
);

export const PublicRelayPointPageView = pageSchema(
  "PublicRelayPointPage",
  PublicRelayPointView,
  "The points of this page: nearest first with near, otherwise by code.",
  "One page of relay points."
);

export const PUBLIC_RELAY_SEARCH_DESCRIPTION =
  `The relay-point search of the partner API (GET ${API_BASE_PATH.partner}${RELAY_POINTS_PATH}: the same filters, the same order, unknown parameters refused) ` +
  "for web pages: no key, callable from a browser on any origin (CORS), so a shop's checkout can let its customer choose a point " +
  "(the relay-point picker, `/widget/v1/relay-point-picker.js`, calls it). Each point carries only what a customer sees: where it " +
  "is (its wilaya, 01 to 69, and for the wilayas of 2026 the `formerWilaya` a search by the old wilaya finds it by; its commune), its opening hours, `openNow`, its closures, and whether it takes a new parcel today (`takesNewParcels`, else " +
  "`notTakingReason`). Answers carry `Cache-Control: public, max-age=60` and an `ETag`: a repeated search with `If-None-Match` " +
  "is a 304 without a body. Limited per client address (PUBLIC_SEARCH_PER_MINUTE, 120 a minute), with the rate-limit headers.";
