import { AppError } from "../../lib/errors";
import { MAX_MONEY_DZD, hasAtMostTwoDecimals, toCentimes, toDzd } from "../../lib/money";

describe("toCentimes", () => {
  it.each([
    [0, 0],
    [1, 100],
    [19.99, 1999],
    [0.1 + 0.2, 30],
    [1.005, 101],
    [2.675, 268],
    [1234.56, 123456],
    [MAX_MONEY_DZD, 1_000_000_000],
    [-19.99, -1999],
    [-1.005, -101]
  ])("%p DZD → %p centimes", (dzd, centimes) => {
    expect(toCentimes(dzd)).toBe(centimes);
  });

  it("never returns -0", () => {
    expect(Object.is(toCentimes(-0), 0)).toBe(true);
    expect(Object.is(toCentimes(-0.001), 0)).toBe(true);
  });

  it("rejects non-finite and unsafe amounts", () => {
    for (const bad of [NaN, Infinity, -Infinity, 1e15]) {
      expect(() => toCentimes(bad)).toThrow(AppError);
    }
  });
});

describe("toDzd", () => {
  it("converts numbers, strings and bigints", () => {
    expect(toDzd(1999)).toBe(19.99);
    expect(toDzd("1999")).toBe(19.99);
    expect(toDzd(1999n)).toBe(19.99);
    expect(toDzd("-250")).toBe(-2.5);
    expect(toDzd(0)).toBe(0);
  });

  it("round-trips every centime value of a sample range", () => {
    for (let c = 0; c < 100_000; c += 7) expect(toCentimes(toDzd(c))).toBe(c);
  });

  it("rejects fractional or non-numeric centimes", () => {
    expect(() => toDzd(19.5)).toThrow(AppError);
    expect(() => toDzd("19.50")).toThrow(AppError);
    expect(() => toDzd("abc")).toThrow(AppError);
    expect(() => toDzd(NaN)).toThrow(AppError);
  });
});

describe("hasAtMostTwoDecimals", () => {
  it.each([0, 1, 19.9, 19.99, 0.01, 1234567.89, MAX_MONEY_DZD, -5.5])("accepts %p", n => {
    expect(hasAtMostTwoDecimals(n)).toBe(true);
  });

  it.each([19.999, 0.001, 19.995, 1e-7, NaN, Infinity])("rejects %p", n => {
    expect(hasAtMostTwoDecimals(n)).toBe(false);
  });
});
