import {
  boundingBox,
  distanceKm,
  EARTH_RADIUS_KM,
  insideBox,
  LatLng,
  nearSchema,
  parseLatLng,
  radiusKmSchema,
  roundKm
} from "../../lib/geo";

const ALGER: LatLng = { latitude: 36.7538, longitude: 3.0588 };
const ORAN: LatLng = { latitude: 35.6971, longitude: -0.6308 };
const PARIS: LatLng = { latitude: 48.8566, longitude: 2.3522 };
const LONDON: LatLng = { latitude: 51.5074, longitude: -0.1278 };

describe("distanceKm (great circle)", () => {
  it("matches published distances between cities", () => {
    // Alger–Oran by great circle: 351 km (the road is 415 km).
    expect(distanceKm(ALGER, ORAN)).toBeGreaterThan(350);
    expect(distanceKm(ALGER, ORAN)).toBeLessThan(355);
    // Paris–London, the textbook haversine example: 343.5 km.
    expect(distanceKm(PARIS, LONDON)).toBeCloseTo(343.5, 0);
  });

  it("is symmetric, zero at the same point, and exact on meridians and the equator", () => {
    expect(distanceKm(ALGER, ORAN)).toBeCloseTo(distanceKm(ORAN, ALGER), 9);
    expect(distanceKm(ALGER, ALGER)).toBe(0);
    expect(distanceKm({ latitude: 0, longitude: 0 }, { latitude: 0, longitude: 180 })).toBeCloseTo(Math.PI * EARTH_RADIUS_KM, 6);
    expect(distanceKm({ latitude: 0, longitude: 10 }, { latitude: 90, longitude: -50 })).toBeCloseTo((Math.PI / 2) * EARTH_RADIUS_KM, 6);
    // One degree of latitude is about 111.2 km anywhere.
    expect(distanceKm({ latitude: 36, longitude: 3 }, { latitude: 37, longitude: 3 })).toBeCloseTo(111.19, 1);
  });

  it("sorts nearby points correctly at street scale", () => {
    const here = { latitude: 36.76695, longitude: 3.05287 };
    const fiftyMetresNorth = { latitude: here.latitude + 50 / 111_195, longitude: here.longitude };
    expect(distanceKm(here, fiftyMetresNorth)).toBeCloseTo(0.05, 3);
  });
});

describe("near=LAT,LNG", () => {
  it.each([
    ["36.7538,3.0588", { latitude: 36.7538, longitude: 3.0588 }],
    [" 36.7538 , -0.6308 ", { latitude: 36.7538, longitude: -0.6308 }],
    ["-33.8688,151.2093", { latitude: -33.8688, longitude: 151.2093 }],
    ["90,180", { latitude: 90, longitude: 180 }],
    ["+36,3", { latitude: 36, longitude: 3 }],
    ["-0,-0", { latitude: 0, longitude: 0 }]
  ])("%s is a position", (text, expected) => {
    // toEqual tells 0 from -0: "-0,-0" must come back as plain zeros.
    expect(parseLatLng(text)).toEqual({ ok: true, value: expected });
  });

  it.each([
    ["36,75,3,05", "format"],
    ["36.7538", "format"],
    ["36.7538;3.0588", "format"],
    ["1e1,3", "format"],
    ["0x10,3", "format"],
    ["NaN,3", "format"],
    ["Infinity,3", "format"],
    ["", "format"],
    ["91,3", "latitude"],
    ["-90.0001,3", "latitude"],
    ["36,180.5", "longitude"],
    ["36,-181", "longitude"]
  ])("%s is refused (%s)", (text, problem) => {
    expect(parseLatLng(text)).toEqual({ ok: false, problem });
  });

  it("the Joi rule returns the position and names the field in its errors", () => {
    const schema = nearSchema().label("near");
    expect(schema.validate("36.7538,3.0588").value).toEqual({ latitude: 36.7538, longitude: 3.0588 });
    expect(schema.validate("36,7538,3,0588").error?.message).toBe(
      '"near" must be LAT,LNG in decimal degrees with a dot, e.g. 36.7538,3.0588'
    );
    expect(schema.validate("95,3").error?.message).toBe('"near" has a latitude outside -90 to 90');
    expect(schema.validate("36,200").error?.message).toBe('"near" has a longitude outside -180 to 180');
  });
});

describe("radiusKm", () => {
  it("is more than 0 and at most 500, converted from query text", () => {
    const schema = radiusKmSchema().label("radiusKm");
    expect(schema.validate("12.5").value).toBe(12.5);
    expect(schema.validate(500).value).toBe(500);
    expect(schema.validate("0").error?.message).toBe('"radiusKm" must be more than 0 km');
    expect(schema.validate(-3).error?.message).toBe('"radiusKm" must be more than 0 km');
    expect(schema.validate("501").error?.message).toBe('"radiusKm" must be at most 500 km');
    expect(schema.validate("far").error).toBeDefined();
  });
});

describe("boundingBox", () => {
  function pointAt(center: LatLng, km: number, bearingDegrees: number): LatLng {
    const δ = km / EARTH_RADIUS_KM;
    const θ = (bearingDegrees * Math.PI) / 180;
    const φ1 = (center.latitude * Math.PI) / 180;
    const λ1 = (center.longitude * Math.PI) / 180;
    const φ2 = Math.asin(Math.sin(φ1) * Math.cos(δ) + Math.cos(φ1) * Math.sin(δ) * Math.cos(θ));
    const λ2 = λ1 + Math.atan2(Math.sin(θ) * Math.sin(δ) * Math.cos(φ1), Math.cos(δ) - Math.sin(φ1) * Math.sin(φ2));
    return { latitude: (φ2 * 180) / Math.PI, longitude: (((λ2 * 180) / Math.PI + 540) % 360) - 180 };
  }

  it.each([
    ["Alger, 20 km", ALGER, 20],
    ["Tamanrasset, 500 km", { latitude: 22.785, longitude: 5.5228 }, 500],
    ["Tromsø, 300 km", { latitude: 69.6492, longitude: 18.9553 }, 300],
    ["Fiji, across 180°", { latitude: -17.7134, longitude: 179.9 }, 100],
    ["near the pole", { latitude: 89.5, longitude: 0 }, 200]
  ])("%s: every point of the circle is inside the box", (_label, center, km) => {
    const box = boundingBox(center, km);
    for (let bearing = 0; bearing < 360; bearing += 5) {
      const edge = pointAt(center, km * 0.999, bearing);
      expect({ bearing, inside: insideBox(edge, box) }).toEqual({ bearing, inside: true });
    }
  });

  it("is tight away from poles and the 180° meridian, so the index does its job", () => {
    const box = boundingBox(ALGER, 20);
    expect(box.maxLatitude - box.minLatitude).toBeCloseTo((2 * 20) / 111.195, 3);
    // At 36.75° N a degree of longitude is 89 km.
    expect(box.maxLongitude - box.minLongitude).toBeGreaterThan(0.44);
    expect(box.maxLongitude - box.minLongitude).toBeLessThan(0.46);
    expect(insideBox(ORAN, box)).toBe(false);
  });

  it("drops the longitude bound rather than wrap", () => {
    expect(boundingBox({ latitude: -17.7, longitude: 179.9 }, 100)).toMatchObject({ minLongitude: -180, maxLongitude: 180 });
    expect(boundingBox({ latitude: 89.5, longitude: 0 }, 200)).toMatchObject({ maxLatitude: 90, minLongitude: -180, maxLongitude: 180 });
  });
});

it("roundKm keeps 10 m", () => {
  expect(roundKm(1.23456)).toBe(1.23);
  expect(roundKm(0.005)).toBe(0.01);
});
