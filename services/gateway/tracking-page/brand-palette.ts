/**
 * The colours derived from BRAND_COLOR, so that any brand colour keeps the pages readable
 * (contrast at least 4.5:1, WCAG AA): the text on a brand-coloured bar is white or near-black,
 * whichever contrasts more, and the brand colour used as text (links) on the light page is
 * darkened until it reads. A light brand colour such as #0a7 still heads the page in its own
 * colour; only its links are a darker shade of it.
 */
export interface BrandPalette {
  /** The brand colour itself: the header bar, the buttons, the first dot of the timeline. */
  brand: string;
  /** Text on the brand colour. */
  ink: string;
  /** The brand colour as text on the page's backgrounds (white cards, #f2f4f7 page). */
  text: string;
  /** The buttons' hover: the brand colour a little darker. */
  hover: string;
}

const WHITE = "#ffffff";
// Black, not the page's near-black ink: with white, it guarantees 4.5:1 on any colour (a mid grey reaches 4.1 against #1b1f24).
const DARK_INK = "#000000";
/** The page's background, the lighter of the two the brand colour is read on besides white. */
const PAGE_BACKGROUND = "#f2f4f7";

function channels(hex: string): [number, number, number] {
  return [1, 3, 5].map(i => parseInt(hex.slice(i, i + 2), 16)) as [number, number, number];
}

function toHex(rgb: readonly number[]): string {
  return `#${rgb
    .map(v =>
      Math.round(Math.min(255, Math.max(0, v)))
        .toString(16)
        .padStart(2, "0")
    )
    .join("")}`;
}

/** WCAG relative luminance. */
function luminance(hex: string): number {
  const [r, g, b] = channels(hex).map(v => {
    const c = v / 255;
    return c <= 0.03928 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4;
  });
  return 0.2126 * r + 0.7152 * g + 0.0722 * b;
}

export function contrast(a: string, b: string): number {
  const [light, dark] = [luminance(a), luminance(b)].sort((x, y) => y - x);
  return (light + 0.05) / (dark + 0.05);
}

function darker(hex: string, factor: number): string {
  return toHex(channels(hex).map(v => v * factor));
}

/** Darkens by steps of 5 % until the colour reads on both backgrounds; black at worst. */
function readableOnLight(hex: string): string {
  let shade = hex;
  for (let factor = 1; factor > 0; factor -= 0.05) {
    shade = darker(hex, factor);
    if (contrast(shade, PAGE_BACKGROUND) >= 4.5) return shade;
  }
  return "#000000";
}

/** `color` is #rrggbb (lib/brand.ts normalises it). */
export function brandPalette(color: string): BrandPalette {
  const ink = contrast(color, WHITE) >= contrast(color, DARK_INK) ? WHITE : DARK_INK;
  return { brand: color, ink, text: readableOnLight(color), hover: darker(color, 0.8) };
}
