import wilayaList from "../../../resources/wilayas.json";
import { distanceKm } from "../../../lib/geo";
import { findWilaya, normaliseWilayaCode, WILAYAS, wilayaCodeSchema } from "../../../services/parcels/wilayas";

describe("resources/wilayas.json", () => {
  it("lists the 58 wilayas, 01 to 58, in order", () => {
    expect(wilayaList.map(w => w.code)).toEqual(Array.from({ length: 58 }, (_, i) => String(i + 1).padStart(2, "0")));
  });

  it.each(wilayaList.map(w => [`${w.code} ${w.name}`, w] as const))("%s has its names and its chef-lieu in Algeria", (_label, wilaya) => {
    expect(Object.keys(wilaya).sort()).toEqual(["code", "latitude", "longitude", "name", "nameAr"]);
    expect(wilaya.name.trim()).toBe(wilaya.name);
    expect(wilaya.name).not.toBe("");
    expect(wilaya.nameAr).toMatch(/^[\u0621-\u064a ]+$/);
    expect(wilaya.latitude).toBeGreaterThan(18.9);
    expect(wilaya.latitude).toBeLessThan(37.2);
    expect(wilaya.longitude).toBeGreaterThan(-8.7);
    expect(wilaya.longitude).toBeLessThan(12);
  });

  it("places chefs-lieux where maps do", () => {
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
    // In Guezzam is the southernmost, El Tarf among the easternmost of the north, Tindouf the westernmost.
    expect(Math.min(...WILAYAS.map(w => w.latitude))).toBe(at("54").latitude);
    expect(Math.min(...WILAYAS.map(w => w.longitude))).toBe(at("37").longitude);
  });
});

describe("wilaya codes in requests", () => {
  it("accepts one or two digits of a real wilaya and answers on two digits", () => {
    expect(normaliseWilayaCode("16")).toBe("16");
    expect(normaliseWilayaCode("1")).toBe("01");
    expect(normaliseWilayaCode(" 58 ")).toBe("58");
    for (const bad of ["00", "59", "99", "016", "1a", "", "Alger", "-1"])
      expect({ bad, code: normaliseWilayaCode(bad) }).toEqual({ bad, code: null });
  });

  it("the Joi rule names the field and returns the normalised code", () => {
    expect(wilayaCodeSchema().validate("9").value).toBe("09");
    const { error } = wilayaCodeSchema().label("wilaya").validate("77");
    expect(error?.message).toBe('"wilaya" must be a wilaya number, 01 to 58');
  });
});
