/**
 * How many billed segments an SMS costs (3GPP TS 23.038): text that the GSM 7-bit alphabet holds
 * goes as GSM-7, 160 characters in one segment, 153 a segment once split, the extension table's
 * characters (^{}\[~]|€ and the form feed) costing two; any other character sends the whole text
 * as UCS-2, 70 UTF-16 units in one segment, 67 once split.
 */

const GSM_BASIC =
  "@£$¥èéùìòÇ\nØø\rÅåΔ_ΦΓΛΩΠΨΣΘΞÆæßÉ !\"#¤%&'()*+,-./0123456789:;<=>?" + "¡ABCDEFGHIJKLMNOPQRSTUVWXYZÄÖÑÜ§¿abcdefghijklmnopqrstuvwxyzäöñüà";
const GSM_EXTENSION = "^{}\\[~]|€\f";

const BASIC = new Set(GSM_BASIC);
const EXTENSION = new Set(GSM_EXTENSION);

export interface SmsSize {
  encoding: "GSM-7" | "UCS-2";
  /** Septets (GSM-7) or UTF-16 code units (UCS-2). */
  units: number;
  segments: number;
}

export function smsSize(text: string): SmsSize {
  let septets = 0;
  for (const char of text) {
    if (BASIC.has(char)) septets += 1;
    else if (EXTENSION.has(char)) septets += 2;
    else return ucs2Size(text);
  }
  return { encoding: "GSM-7", units: septets, segments: septets <= 160 ? 1 : Math.ceil(septets / 153) };
}

function ucs2Size(text: string): SmsSize {
  const units = text.length;
  return { encoding: "UCS-2", units, segments: units <= 70 ? 1 : Math.ceil(units / 67) };
}

/**
 * Text that GSM-7 cannot carry but has a GSM-7 look-alike (a directory's "Supérette", "Boîte",
 * typographic quotes): replaced, so that one such letter in a relay's name does not turn a French
 * SMS into UCS-2 and double its cost. Arabic letters have none and stay as they are.
 */
const LOOK_ALIKES: Record<string, string> = {
  â: "a",
  ê: "e",
  ë: "e",
  î: "i",
  ï: "i",
  ô: "o",
  û: "u",
  ç: "c",
  À: "A",
  Â: "A",
  È: "E",
  Ê: "E",
  Î: "I",
  Ô: "O",
  Û: "U",
  "’": "'",
  "‘": "'",
  "“": '"',
  "”": '"',
  "–": "-",
  "—": "-",
  "…": "...",
  "\u00a0": " ",
  "\u202f": " "
};

export function toGsmLookAlikes(text: string): string {
  return Array.from(text, char => LOOK_ALIKES[char] ?? char).join("");
}

/**
 * The longest text `compose(name)` gives within `maxSegments`, shortening `name` (a relay point's
 * name, the one part of unbounded length) word by word, then letter by letter, down to nothing.
 */
export function fitName(compose: (name: string) => string, name: string, maxSegments: number): string {
  let candidate = name.trim();
  for (;;) {
    const text = compose(candidate);
    if (smsSize(text).segments <= maxSegments || candidate.length === 0) return text;
    const lastSpace = candidate.lastIndexOf(" ");
    candidate = (lastSpace > 8 ? candidate.slice(0, lastSpace) : candidate.slice(0, -1)).trim();
  }
}
