import relayPoints from "../../resources/relay-points.json";

/** destinationRelayCode of SPEC §2.2. */
const RELAY_CODE = /^[A-Z]{2}-[A-Z0-9-]{3,30}$/;
const FIELDS = ["code", "name", "city", "wilaya", "address"] as const;

describe("resources/relay-points.json", () => {
  it("holds a realistic directory", () => {
    expect(Array.isArray(relayPoints)).toBe(true);
    expect(relayPoints.length).toBeGreaterThanOrEqual(25);
  });

  it.each(relayPoints.map(p => [p.code, p] as const))("%s is well formed", (_code, point) => {
    expect(point.code).toMatch(RELAY_CODE);
    for (const field of FIELDS) {
      expect(typeof point[field]).toBe("string");
      expect(point[field].trim()).not.toBe("");
      expect(point[field]).toBe(point[field].trim());
    }
    expect(typeof point.active).toBe("boolean");
    // Algerian wilaya numbers are 01 to 58, written on two digits, and repeated in the code.
    expect(point.wilaya).toMatch(/^\d{2}$/);
    expect(Number(point.wilaya)).toBeGreaterThanOrEqual(1);
    expect(Number(point.wilaya)).toBeLessThanOrEqual(58);
    expect(point.code.startsWith(`DZ-${point.wilaya}-`)).toBe(true);
  });

  it("has unique codes", () => {
    const codes = relayPoints.map(p => p.code);
    expect(new Set(codes).size).toBe(codes.length);
  });

  it("has no fields beyond the documented ones", () => {
    for (const point of relayPoints) expect(Object.keys(point).sort()).toEqual([...FIELDS, "active"].sort());
  });

  it("includes active and inactive points", () => {
    expect(relayPoints.some(p => p.active)).toBe(true);
    expect(relayPoints.some(p => !p.active)).toBe(true);
  });
});
