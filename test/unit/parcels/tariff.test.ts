import tariffJson from "../../../resources/tariff.json";
import { AppError } from "../../../lib/errors";
import { defaultTariff, loadTariff, priceBreakdown, quotePrice } from "../../../services/parcels/tariff";

function expectAppError(fn: () => unknown, type: string): void {
  let thrown: unknown;
  try {
    fn();
  } catch (e) {
    thrown = e;
  }
  expect(thrown).toBeInstanceOf(AppError);
  expect((thrown as AppError).type).toBe(type);
}

const base = (weightG: number) => quotePrice({ weightG }).basePriceCentimes;

describe("quotePrice: weight tiers", () => {
  it.each([
    [1, 35_000],
    [500, 35_000],
    [501, 40_000],
    [1000, 40_000],
    [1001, 45_000],
    [2000, 45_000],
    [2001, 60_000],
    [5000, 60_000],
    [5001, 85_000],
    [10000, 85_000],
    [10001, 120_000],
    [20000, 120_000],
    [20001, 160_000],
    [30000, 160_000]
  ])("%p g costs %p centimes", (weightG, centimes) => {
    expect(base(weightG)).toBe(centimes);
  });

  it("totals the base price alone when there is no insurance or COD", () => {
    expect(quotePrice({ weightG: 750 })).toEqual({
      basePriceCentimes: 40_000,
      insuredValueCentimes: 500_000,
      insuranceFeeCentimes: 0,
      codFeeCentimes: 0,
      totalCentimes: 40_000
    });
  });

  it.each([0, -1, 30001, 1.5, NaN, Infinity])("rejects weightG=%p with INVALID_TARIFF", weightG => {
    expectAppError(() => quotePrice({ weightG }), "INVALID_TARIFF");
  });

  it("points at the weightG field when it refuses a weight", () => {
    try {
      quotePrice({ weightG: 30001 });
      throw new Error("expected a refusal");
    } catch (e) {
      expect((e as AppError).code).toBe(400);
      expect((e as AppError).data?.details?.[0].field).toBe("weightG");
    }
  });
});

describe("quotePrice: insurance", () => {
  it.each([
    [null, 0],
    [undefined, 0],
    [0, 0],
    [5000, 0],
    [5000.01, 0], // 1 centime × 1 % rounds to 0
    [5050, 50], // 50 DZD over the allowance → 0.50 DZD
    [6000, 1000], // 1 000 DZD over → 10 DZD
    [12_345.67, 7346], // 7 345.67 DZD over → 73.4567 → 73.46 DZD
    [5000.5, 1], // 0.50 DZD over → 0.5 centime → rounds half up to 1
    [150_000, 145_000], // (150 000 − 5 000) × 1 % = 1 450 DZD
    [150_000.01, 145_000], // above the claim cap: nothing more is insured, nothing more charged
    [10_000_000, 145_000] // 10 M declared: insured on 150 000 only, the most a claim pays (issue 26)
  ])("declared %p DZD → insurance fee %p centimes", (declaredValueDzd, fee) => {
    const quote = quotePrice({ weightG: 400, declaredValueDzd });
    expect(quote.insuranceFeeCentimes).toBe(fee);
    expect(quote.totalCentimes).toBe(35_000 + fee);
  });

  it.each([
    [null, 500_000],
    [3000, 300_000],
    [150_000, 15_000_000],
    [10_000_000, 15_000_000]
  ])("declared %p DZD → insured value %p centimes (the free allowance when none, at most the claim cap)", (declaredValueDzd, insured) => {
    expect(quotePrice({ weightG: 400, declaredValueDzd }).insuredValueCentimes).toBe(insured);
  });

  it.each([-1, 10_000_000.01, 100.001, NaN])("rejects declaredValueDzd=%p", declaredValueDzd => {
    expectAppError(() => quotePrice({ weightG: 400, declaredValueDzd }), "VALIDATION_FAILED");
  });
});

describe("quotePrice: cash on delivery", () => {
  it.each([
    [null, 0],
    [undefined, 0],
    [0, 0], // collecting nothing costs nothing
    [100, 5000], // 1 DZD < minimum → 50 DZD
    [5000, 5000], // exactly the minimum
    [5000.5, 5001], // 50.005 DZD → 50.01 DZD (half up)
    [12_345.67, 12_346], // 123.4567 → 123.46 DZD
    [10_000_000, 10_000_000] // 100 000 DZD
  ])("COD %p DZD → fee %p centimes", (codAmountDzd, fee) => {
    expect(quotePrice({ weightG: 400, codAmountDzd }).codFeeCentimes).toBe(fee);
  });

  it.each([-0.01, 10_000_001, 1.234])("rejects codAmountDzd=%p", codAmountDzd => {
    expectAppError(() => quotePrice({ weightG: 400, codAmountDzd }), "VALIDATION_FAILED");
  });

  it("adds base, insurance and COD fee into the total", () => {
    expect(quotePrice({ weightG: 2500, declaredValueDzd: 25_000, codAmountDzd: 8_000 })).toEqual({
      basePriceCentimes: 60_000,
      insuredValueCentimes: 2_500_000,
      insuranceFeeCentimes: 20_000,
      codFeeCentimes: 8_000,
      totalCentimes: 88_000
    });
  });
});

describe("loadTariff", () => {
  const valid = () => JSON.parse(JSON.stringify(tariffJson));

  it("loads the shipped file into centimes and basis points", () => {
    expect(defaultTariff.tiers[0]).toEqual({ maxWeightG: 500, priceCentimes: 35_000 });
    expect(defaultTariff.tiers[defaultTariff.tiers.length - 1].maxWeightG).toBe(30000);
    expect(defaultTariff.insurance).toEqual({ freeAllowanceCentimes: 500_000, rateBasisPoints: 100 });
    expect(defaultTariff.cod).toEqual({ rateBasisPoints: 100, minimumFeeCentimes: 5_000 });
    expect(Object.isFrozen(defaultTariff.tiers)).toBe(true);
  });

  it("prices with a custom tariff", () => {
    const json = valid();
    json.tiers = [{ maxWeightG: 100, priceDzd: 99.99 }];
    json.cod = { ratePercent: 2.5, minimumFeeDzd: 0 };
    const tariff = loadTariff(json);
    expect(quotePrice({ weightG: 100, codAmountDzd: 1000 }, tariff)).toEqual({
      basePriceCentimes: 9_999,
      insuredValueCentimes: 500_000,
      insuranceFeeCentimes: 0,
      codFeeCentimes: 2_500,
      totalCentimes: 12_499
    });
    expectAppError(() => quotePrice({ weightG: 101 }, tariff), "INVALID_TARIFF");
  });

  it.each<[string, (j: any) => void]>([
    ["not an object", j => Object.keys(j).forEach(k => delete j[k])],
    ["another currency", j => (j.currency = "EUR")],
    ["no tiers", j => (j.tiers = [])],
    ["tiers not ascending", j => (j.tiers[1].maxWeightG = 500)],
    ["a tier cheaper than the previous one", j => (j.tiers[2].priceDzd = 100)],
    ["a zero price", j => (j.tiers[0].priceDzd = 0)],
    ["a negative price", j => (j.tiers[0].priceDzd = -350)],
    ["a price with three decimals", j => (j.tiers[0].priceDzd = 350.001)],
    ["a zero weight bound", j => (j.tiers[0].maxWeightG = 0)],
    ["a fractional weight bound", j => (j.tiers[0].maxWeightG = 499.5)],
    ["a missing insurance section", j => delete j.insurance],
    ["a negative insurance rate", j => (j.insurance.ratePercent = -1)],
    ["a COD rate over 100 %", j => (j.cod.ratePercent = 101)],
    ["a missing COD minimum", j => delete j.cod.minimumFeeDzd]
  ])("refuses a file with %s", (_label, mutate) => {
    const json = valid();
    mutate(json);
    expectAppError(() => loadTariff(json), "INVALID_TARIFF");
  });

  it("refuses non-object input", () => {
    expectAppError(() => loadTariff(null), "INVALID_TARIFF");
    expectAppError(() => loadTariff([]), "INVALID_TARIFF");
  });
});

describe("priceBreakdown: what POST /parcels/quote shows", () => {
  it("the shipping tier alone when no fee applies", () => {
    expect(priceBreakdown(quotePrice({ weightG: 1200 }))).toEqual({
      priceDzd: 450,
      currency: "DZD",
      breakdown: [{ item: "shipping", amountDzd: 450 }]
    });
    expect(priceBreakdown(quotePrice({ weightG: 1200, codAmountDzd: 0, declaredValueDzd: 5000 })).breakdown).toEqual([
      { item: "shipping", amountDzd: 450 }
    ]);
  });

  it("each fee that costs something, in centimes exactly, adding up to the total", () => {
    const quote = quotePrice({ weightG: 30000, declaredValueDzd: 12_345.67, codAmountDzd: 9_999.99 });
    const shown = priceBreakdown(quote);
    expect(shown.breakdown).toEqual([
      { item: "shipping", amountDzd: 1600 },
      { item: "insurance", amountDzd: 73.46 },
      { item: "cod", amountDzd: 100 }
    ]);
    expect(shown.priceDzd).toBe(1773.46);
    const sumCentimes = shown.breakdown.reduce((sum, part) => sum + Math.round(part.amountDzd * 100), 0);
    expect(sumCentimes).toBe(quote.totalCentimes);
  });
});
