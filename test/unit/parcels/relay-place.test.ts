import { AppError } from "../../../lib/errors";
import { placeRelayPoint } from "../../../services/parcels/relay-place";

/** Issue 47: a relay point's commune decides its wilaya; a point of wilayas 59–69 carries the wilaya it was carved from. */

function refusal(sent: Parameters<typeof placeRelayPoint>[0]): { code: string; message: string; fields: string[] } {
  try {
    placeRelayPoint(sent);
  } catch (err) {
    const e = err as AppError;
    return { code: e.type, message: e.message, fields: (e.data?.details ?? []).map(d => d.field) };
  }
  throw new Error("accepted");
}

describe("placeRelayPoint", () => {
  it("takes the commune's wilaya when only the commune is given, and the former wilaya with it", () => {
    expect(placeRelayPoint({ wilaya: null, commune: "2820" })).toEqual({ wilaya: "68", commune: "2820", formerWilaya: "28" });
    expect(placeRelayPoint({ wilaya: null, commune: "1601" })).toEqual({ wilaya: "16", commune: "1601", formerWilaya: null });
  });

  it("takes a wilaya that agrees with the commune, and a wilaya alone (its former wilaya follows)", () => {
    expect(placeRelayPoint({ wilaya: "65", commune: "1731" })).toEqual({ wilaya: "65", commune: "1731", formerWilaya: "17" });
    expect(placeRelayPoint({ wilaya: "69", commune: null })).toEqual({ wilaya: "69", commune: null, formerWilaya: "32" });
    expect(placeRelayPoint({ wilaya: "28", commune: null })).toEqual({ wilaya: "28", commune: null, formerWilaya: null });
    expect(placeRelayPoint({ wilaya: null, commune: null })).toEqual({ wilaya: null, commune: null, formerWilaya: null });
  });

  it("refuses a wilaya the commune is not in, naming the commune's, and saying so when it is the old one", () => {
    expect(refusal({ wilaya: "28", commune: "2820" })).toEqual({
      code: "COMMUNE_NOT_IN_WILAYA",
      message:
        "Commune 2820 (Bou Saâda) is in wilaya 68 (Bou Saâda) since law 26-06 of 2026, not 28 (M'Sila): send wilaya 68, or leave wilaya out",
      fields: ["wilaya"]
    });
    expect(refusal({ wilaya: "16", commune: "3101" })).toEqual({
      code: "COMMUNE_NOT_IN_WILAYA",
      message: "Commune 3101 (Oran) is in wilaya 31 (Oran), not 16 (Alger): send wilaya 31, or leave wilaya out",
      fields: ["wilaya"]
    });
  });

  it("takes back the former wilaya a point was read with, and refuses any other", () => {
    expect(placeRelayPoint({ wilaya: "68", commune: "2820", formerWilaya: "28" }).formerWilaya).toBe("28");
    expect(placeRelayPoint({ wilaya: "16", commune: null, formerWilaya: null }).formerWilaya).toBeNull();
    expect(refusal({ wilaya: "68", commune: null, formerWilaya: null })).toMatchObject({
      code: "VALIDATION_FAILED",
      fields: ["formerWilaya"]
    });
    expect(refusal({ wilaya: "16", commune: null, formerWilaya: "28" })).toMatchObject({
      code: "VALIDATION_FAILED",
      fields: ["formerWilaya"]
    });
  });

  it("refuses a code that is no commune (the schema does first; this holds without it)", () => {
    expect(refusal({ wilaya: null, commune: "9999" })).toMatchObject({ code: "VALIDATION_FAILED", fields: ["commune"] });
  });
});
