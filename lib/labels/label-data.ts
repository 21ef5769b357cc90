import { findWilaya, wilayaName } from "../wilayas";

/**
 * What a label shows. The recipient's name and phone are deliberately absent: hand-over at the
 * relay is by tracking number, the pick-up SMS and an identity document, so the name would add
 * nothing to the hand-over, while the label passes through couriers, sorting centres and relay
 * counters. Printing it would expose personal data that we otherwise keep encrypted at rest
 * (DESIGN §2).
 */
export interface LabelData {
  trackingNumber: string;
  relayCode: string;
  /** The relay's name as the directory has it: Latin, Arabic or both mixed. */
  relayName: string;
  /** The Arabic name, printed under `relayName` when the directory has both. */
  relayNameAr?: string | null;
  relayCity?: string | null;
  /** The Arabic city name, printed on the city line, right-aligned. */
  relayCityAr?: string | null;
  /** Street address of the relay, for the courier who has never been there. */
  relayAddress?: string | null;
  /**
   * The relay's wilaya, two digits: printed in a box beside the code, which is what sorting reads
   * (a point moved to a wilaya of 2026 keeps a code with its old number), and named on the city line.
   */
  relayWilaya?: string | null;
  weightG: number;
  codAmountDzd: number | null;
  senderName: string;
  /** BRAND_NAME (lib/brand.ts), the carrier the label is for, printed at the top right; absent, none. */
  brandName?: string;
  createdAt: string | Date;
  sandbox?: boolean;
}

export const SANDBOX_MARK = "SANDBOX — NOT FOR SHIPPING";

/** One A4 document of a hundred labels stays a few hundred kilobytes and a fraction of a second. */
export const MAX_LABELS_PER_DOCUMENT = 100;

/** A COD of zero is no COD: printing "to collect 0,00 DZD" would only confuse the relay. */
export function hasCashOnDelivery(label: LabelData): label is LabelData & { codAmountDzd: number } {
  return label.codAmountDzd !== null && label.codAmountDzd > 0;
}

/** French grouping as printed in Algeria ("1 500,00"), with plain spaces so any font can show them. */
function groupThousands(integerPart: number): string {
  return String(integerPart).replace(/\B(?=(\d{3})+(?!\d))/g, " ");
}

export function formatDzd(amount: number): string {
  const centimes = Math.round(amount * 100);
  const sign = centimes < 0 ? "-" : "";
  const absolute = Math.abs(centimes);
  const cents = String(absolute % 100).padStart(2, "0");
  return `${sign}${groupThousands(Math.floor(absolute / 100))},${cents} DZD`;
}

export function formatWeight(weightG: number): string {
  const kg = (weightG / 1000).toFixed(weightG % 10 === 0 ? 2 : 3).replace(".", ",");
  return `${kg} kg (${groupThousands(weightG)} g)`;
}

export function formatLabelDate(createdAt: string | Date): string {
  const date = createdAt instanceof Date ? createdAt : new Date(createdAt);
  if (Number.isNaN(date.getTime())) throw new RangeError(`label createdAt is not a date: ${String(createdAt)}`);
  return date.toISOString().slice(0, 10);
}

/**
 * Code 128 carries ASCII only, and a tracking number with anything else is a caller's bug; failing
 * here names the field instead of surfacing as a barcode-library error halfway through a document.
 */
export function assertPrintable(label: LabelData): void {
  if (!/^[\x21-\x7e]{1,48}$/.test(label.trackingNumber)) {
    throw new RangeError(`label trackingNumber must be 1 to 48 printable ASCII characters: ${JSON.stringify(label.trackingNumber)}`);
  }
  formatLabelDate(label.createdAt);
}

/**
 * The city line: the city, then its wilaya's name when the city is not named like it ("Bab El Oued,
 * Alger"; "Bou Saâda" alone), in the line's own script.
 */
export function cityAndWilaya(city: string | null | undefined, wilaya: string | null | undefined, lang: "fr" | "ar"): string {
  const place = city?.trim() ?? "";
  const name = wilayaName(wilaya, lang);
  if (!name || place.localeCompare(name, lang, { sensitivity: "base" }) === 0) return place;
  return place ? `${place}${lang === "ar" ? "، " : ", "}${name}` : name;
}

/** The Arabic line is only worth its space when it says something the Latin line does not. */
export function distinctSecondName(primary: string | null | undefined, second: string | null | undefined): string | null {
  const trimmed = second?.trim();
  if (!trimmed) return null;
  return trimmed === primary?.trim() ? null : trimmed;
}

/** The wilaya number printed in the box, or null when the point has none the map knows. */
export function wilayaBox(label: LabelData): string | null {
  return label.relayWilaya && findWilaya(label.relayWilaya) ? label.relayWilaya : null;
}
