import relayPoints from "../../resources/relay-points.json";
import { distanceKm } from "../../lib/geo";
import { openingHoursSchema, WEEKDAYS } from "../../lib/opening-hours";
import type { RelayPointEntry } from "../../lib/relay-points";
import { RELAY_CODE_PATTERN } from "../../lib/schemas";
import { foldSearchText } from "../../services/parcels/search-text";
import { findCommune } from "../../lib/communes";
import { findWilaya, formerWilayaOf, WILAYAS } from "../../lib/wilayas";

/** The shipped directory: what a fresh install seeds, and what labels and the tracking page print. */

const directory: RelayPointEntry[] = relayPoints;
const TEXT_FIELDS = ["code", "name", "nameAr", "city", "cityAr", "wilaya", "address"] as const;
const ALL_FIELDS = [...TEXT_FIELDS, "commune", "formerWilaya", "latitude", "longitude", "active", "openingHours"];
const ARABIC_LETTERS = /^[\u0621-\u064a\u0671 ]+$/;
/** Mainland and Sahara, with a margin of a few km: Algeria spans 18.97–37.09 N, 8.67 W–11.98 E. */
const ALGERIA = { minLatitude: 18.9, maxLatitude: 37.2, minLongitude: -8.7, maxLongitude: 12.0 };
/** The farthest shipped point is Akbou, 57 km from Béjaïa. */
const MAX_KM_FROM_CHEF_LIEU = 60;

const decimals = (n: number) => (String(n).split(".")[1] ?? "").length;

describe("resources/relay-points.json", () => {
  it("covers every wilaya with at least one active point", () => {
    const covered = new Set(directory.filter(p => p.active).map(p => p.wilaya));
    expect(WILAYAS.filter(w => !covered.has(w.code)).map(w => `${w.code} ${w.name}`)).toEqual([]);
  });

  it.each(directory.map(p => [p.code, p] as const))("%s is complete and well formed", (_code, point) => {
    expect(Object.keys(point).sort()).toEqual([...ALL_FIELDS].sort());
    expect(point.code).toMatch(RELAY_CODE_PATTERN);
    for (const field of TEXT_FIELDS) {
      const value = point[field];
      expect(typeof value).toBe("string");
      expect({ field, value: value?.trim() }).toEqual({ field, value });
      expect(value).not.toBe("");
    }
    expect(point.nameAr).toMatch(ARABIC_LETTERS);
    expect(point.cityAr).toMatch(ARABIC_LETTERS);
    expect(typeof point.active).toBe("boolean");
    // The wilaya number is repeated in the code, and is a real wilaya: its commune's, whose name is the city's.
    expect(findWilaya(point.wilaya ?? "")).toBeDefined();
    expect(point.code.startsWith(`DZ-${point.wilaya}-`)).toBe(true);
    const commune = findCommune(point.commune ?? "");
    expect(commune?.wilaya).toBe(point.wilaya);
    expect(point.formerWilaya).toBe(formerWilayaOf(point.wilaya));
    // The city is the commune, in one script or the other (Ali Mendjeli is a new town of El Khroub's commune).
    const names = new Set([commune!.name, commune!.nameAr, ...(commune!.aliases ?? [])].map(foldSearchText));
    if (point.code !== "DZ-25-ALI-MENDJELI")
      expect(names.has(foldSearchText(point.city)) || names.has(foldSearchText(point.cityAr!))).toBe(true);
  });

  it.each(directory.map(p => [p.code, p] as const))("%s stands in Algeria, near its wilaya's chef-lieu", (_code, point) => {
    const { latitude, longitude } = point;
    if (latitude === null || longitude === null) throw new Error("no position");
    expect(latitude).toBeGreaterThanOrEqual(ALGERIA.minLatitude);
    expect(latitude).toBeLessThanOrEqual(ALGERIA.maxLatitude);
    expect(longitude).toBeGreaterThanOrEqual(ALGERIA.minLongitude);
    expect(longitude).toBeLessThanOrEqual(ALGERIA.maxLongitude);
    // Street-level precision: 5 or 6 decimals is 1 m to 10 m.
    expect(decimals(latitude)).toBeGreaterThanOrEqual(4);
    expect(decimals(longitude)).toBeGreaterThanOrEqual(4);
    const chefLieu = findWilaya(point.wilaya ?? "");
    if (!chefLieu) throw new Error(`unknown wilaya ${point.wilaya}`);
    expect(distanceKm({ latitude, longitude }, chefLieu)).toBeLessThanOrEqual(MAX_KM_FROM_CHEF_LIEU);
  });

  it.each(directory.map(p => [p.code, p] as const))("%s has valid opening hours, open at least one day", (_code, point) => {
    const { error } = openingHoursSchema().validate(point.openingHours, { abortEarly: false, convert: false });
    expect(error?.details.map(d => d.message) ?? []).toEqual([]);
    const hours = point.openingHours;
    if (!hours) throw new Error("no opening hours");
    expect(WEEKDAYS.filter(day => hours[day].length > 0).length).toBeGreaterThanOrEqual(1);
  });

  it("has unique codes and distinct positions", () => {
    const codes = directory.map(p => p.code);
    expect(new Set(codes).size).toBe(codes.length);
    const positions = directory.map(p => `${p.latitude},${p.longitude}`);
    expect(new Set(positions).size).toBe(positions.length);
  });

  it("keeps the codes that merchants, tests and the demo already use, with their state", () => {
    const byCode = new Map(directory.map(p => [p.code, p]));
    expect(byCode.get("DZ-16-ALGER-CENTRE")?.active).toBe(true);
    expect(byCode.get("DZ-31-ORAN-CENTRE")?.active).toBe(true);
    expect(byCode.get("DZ-16-BIR-MOURAD-RAIS")?.active).toBe(false);
  });

  it("has varied hours: Friday closures, Friday afternoons, lunch breaks and late closings", () => {
    const hours = directory.map(p => p.openingHours!);
    expect(hours.some(h => h.fri.length === 0)).toBe(true);
    expect(hours.some(h => h.fri.length > 0 && h.fri[0].open >= "12:00")).toBe(true);
    expect(hours.some(h => h.sat.length >= 2)).toBe(true);
    expect(hours.some(h => h.sat.some(r => r.close >= "21:00"))).toBe(true);
  });
});
