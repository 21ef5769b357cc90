import { generateTrackingNumber, isValidTrackingNumber, s10CheckDigit } from "../../lib/s10";

describe("s10CheckDigit", () => {
  it("matches the UPU standard example (47312482 → 9)", () => {
    expect(s10CheckDigit("47312482")).toBe(9);
  });

  it("matches the DESIGN example RP123456785DZ", () => {
    expect(s10CheckDigit("12345678")).toBe(5);
  });

  // Sums picked (and hand-checked) so that 11 - (sum mod 11) lands on the two special cases.
  it("maps a raw result of 10 to 0", () => {
    // 16+0+12+10+0+20+9+0 = 67; 67 mod 11 = 1; 11 - 1 = 10 → 0
    expect(s10CheckDigit("20350410")).toBe(0);
  });

  it("maps a raw result of 11 to 5", () => {
    // 64+6+0+10+18+35+63+35 = 231; 231 mod 11 = 0; 11 - 0 = 11 → 5
    expect(s10CheckDigit("81056775")).toBe(5);
    expect(s10CheckDigit("00000000")).toBe(5);
  });

  it("refuses anything but exactly eight digits", () => {
    expect(() => s10CheckDigit("1234567")).toThrow(RangeError);
    expect(() => s10CheckDigit("123456789")).toThrow(RangeError);
    expect(() => s10CheckDigit("1234567a")).toThrow(RangeError);
  });
});

describe("isValidTrackingNumber", () => {
  it.each(["RR473124829GB", "RP123456785DZ", "RP203504100DZ", "EE810567755DZ"])("accepts %s", s => {
    expect(isValidTrackingNumber(s)).toBe(true);
  });

  it.each([
    ["wrong check digit", "RR473124828GB"],
    ["swapped serial digits", "RR743124829GB"],
    ["lower case", "rp123456785dz"],
    ["too short", "RP12345675DZ"],
    ["digit in service letters", "R1123456785DZ"],
    ["surrounding spaces", " RP123456785DZ "],
    ["empty", ""]
  ])("rejects %s", (_label, s) => {
    expect(isValidTrackingNumber(s)).toBe(false);
  });
});

describe("generateTrackingNumber", () => {
  it("produces valid RP…DZ numbers", () => {
    for (let i = 0; i < 200; i++) {
      const n = generateTrackingNumber();
      expect(n).toMatch(/^RP\d{9}DZ$/);
      expect(isValidTrackingNumber(n)).toBe(true);
    }
  });

  it("honours another service prefix", () => {
    const n = generateTrackingNumber("CP");
    expect(n).toMatch(/^CP\d{9}DZ$/);
    expect(isValidTrackingNumber(n)).toBe(true);
  });

  it("refuses a malformed prefix", () => {
    expect(() => generateTrackingNumber("rp")).toThrow(RangeError);
    expect(() => generateTrackingNumber("RPX")).toThrow(RangeError);
  });

  it("is random, not sequential", () => {
    const serials = Array.from({ length: 200 }, () => Number(generateTrackingNumber().slice(2, 10)));
    // 200 draws from 10^8: a collision or a run of consecutive serials would mean a counter.
    expect(new Set(serials).size).toBe(200);
    const consecutive = serials.slice(1).filter((s, i) => s === serials[i] + 1).length;
    expect(consecutive).toBe(0);
  });
});
