import { directionalRuns, paragraphDirection } from "./bidi";
import { unicodeFontHasGlyph, unicodeRunWidthEm } from "./fonts";
import { ELLIPSIS, truncateToWidth, wrapWords } from "./text-fit";

/** Where the printer finds the Unicode font; `zplFontDownload` stores the bundled one there. */
export const DEFAULT_ZPL_UNICODE_FONT = "E:RPLABEL.TTF";

/**
 * Font 0 (the scalable font every Zebra has) has no published metrics; its widest capitals and
 * digits stay under 0.6 of the cell width, so counting every character at that keeps a field
 * within its box, at the price of cutting a few characters early.
 */
const FONT0_ADVANCE_PER_CELL_WIDTH = 0.6;
const DEFAULT_IGNORABLE = /\p{Default_Ignorable_Code_Point}/u;

export interface ZplTextStyle {
  /** Character cell height in dots. */
  height: number;
  /** Never shrink below this height, in dots; without it, text too long is cut. */
  minHeight?: number;
  align?: "start" | "left" | "center" | "right";
  /** Printed white on black (inside a filled box). */
  reverse?: boolean;
  maxLines?: number;
  lineSpacing?: number;
}

export interface ZplTextOptions {
  unicodeFont: string;
}

function isPrintableInFont0(text: string): boolean {
  return /^[\x20-\x7e\u00a0-\u00ff]*$/.test(text);
}

/** Typographic punctuation font 0 may lack, and its plain equivalent. */
const PLAIN_PUNCTUATION: Record<string, string> = { "—": "-", "–": "-", "‘": "'", "’": "'", "“": '"', "”": '"', "…": "..." };

/** Latin text keeps to font 0, which every Zebra has, even when it uses a dash or curly quotes. */
function forFont0(text: string): string | null {
  const plain = text.replace(/[—–‘’“”…]/g, char => PLAIN_PUNCTUATION[char] ?? char);
  return isPrintableInFont0(plain) ? plain : null;
}

function clean(text: string): string {
  return (
    text
      .normalize("NFC")
      // eslint-disable-next-line no-control-regex -- control characters are what this removes
      .replace(/[\u0000-\u001f\u007f-\u009f\s]+/gu, " ")
      .trim()
  );
}

/**
 * ^FH turns on hexadecimal escapes with "_": the three characters that ZPL would read as commands
 * or escapes are sent as their UTF-8 bytes, so a name can never end the field early.
 */
export function escapeFieldData(text: string): string {
  return text.replace(/[_^~]/g, char => `_${char.charCodeAt(0).toString(16).toUpperCase()}`);
}

function font0Width(text: string, cellWidth: number): number {
  return [...text].length * cellWidth * FONT0_ADVANCE_PER_CELL_WIDTH;
}

function unicodeWidth(text: string, height: number): number {
  const direction = paragraphDirection(text);
  return directionalRuns(text, direction).reduce((sum, run) => sum + unicodeRunWidthEm(run.text), 0) * height;
}

/**
 * One ^FO…^FS text field at (x, y), `width` dots wide. Latin text uses font 0; any other text uses
 * the Unicode font and is sent in reading order: the printer's ^PA bidirectional layout and
 * shaping place and join it (Link-OS firmware V60.14/V50.14 or later).
 */
export function zplTextField(text: string, x: number, y: number, width: number, style: ZplTextStyle, options: ZplTextOptions): string {
  const cleaned = clean(text);
  if (cleaned === "") return "";
  const plain = forFont0(cleaned);
  const font0 = plain !== null;
  const value =
    plain ??
    [...cleaned].map(char => (DEFAULT_IGNORABLE.test(char) || unicodeFontHasGlyph(char.codePointAt(0) ?? 0) ? char : "?")).join("");
  let height = style.height;
  const measure = (candidate: string): number => (font0 ? font0Width(candidate, height) : unicodeWidth(candidate, height));
  const maxLines = style.maxLines ?? 1;
  const lineSpacing = style.lineSpacing ?? 0;

  if (maxLines === 1 && style.minHeight !== undefined) {
    const natural = measure(value);
    if (natural > width) height = Math.max(style.minHeight, Math.floor((height * width) / natural));
  }
  // ^FB overprints the last line with whatever does not fit, so the text is cut here instead.
  const ellipsis = font0 ? "..." : ELLIPSIS;
  const lines = wrapWords(value, width, maxLines, measure).map(line =>
    measure(line) > width ? truncateToWidth(line, width, measure, ellipsis) : line
  );
  const direction = font0 ? "ltr" : paragraphDirection(value);
  const align =
    style.align === "start" || style.align === undefined
      ? direction === "rtl"
        ? "R"
        : "L"
      : { left: "L", center: "C", right: "R" }[style.align];
  const fontCommand = font0 ? `^A0N,${height},${height}` : `^A@N,${height},${height},${options.unicodeFont}`;
  // In a field block "\&" breaks the line and "\\" prints one backslash; the lines are already cut
  // to fit, so the printer wraps nothing itself.
  const data = lines.map(line => escapeFieldData(line.replace(/\\/g, "\\\\"))).join("\\&");
  return `^FO${Math.round(x)},${Math.round(y)}${fontCommand}^FB${Math.round(width)},${lines.length},${lineSpacing},${align},0${style.reverse ? "^FR" : ""}^FH^FD${data}^FS`;
}
