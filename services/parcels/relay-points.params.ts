import { Joi } from "../../lib/joi";
import { arrayOf, component, nullable, objectOf } from "../../lib/openapi/json-schema";
import type { JsonSchema } from "../../lib/openapi/types";
import { MAX_RANGES_PER_DAY, OpeningHours, TimeRange, WEEKDAYS } from "../../lib/opening-hours";
import { pageSchema } from "../../lib/parcel-view";
import { directoryText } from "../../lib/directory-text";
import { DIRECTORY_CITY_MAX, DIRECTORY_NAME_MAX, relayPointDirectoryKeys, RelayPointEntry } from "../../lib/relay-points";
import type { RelayPointResult } from "./relay-search";
import { relayCode } from "../../lib/schemas";
import { communeCodeSchema, COMMUNE_CODE_PATTERN } from "../../lib/communes";
import { formerWilayaOf, WILAYAS, wilayaCodeSchema } from "../../lib/wilayas";
import type { ClosureStatus } from "./relay/closures";
import { ClosureRefSchema } from "./relay/closures.params";
import { RELAY_SETTINGS_FIELDS, relaySettingsKeys } from "./relay/relay.params";
import type { RelayPointWithSettings } from "./relay/relay-settings";

/**
 * The relay-point directory's params and answers: the back-office's add-or-replace and list, and
 * the partner search (services/parcels/relay-search.ts holds its query schema and semantics).
 */

export { RelayPointSearchSchema, type RelayPointSearchQuery } from "./relay-search";

/**
 * A relay point as the back-office sends it: its directory entry, and its shelf's settings (null
 * holding days: the platform's). Its former wilaya follows from its wilaya (relay-place.ts): it is
 * taken only so that a point read from the list can be sent back as it is.
 */
export type RelayPointParams = Omit<RelayPointEntry, "formerWilaya"> & {
  formerWilaya?: string | null;
  capacity: number;
  holdingDays: number | null;
};
export const RelayPointSchema = Joi.object<RelayPointParams, true>({
  code: relayCode()
    .required()
    .description("Public code: DZ- then 3 to 30 characters among A-Z, 0-9 and hyphen.")
    .example("DZ-16-ALGER-CENTRE"),
  name: directoryText(DIRECTORY_NAME_MAX).required().example("Librairie Didouche"),
  city: directoryText(DIRECTORY_CITY_MAX).required().example("Alger Centre"),
  wilaya: wilayaCodeSchema()
    .allow(null)
    .default(null)
    .description("Wilaya number, 1 to 69; stored on two digits. With a commune, it may be left out: the commune's wilaya is the point's."),
  commune: communeCodeSchema()
    .allow(null)
    .default(null)
    .description(
      "The commune's ONS code (four digits, resources/communes.json: 2820 for Bou Saâda). It decides the wilaya: " +
        "a wilaya sent beside it must be the commune's (400 COMMUNE_NOT_IN_WILAYA otherwise)."
    ),
  formerWilaya: Joi.string()
    .pattern(/^[0-9]{2}$/)
    .allow(null)
    .description(
      "Read only: it follows from the wilaya (28 for a point of Bou Saâda, 68). Taken so that a point read from the list can be " +
        "sent back as it is; any other value is refused (400 naming formerWilaya)."
    ),
  address: directoryText(300).allow(null).default(null).example("42 Rue Didouche Mourad"),
  active: Joi.boolean().default(true).description("An inactive point refuses new parcels and is not found by the search."),
  ...relayPointDirectoryKeys(),
  ...relaySettingsKeys()
});

export const RELAY_POINT_DESCRIPTION =
  "Creates the relay point, or replaces the one with the same code (an optional field left out becomes null, capacity 150); new parcels " +
  "may be sent to it at once when it is active. Its commune, when given, decides its wilaya; a point in one of the eleven wilayas of " +
  "2026 (59 to 69) answers with formerWilaya, the wilaya it was carved from, which searches still find it by. " +
  "latitude and longitude go together (400 naming the missing one). The shipped " +
  "directory fills, at each start, only what a point lacks (Arabic names, position, opening hours, its commune): it never overwrites what was set here.";

// --- answers ------------------------------------------------------------------------------------

const TIME_RANGE = objectOf<TimeRange>(
  {
    open: { type: "string", pattern: "^([01][0-9]|2[0-3]):[0-5][0-9]$", examples: ["08:30"] },
    close: { type: "string", pattern: "^(([01][0-9]|2[0-3]):[0-5][0-9]|24:00)$", examples: ["12:30"] }
  },
  { description: "A range of one day, in Algiers time; close is after open (24:00 for midnight)." }
);

export const OpeningHoursSchema = component(
  "OpeningHours",
  objectOf<OpeningHours>(
    Object.fromEntries(
      WEEKDAYS.map(day => [day, { ...arrayOf(TIME_RANGE, "Ranges in order; [] when closed all day."), maxItems: MAX_RANGES_PER_DAY }])
    ) as Record<(typeof WEEKDAYS)[number], JsonSchema>,
    {
      description: "Opening hours in Algiers local time, every weekday present (Friday is often closed).",
      examples: [
        {
          sat: [
            { open: "08:30", close: "12:30" },
            { open: "14:00", close: "18:30" }
          ],
          sun: [{ open: "08:30", close: "18:30" }],
          mon: [{ open: "08:30", close: "18:30" }],
          tue: [{ open: "08:30", close: "18:30" }],
          wed: [{ open: "08:30", close: "18:30" }],
          thu: [{ open: "08:30", close: "12:30" }],
          fri: []
        }
      ]
    }
  )
);

export const latitude: JsonSchema = {
  type: ["number", "null"],
  minimum: -90,
  maximum: 90,
  description: "Decimal degrees (WGS 84); null when unknown."
};
export const longitude: JsonSchema = {
  type: ["number", "null"],
  minimum: -180,
  maximum: 180,
  description: "Decimal degrees (WGS 84); null when unknown."
};
const WILAYA_CODES = WILAYAS.map(w => w.code);

export const wilaya: JsonSchema = {
  type: ["string", "null"],
  enum: [...WILAYA_CODES, null],
  description: "Wilaya number on two digits, 01 to 69 (law 26-06 of 2026 created 59 to 69).",
  examples: ["16", "68"]
};

export const formerWilaya: JsonSchema = {
  type: ["string", "null"],
  enum: [...new Set(WILAYA_CODES.map(formerWilayaOf).filter(code => code !== null)), null],
  description:
    "For a point in one of the eleven wilayas created in 2026 (59 to 69), the wilaya its place belonged to before: a search " +
    "by that wilaya still finds the point during the transition, so that customers who still give the old wilaya find it. " +
    "Null elsewhere. The point's code never changed.",
  examples: ["28"]
};

export const communeName: JsonSchema = {
  type: ["string", "null"],
  description: "The commune's name (French); null without a commune.",
  examples: ["Bou Saâda"]
};
export const communeNameAr: JsonSchema = {
  type: ["string", "null"],
  description: "The commune's name in Arabic script.",
  examples: ["بوسعادة"]
};

export const commune: JsonSchema = {
  type: ["string", "null"],
  pattern: COMMUNE_CODE_PATTERN,
  description: "The commune's ONS code (four digits); null when the directory does not know it.",
  examples: ["2820"]
};

export const RelayPointView = component(
  "RelayPoint",
  objectOf<RelayPointWithSettings>({
    code: { type: "string" },
    name: { type: "string" },
    nameAr: { type: ["string", "null"] },
    city: { type: "string" },
    cityAr: { type: ["string", "null"] },
    wilaya,
    commune,
    formerWilaya,
    address: { type: ["string", "null"] },
    latitude,
    longitude,
    openingHours: nullable(OpeningHoursSchema),
    active: { type: "boolean" },
    ...RELAY_SETTINGS_FIELDS
  })
);

export const RelayPointListView = arrayOf(RelayPointView);

export const RelayPointResultView = component(
  "RelayPointSearchResult",
  objectOf<RelayPointWithSettings<RelayPointResult> & ClosureStatus>(
    {
      code: { type: "string", description: "The code to send as destinationRelayCode.", examples: ["DZ-16-ALGER-CENTRE"] },
      name: { type: "string" },
      nameAr: { type: ["string", "null"], description: "Its name in Arabic script; null when the directory has none." },
      city: { type: "string" },
      wilaya,
      formerWilaya,
      commune,
      communeName,
      communeNameAr,
      address: { type: ["string", "null"] },
      latitude,
      longitude,
      openingHours: nullable(OpeningHoursSchema),
      distanceKm: {
        type: "number",
        minimum: 0,
        description: "Great-circle distance from near, in km to the 10 m; only when near was given."
      },
      ...RELAY_SETTINGS_FIELDS,
      closures: arrayOf(
        ClosureRefSchema,
        "Its current and future closures, by first day: whole days in Algiers time when it takes no parcel. A parcel to a point " +
          "closed today or within CLOSURE_NOTICE_DAYS days (2) is refused with 409 RELAY_CLOSED."
      ),
      openNow: {
        type: "boolean",
        description: "Open at this moment: not closed today, and within today's opening hours (when they are known)."
      }
    },
    { optional: ["distanceKm"], description: "An active relay point." }
  )
);

export const RelayPointPageView = pageSchema(
  "RelayPointPage",
  RelayPointResultView,
  "The points of this page: nearest first with near, otherwise by code.",
  "One page of relay points."
);

export const RELAY_SEARCH_DESCRIPTION =
  "Active relay points for your checkout: by wilaya (01 to 69; a point of the eleven wilayas of 2026 is also found by the wilaya it " +
  "was carved from, with that wilaya in its `formerWilaya`), by commune, by city (Latin or Arabic script; accents, case and spaces do not " +
  "matter), by text, and around a position (`near=LAT,LNG`, within `radiusKm`, 20 by default, at most 500), nearest first " +
  "with `distanceKm`; otherwise by code; `openOn=YYYY-MM-DD` keeps the points open that day (no closure, open that weekday). " +
  "Each point carries its `closures` (current and future) and `openNow`. Filters combine. Unknown query parameters are refused (400, named), so a typo " +
  "never silently widens the search.";
