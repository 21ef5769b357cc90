import wilayaList from "../../resources/wilayas.json";
import { distanceKm } from "../../lib/geo";
import { findWilaya, formerWilayaOf, normaliseWilayaCode, WILAYAS, wilayaCodeSchema, wilayaName } from "../../lib/wilayas";

/** The eleven wilayas of law 26-06 (4 April 2026) as the issue lists them: the decree's names, and each one's parent. */
const WILAYAS_OF_2026: [string, string, string][] = [
  ["59", "Aflou", "03"],
  ["60", "Barika", "05"],
  ["61", "El Kantara", "07"],
  ["62", "Bir El Ater", "12"],
  ["63", "El Aricha", "13"],
  ["64", "Ksar Chellala", "14"],
  ["65", "Aïn Ouessara", "17"],
  ["66", "Messaad", "17"],
  ["67", "Ksar El Boukhari", "26"],
  ["68", "Bou Saâda", "28"],
  ["69", "El Abiodh Sidi Cheikh", "32"]
];

describe("resources/wilayas.json", () => {
  it("lists the 69 wilayas, 01 to 69, in order", () => {
    expect(wilayaList.map(w => w.code)).toEqual(Array.from({ length: 69 }, (_, i) => String(i + 1).padStart(2, "0")));
  });

  it.each(wilayaList.map(w => [`${w.code} ${w.name}`, w] as const))("%s has its names and its chef-lieu in Algeria", (_label, wilaya) => {
    const optional = Object.keys(wilaya).filter(k => k === "carvedFrom" || k === "aliases");
    expect(Object.keys(wilaya).sort()).toEqual(["code", "latitude", "longitude", "name", "nameAr", ...optional].sort());
    expect(wilaya.name.trim()).toBe(wilaya.name);
    expect(wilaya.name).not.toBe("");
    expect(wilaya.nameAr).toMatch(/^[\u0621-\u064a ]+$/);
    expect(wilaya.latitude).toBeGreaterThan(18.9);
    expect(wilaya.latitude).toBeLessThan(37.2);
    expect(wilaya.longitude).toBeGreaterThan(-8.7);
    expect(wilaya.longitude).toBeLessThan(12);
  });

  it("names wilayas 59 to 69 as the decree does, each carved from its parent; no older wilaya has a parent", () => {
    expect(WILAYAS.filter(w => w.carvedFrom).map(w => [w.code, w.name, w.carvedFrom])).toEqual(WILAYAS_OF_2026);
    // The dataset's "Aïn Oussera" stays findable as another spelling.
    expect(findWilaya("65")?.aliases).toEqual(["Aïn Oussera"]);
    expect(findWilaya("68")?.nameAr).toBe("بوسعادة");
  });

  it("places chefs-lieux where maps do, the new ones within their parent's reach", () => {
    const at = (code: string) => findWilaya(code)!;
    expect(at("16").name).toBe("Alger");
    expect(at("31").nameAr).toBe("وهران");
    // Great-circle distances: Alger–Oran 351 km, Alger–Constantine 320 km, Alger–Tamanrasset ≈ 1,570 km.
    expect(distanceKm(at("16"), at("31"))).toBeGreaterThan(345);
    expect(distanceKm(at("16"), at("31"))).toBeLessThan(360);
    expect(distanceKm(at("16"), at("25"))).toBeGreaterThan(310);
    expect(distanceKm(at("16"), at("25"))).toBeLessThan(330);
    expect(distanceKm(at("16"), at("11"))).toBeGreaterThan(1540);
    expect(distanceKm(at("16"), at("11"))).toBeLessThan(1600);
    // In Guezzam is the southernmost, Tindouf the westernmost.
    expect(Math.min(...WILAYAS.map(w => w.latitude))).toBe(at("54").latitude);
    expect(Math.min(...WILAYAS.map(w => w.longitude))).toBe(at("37").longitude);
    // Bou Saâda is about 63 km from M'Sila; every new chef-lieu lies within 30 to 120 km of its parent's (El Kantara
    // 41 km from Biskra, El Abiodh Sidi Cheikh 97 km from El Bayadh): a parent mistaken for another would be far off.
    expect(distanceKm(at("68"), at("28"))).toBeGreaterThan(55);
    expect(distanceKm(at("68"), at("28"))).toBeLessThan(75);
    for (const [code, , parent] of WILAYAS_OF_2026) {
      const km = distanceKm(at(code), at(parent));
      expect({ code, near: km > 30 && km < 120 }).toEqual({ code, near: true });
    }
  });
});

describe("the wilaya lookups", () => {
  it("names a wilaya in the reader's script, and nothing for an unknown code", () => {
    expect(wilayaName("68", "fr")).toBe("Bou Saâda");
    expect(wilayaName("68", "en")).toBe("Bou Saâda");
    expect(wilayaName("68", "ar")).toBe("بوسعادة");
    expect(wilayaName("70", "fr")).toBeNull();
    expect(wilayaName(null, "ar")).toBeNull();
  });

  it("gives the former wilaya of the 2026 wilayas only", () => {
    expect(formerWilayaOf("68")).toBe("28");
    expect(formerWilayaOf("65")).toBe("17");
    expect(formerWilayaOf("28")).toBeNull();
    // 2019's wilayas are past their transition.
    expect(formerWilayaOf("49")).toBeNull();
    expect(formerWilayaOf(null)).toBeNull();
  });
});

describe("wilaya codes in requests", () => {
  it("accepts one or two digits of a real wilaya and answers on two digits", () => {
    expect(normaliseWilayaCode("16")).toBe("16");
    expect(normaliseWilayaCode("1")).toBe("01");
    expect(normaliseWilayaCode(" 58 ")).toBe("58");
    expect(normaliseWilayaCode("59")).toBe("59");
    expect(normaliseWilayaCode("69")).toBe("69");
    for (const bad of ["00", "70", "99", "016", "1a", "", "Alger", "-1"])
      expect({ bad, code: normaliseWilayaCode(bad) }).toEqual({ bad, code: null });
  });

  it("the Joi rule names the field and returns the normalised code", () => {
    expect(wilayaCodeSchema().validate("9").value).toBe("09");
    expect(wilayaCodeSchema().validate("68").value).toBe("68");
    const { error } = wilayaCodeSchema().label("wilaya").validate("70");
    expect(error?.message).toBe('"wilaya" must be a wilaya number, 01 to 69');
  });

  it("the documented pattern takes exactly the numbers the rule takes", () => {
    const { pattern } = (wilayaCodeSchema().describe().metas as { openapi: { pattern: string } }[])[0].openapi;
    const documented = new RegExp(pattern);
    for (let n = 0; n <= 100; n++)
      for (const text of [String(n), String(n).padStart(2, "0")])
        expect({ text, documented: documented.test(text) }).toEqual({ text, documented: normaliseWilayaCode(text) !== null });
  });
});
