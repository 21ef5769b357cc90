import tariffJson from "../../resources/tariff.json";
import { AppError } from "../../lib/errors";
import { MAX_MONEY_DZD, hasAtMostTwoDecimals, toCentimes, toDzd } from "../../lib/money";
import { claimCapCentimes, insuredValueCentimes } from "./insurance";

/**
 * Parcel price by weight tier plus optional insurance and cash-on-delivery fees. Prices and fee
 * rules live in `resources/tariff.json` so that commercial changes do not need a code change; this
 * module turns that file into integer centimes once, at load, and prices exactly from there.
 */

export interface TariffTier {
  /** Inclusive upper bound; a tier starts one gram above the previous tier's bound (the first at 1 g). */
  maxWeightG: number;
  priceCentimes: number;
}

export interface Tariff {
  currency: "DZD";
  tiers: readonly TariffTier[];
  insurance: {
    /** Declared value covered for free; only the part above it is charged. */
    freeAllowanceCentimes: number;
    rateBasisPoints: number;
  };
  cod: {
    rateBasisPoints: number;
    minimumFeeCentimes: number;
  };
}

export interface PriceInput {
  weightG: number;
  declaredValueDzd?: number | null;
  codAmountDzd?: number | null;
}

export interface PriceQuote {
  basePriceCentimes: number;
  /** The value the insurance covers (and a claim can pay): the declared value or free allowance, at most the claim cap. */
  insuredValueCentimes: number;
  insuranceFeeCentimes: number;
  codFeeCentimes: number;
  totalCentimes: number;
}

function invalidFile(message: string): AppError {
  return new AppError("INVALID_TARIFF", `tariff file: ${message}`);
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

function amountCentimes(value: unknown, where: string, { positive }: { positive: boolean }): number {
  if (typeof value !== "number" || !Number.isFinite(value) || value < 0 || (positive && value === 0)) {
    throw invalidFile(`${where} must be a ${positive ? "positive" : "non-negative"} number`);
  }
  if (!hasAtMostTwoDecimals(value) || value > MAX_MONEY_DZD) {
    throw invalidFile(`${where} must have at most two decimals and be at most ${MAX_MONEY_DZD} DZD`);
  }
  return toCentimes(value);
}

/** Percent with at most two decimals (e.g. 1.25) → integer basis points, so fees stay integer maths. */
function rateBasisPoints(value: unknown, where: string): number {
  if (typeof value !== "number" || !Number.isFinite(value) || value < 0 || value > 100 || !hasAtMostTwoDecimals(value)) {
    throw invalidFile(`${where} must be a percentage from 0 to 100 with at most two decimals`);
  }
  // Percent → basis points is the same ×100 scaling as DZD → centimes, float guard included.
  return toCentimes(value);
}

/** Validates the tariff file; a bad file must stop the service at start, not misprice parcels. */
export function loadTariff(json: unknown): Tariff {
  if (!isRecord(json)) throw invalidFile("must be a JSON object");
  if (json.currency !== "DZD") throw invalidFile(`currency must be "DZD"`);
  if (!Array.isArray(json.tiers) || json.tiers.length === 0) throw invalidFile("tiers must be a non-empty array");

  const tiers: TariffTier[] = [];
  json.tiers.forEach((raw: unknown, i: number) => {
    const where = `tiers[${i}]`;
    if (!isRecord(raw)) throw invalidFile(`${where} must be an object`);
    const { maxWeightG } = raw;
    if (typeof maxWeightG !== "number" || !Number.isInteger(maxWeightG) || maxWeightG < 1) {
      throw invalidFile(`${where}.maxWeightG must be a positive integer`);
    }
    const priceCentimes = amountCentimes(raw.priceDzd, `${where}.priceDzd`, { positive: true });
    const previous = tiers[tiers.length - 1];
    if (previous && maxWeightG <= previous.maxWeightG) {
      throw invalidFile(`${where}.maxWeightG must be greater than the previous tier's (${previous.maxWeightG})`);
    }
    // A heavier parcel priced below a lighter one is almost certainly a typo in the file.
    if (previous && priceCentimes < previous.priceCentimes) {
      throw invalidFile(`${where}.priceDzd must not be lower than the previous tier's`);
    }
    tiers.push(Object.freeze({ maxWeightG, priceCentimes }));
  });

  const { insurance, cod } = json;
  if (!isRecord(insurance)) throw invalidFile("insurance must be an object");
  if (!isRecord(cod)) throw invalidFile("cod must be an object");

  return Object.freeze({
    currency: "DZD",
    tiers: Object.freeze(tiers),
    insurance: Object.freeze({
      freeAllowanceCentimes: amountCentimes(insurance.freeAllowanceDzd, "insurance.freeAllowanceDzd", { positive: false }),
      rateBasisPoints: rateBasisPoints(insurance.ratePercent, "insurance.ratePercent")
    }),
    cod: Object.freeze({
      rateBasisPoints: rateBasisPoints(cod.ratePercent, "cod.ratePercent"),
      minimumFeeCentimes: amountCentimes(cod.minimumFeeDzd, "cod.minimumFeeDzd", { positive: false })
    })
  });
}

export const defaultTariff: Tariff = loadTariff(tariffJson);

/** Half-up to the centime; amounts are at most 10^9 centimes and rates 10^4 bp, so this stays exact. */
function percentOf(amountCentimes: number, basisPoints: number): number {
  return Math.round((amountCentimes * basisPoints) / 10_000);
}

/**
 * An optional money field of the request, in centimes; null when absent. The request validator
 * should already have refused bad values, but a wrong price is costly enough to check twice.
 */
function optionalAmountCentimes(value: number | null | undefined, field: string): number | null {
  if (value === null || value === undefined) return null;
  if (typeof value !== "number" || !Number.isFinite(value) || value < 0 || value > MAX_MONEY_DZD || !hasAtMostTwoDecimals(value)) {
    throw new AppError("VALIDATION_FAILED", `${field} must be a number from 0 to ${MAX_MONEY_DZD} DZD with at most two decimals`, {
      details: [{ field, message: `must be from 0 to ${MAX_MONEY_DZD} with at most two decimals` }]
    });
  }
  return toCentimes(value);
}

/**
 * The insurance part of a price: the rate on the insured value (the declared value, at most the
 * claim cap) above the free allowance. Value above the cap is not charged: no claim could pay it.
 */
export function insuranceFeeOf(declaredCentimes: number | null, tariff: Tariff = defaultTariff, capCentimes = claimCapCentimes()): number {
  const insured = declaredCentimes === null ? 0 : Math.min(declaredCentimes, capCentimes);
  const insuredExcess = Math.max(0, insured - tariff.insurance.freeAllowanceCentimes);
  return percentOf(insuredExcess, tariff.insurance.rateBasisPoints);
}

/** The value a claim can pay for the parcel (insurance.ts), with this tariff's free allowance. */
export function insuredValueOf(declaredCentimes: number | null, tariff: Tariff = defaultTariff, capCentimes = claimCapCentimes()): number {
  return insuredValueCentimes(declaredCentimes, tariff.insurance.freeAllowanceCentimes, capCentimes);
}

/** The shipping part of a price: the weight tier alone, without insurance or the COD fee; null for a weight off the tariff. */
export function shippingPriceOf(weightG: number, tariff: Tariff = defaultTariff): number | null {
  return tariff.tiers.find(t => weightG <= t.maxWeightG)?.priceCentimes ?? null;
}

export function quotePrice(input: PriceInput, tariff: Tariff = defaultTariff): PriceQuote {
  const { weightG } = input;
  const heaviest = tariff.tiers[tariff.tiers.length - 1].maxWeightG;
  const tier = Number.isInteger(weightG) && weightG >= 1 ? tariff.tiers.find(t => weightG <= t.maxWeightG) : undefined;
  if (!tier) {
    throw new AppError("INVALID_TARIFF", `no tariff for weightG=${String(weightG)}: it must be an integer from 1 to ${heaviest} grams`, {
      details: [{ field: "weightG", message: `must be an integer from 1 to ${heaviest}` }]
    });
  }

  const declaredCentimes = optionalAmountCentimes(input.declaredValueDzd, "declaredValueDzd");
  const codCentimes = optionalAmountCentimes(input.codAmountDzd, "codAmountDzd");

  const insuranceFeeCentimes = insuranceFeeOf(declaredCentimes, tariff);

  // A COD of 0 collects nothing, so it costs nothing; the minimum fee applies to real collections only.
  const codFeeCentimes =
    codCentimes !== null && codCentimes > 0
      ? Math.max(tariff.cod.minimumFeeCentimes, percentOf(codCentimes, tariff.cod.rateBasisPoints))
      : 0;

  return {
    basePriceCentimes: tier.priceCentimes,
    insuredValueCentimes: insuredValueOf(declaredCentimes, tariff),
    insuranceFeeCentimes,
    codFeeCentimes,
    totalCentimes: tier.priceCentimes + insuranceFeeCentimes + codFeeCentimes
  };
}

/** What a price is made of, as `POST /parcels/quote` shows it: the weight tier, then each fee that applies. */
export const PRICE_ITEMS = ["shipping", "insurance", "cod"] as const;
export type PriceItem = (typeof PRICE_ITEMS)[number];

export interface PriceBreakdown {
  priceDzd: number;
  currency: "DZD";
  /** The shipping tier always; insurance and the COD fee only when they cost something. Sums to priceDzd. */
  breakdown: { item: PriceItem; amountDzd: number }[];
}

export function priceBreakdown(quote: PriceQuote): PriceBreakdown {
  const items: [PriceItem, number][] = [
    ["shipping", quote.basePriceCentimes],
    ["insurance", quote.insuranceFeeCentimes],
    ["cod", quote.codFeeCentimes]
  ];
  return {
    priceDzd: toDzd(quote.totalCentimes),
    currency: "DZD",
    breakdown: items
      .filter(([item, centimes]) => item === "shipping" || centimes > 0)
      .map(([item, centimes]) => ({ item, amountDzd: toDzd(centimes) }))
  };
}
