import Joi from "joi";
import relayPoints from "../../../resources/relay-points.json";
import { distanceKm } from "../../../lib/geo";
import { positionProblems, relayPointDirectoryKeys, RelayPointEntry } from "../../../lib/relay-points";
import {
  planRelayPointSearch,
  relaySearchProblems,
  RelayPointSearchQuery,
  RelayPointSearchSchema,
  searchRelayPoints
} from "../../../services/parcels/relay-search";
import { FOLD_FROM, FOLD_TO, foldSearchText } from "../../../services/parcels/search-text";

const directory: RelayPointEntry[] = relayPoints;
const ALGER_CENTRE = { latitude: 36.7538, longitude: 3.0588 };

/** Validates a query as the validation middleware does (no conversion except where a rule asks). */
function validate(query: Record<string, unknown>): { value?: RelayPointSearchQuery; problems: { field: string; message: string }[] } {
  const { error, value } = RelayPointSearchSchema.validate(query, {
    abortEarly: false,
    convert: false,
    errors: { wrap: { label: false } }
  });
  const problems = (error?.details ?? []).map(d => ({ field: d.path.join("."), message: d.message }));
  return { value: error ? undefined : value, problems };
}

function search(query: Record<string, unknown>) {
  const { value, problems } = validate(query);
  if (!value) throw new Error(JSON.stringify(problems));
  return searchRelayPoints(directory, value);
}

describe("search query validation", () => {
  it("takes query-string text and types it", () => {
    expect(validate({ wilaya: "9", near: "36.7538,3.0588", radiusKm: "15", page: "1", size: "5", city: " Blida " }).value).toEqual({
      wilaya: "09",
      // Spaces stay: the search folds them away (services/parcels/search-text.ts).
      city: " Blida ",
      near: ALGER_CENTRE,
      radiusKm: 15,
      page: 1,
      size: 5
    });
    expect(validate({}).value).toEqual({ page: 0, size: 20 });
  });

  it("names the field of each problem, all at once", () => {
    expect(validate({ wilaya: "70", commune: "9999", near: "36.7;3.05", radiusKm: "600", size: "0" }).problems).toEqual([
      { field: "wilaya", message: "wilaya must be a wilaya number, 01 to 69" },
      { field: "commune", message: "commune must be the four-digit ONS code of a commune (2820 for Bou Saâda)" },
      { field: "near", message: "near must be LAT,LNG in decimal degrees with a dot, e.g. 36.7538,3.0588" },
      { field: "radiusKm", message: "radiusKm must be at most 500 km" },
      { field: "size", message: "size must be greater than or equal to 1" }
    ]);
    expect(validate({ near: "91,3" }).problems).toEqual([{ field: "near", message: "near has a latitude outside -90 to 90" }]);
  });

  it("an empty value is no filter, as a form sends it", () => {
    expect(validate({ wilaya: "", commune: "", city: "", q: "", near: "", radiusKm: "" }).value).toEqual({ page: 0, size: 20 });
  });

  it("a radius needs a position: refused on its own field after Joi", () => {
    expect(relaySearchProblems(validate({ radiusKm: "5" }).value!)).toEqual([
      { field: "radiusKm", message: "radiusKm needs near=LAT,LNG" }
    ]);
    expect(relaySearchProblems(validate({ radiusKm: "5", near: "36.7,3.05" }).value!)).toEqual([]);
    expect(relaySearchProblems(validate({ near: "36.7,3.05" }).value!)).toEqual([]);
  });
});

describe("searchRelayPoints (the reference the SQL must match)", () => {
  it("without filters: active points only, by code, paged", () => {
    const first = search({ size: "10" });
    const active = directory.filter(p => p.active);
    expect(first.totalElements).toBe(active.length);
    expect(first.totalPages).toBe(Math.ceil(active.length / 10));
    expect(first.items.map(i => i.code)).toEqual(
      active
        .map(p => p.code)
        .sort()
        .slice(0, 10)
    );
    expect(first.items[0]).not.toHaveProperty("distanceKm");
    const codes = Array.from({ length: first.totalPages }, (_, page) =>
      search({ size: "10", page: String(page) }).items.map(i => i.code)
    ).flat();
    expect(codes).toEqual(active.map(p => p.code).sort());
    expect(codes).not.toContain("DZ-16-BIR-MOURAD-RAIS");
  });

  it("filters by wilaya, and by city without caring for accents, case or script", () => {
    expect(search({ wilaya: "31" }).items.map(i => i.code)).toEqual([
      "DZ-31-BIR-EL-DJIR",
      "DZ-31-ES-SENIA",
      "DZ-31-ORAN-CENTRE",
      "DZ-31-ORAN-HAI-ESSALEM"
    ]);
    expect(search({ city: "setif" }).items.map(i => i.code)).toEqual(["DZ-19-SETIF-CENTRE"]);
    expect(search({ city: "BORDJ-BOU-ARRERIDJ" }).items.map(i => i.code)).toEqual(["DZ-34-BORDJ-BOU-ARRERIDJ"]);
    expect(search({ city: "msila" }).items.map(i => i.code)).toEqual(["DZ-28-MSILA-CENTRE"]);
    expect(search({ city: "وهران" }).items.map(i => i.code)).toEqual(["DZ-31-ORAN-CENTRE", "DZ-31-ORAN-HAI-ESSALEM"]);
    expect(search({ city: "اولاد جلال" }).items.map(i => i.code)).toEqual(["DZ-51-OULED-DJELLAL"]);
    expect(search({ city: "Oran", wilaya: "16" }).totalElements).toBe(0);
  });

  it("a wilaya of 2026 finds its points; its parent finds them too, flagged with formerWilaya, during the transition", () => {
    expect(search({ wilaya: "68" }).items.map(i => [i.code, i.wilaya, i.formerWilaya])).toEqual([["DZ-68-BOU-SAADA", "68", "28"]]);
    expect(search({ wilaya: "28" }).items.map(i => [i.code, i.wilaya, i.formerWilaya])).toEqual([
      ["DZ-28-MSILA-CENTRE", "28", null],
      ["DZ-68-BOU-SAADA", "68", "28"]
    ]);
    // Djelfa lost two wilayas' worth of communes.
    expect(search({ wilaya: "17" }).items.map(i => i.code)).toEqual(["DZ-17-DJELFA-CENTRE", "DZ-65-AIN-OUESSARA", "DZ-66-MESSAAD"]);
    expect(search({ wilaya: "65" }).items.map(i => i.code)).toEqual(["DZ-65-AIN-OUESSARA"]);
  });

  it("filters by commune, and names it in both scripts", () => {
    const [point, ...none] = search({ commune: "2820" }).items;
    expect(none).toEqual([]);
    expect(point).toMatchObject({ code: "DZ-68-BOU-SAADA", commune: "2820", communeName: "Bou Saâda", communeNameAr: "بوسعادة" });
    expect(search({ commune: "3101" }).items.map(i => i.code)).toEqual(["DZ-31-ORAN-CENTRE", "DZ-31-ORAN-HAI-ESSALEM"]);
    // Filters combine: Bou Saâda's commune is not in Djelfa.
    expect(search({ commune: "2820", wilaya: "17" }).totalElements).toBe(0);
  });

  it("q looks into code, names, city and address", () => {
    expect(search({ q: "didouche" }).items.map(i => i.code)).toEqual(["DZ-16-ALGER-CENTRE", "DZ-21-SKIKDA-CENTRE"]);
    expect(search({ q: "rue didouche mourad, alger" }).items.map(i => i.code)).toEqual(["DZ-16-ALGER-CENTRE"]);
    expect(search({ q: "Librairie" }).totalElements).toBeGreaterThan(5);
    expect(search({ q: "مكتبة سيرتا" }).items.map(i => i.code)).toEqual(["DZ-25-CONSTANTINE-CENTRE"]);
    expect(search({ q: "dz-13" }).items.map(i => i.code)).toEqual(["DZ-13-IMAMA", "DZ-13-TLEMCEN-CENTRE"]);
    // Punctuation alone filters nothing.
    expect(search({ q: "--" }).totalElements).toBe(search({}).totalElements);
  });

  it("near: within 20 km by default, nearest first, with the distance", () => {
    const page = search({ near: "36.7538,3.0588" });
    expect(page.items.length).toBeGreaterThanOrEqual(6);
    const distances = page.items.map(i => i.distanceKm!);
    expect(distances).toEqual([...distances].sort((a, b) => a - b));
    expect(Math.max(...distances)).toBeLessThanOrEqual(20);
    for (const item of page.items) {
      expect(item.distanceKm).toBeCloseTo(distanceKm(ALGER_CENTRE, { latitude: item.latitude!, longitude: item.longitude! }), 2);
    }
    expect(page.items[0].code).toBe("DZ-16-ALGER-CENTRE");
    // Every active point inside 20 km is there: the pre-filter box lost none.
    const expected = directory.filter(p => p.active && distanceKm(ALGER_CENTRE, { latitude: p.latitude!, longitude: p.longitude! }) <= 20);
    expect(page.totalElements).toBe(expected.length);
  });

  it("near with a radius and other filters", () => {
    const oran = search({ near: "35.6971,-0.6308", radiusKm: "5" }).items.map(i => i.code);
    expect(oran.slice(0, 2).sort()).toEqual(["DZ-31-ORAN-CENTRE", "DZ-31-ORAN-HAI-ESSALEM"]);
    expect(oran).not.toContain("DZ-31-ES-SENIA");
    const far = search({ near: "36.7538,3.0588", radiusKm: "500", wilaya: "31" });
    expect(far.items.every(i => i.wilaya === "31")).toBe(true);
    expect(far.items[0].distanceKm).toBeGreaterThan(340);
    expect(search({ near: "48.8566,2.3522", radiusKm: "100" }).totalElements).toBe(0);
  });

  it("answers only the documented fields, nothing of the operator's", () => {
    const [item] = search({ near: "36.7538,3.0588", size: "1" }).items;
    expect(Object.keys(item).sort()).toEqual(
      [
        "address",
        "city",
        "code",
        "commune",
        "communeName",
        "communeNameAr",
        "distanceKm",
        "formerWilaya",
        "latitude",
        "longitude",
        "name",
        "nameAr",
        "openingHours",
        "wilaya"
      ].sort()
    );
  });

  it("plans a bounding box for the SQL pre-filter", () => {
    const plan = planRelayPointSearch({ near: ALGER_CENTRE, page: 2, size: 10 });
    expect(plan.near?.radiusKm).toBe(20);
    expect(plan.offset).toBe(20);
    expect(plan.near!.box.minLatitude).toBeLessThan(ALGER_CENTRE.latitude);
    expect(plan.near!.box.maxLongitude).toBeGreaterThan(ALGER_CENTRE.longitude);
    expect(planRelayPointSearch({ city: "Sétif", q: "  ", page: 0, size: 20 })).toMatchObject({
      cityKey: "setif",
      textKey: null,
      near: null
    });
  });
});

describe("foldSearchText", () => {
  it("folds accents, case, spaces and punctuation, and the variants of Arabic letters", () => {
    expect(foldSearchText("Bordj Bou Arréridj")).toBe("bordjbouarreridj");
    expect(foldSearchText("M'Sila")).toBe("msila");
    expect(foldSearchText("ÉL EULMA")).toBe("eleulma");
    expect(foldSearchText("Aïn Témouchent")).toBe("aintemouchent");
    expect(foldSearchText("أولاد جلال")).toBe(foldSearchText("اولاد جلال"));
    expect(foldSearchText("مكتبةُ")).toBe("مكتبه");
    expect(foldSearchText("عـــنابة")).toBe("عنابه");
    expect(foldSearchText("RP ١٢٣")).toBe("rp123");
  });

  it("its two tables line up (one character each, tatweel dropped)", () => {
    expect([...FOLD_FROM].length).toBe([...FOLD_TO].length + 1);
  });
});

describe("relayPointDirectoryKeys (back-office)", () => {
  const schema = Joi.object(relayPointDirectoryKeys());
  const check = (value: object) => schema.validate(value, { abortEarly: false, convert: false, errors: { wrap: { label: false } } });

  it("defaults everything to null and takes a full entry", () => {
    expect(check({}).value).toEqual({ nameAr: null, cityAr: null, latitude: null, longitude: null, openingHours: null });
    const { error } = check({
      nameAr: directory[0].nameAr,
      cityAr: directory[0].cityAr,
      latitude: 36.7,
      longitude: 3.05,
      openingHours: directory[0].openingHours
    });
    expect(error).toBeUndefined();
  });

  it("a latitude needs its longitude (named when missing), and coordinates stay on Earth", () => {
    const problems = (value: object) => positionProblems(check(value).value as { latitude: number | null; longitude: number | null });
    expect(problems({ latitude: 36.7 })).toEqual([
      { field: "longitude", message: "longitude is required beside latitude (give both, or neither)" }
    ]);
    expect(problems({ latitude: 36.7, longitude: null })).toEqual(problems({ latitude: 36.7 }));
    expect(problems({ longitude: 3.05, latitude: null })).toEqual([
      { field: "latitude", message: "latitude is required beside longitude (give both, or neither)" }
    ]);
    expect(problems({ longitude: 3.05 })).toEqual(problems({ longitude: 3.05, latitude: null }));
    expect(problems({ latitude: 0, longitude: 0 })).toEqual([]);
    expect(problems({})).toEqual([]);
    expect(check({ latitude: 91, longitude: 181 }).error?.details.map(d => d.message)).toEqual([
      "latitude must be less than or equal to 90",
      "longitude must be less than or equal to 180"
    ]);
  });

  it("checks opening hours field by field", () => {
    const hours = { ...directory[0].openingHours!, fri: [{ open: "18:00", close: "08:00" }] };
    expect(check({ openingHours: hours }).error?.details.map(d => d.path.join("."))).toEqual(["openingHours.fri.0"]);
  });
});
