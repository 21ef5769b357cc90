import { Direction, DirectionalRun, directionalRuns, isPlainLeftToRight, paragraphDirection, shaperInput } from "./bidi";
import { shapingFeatures, unicodeFontHasGlyph } from "./fonts";
import { useStandardFont, useUnicodeFont } from "./pdf-fonts";
import { shrunkSize, truncateToWidth, wrapWords } from "./text-fit";

type Doc = PDFKit.PDFDocument;

/**
 * pdfkit hands `features` to fontkit as it is, and fontkit also takes an object that turns
 * features on or off; @types/pdfkit only knows the array form.
 */
interface ShapedTextOptions extends Omit<PDFKit.Mixins.TextOptions, "features"> {
  features?: Record<string, boolean>;
}

declare global {
  // eslint-disable-next-line @typescript-eslint/no-namespace -- augmenting @types/pdfkit, which is a namespace
  namespace PDFKit.Mixins {
    interface PDFText {
      text(text: string, x: number, y: number, options: ShapedTextOptions): this;
      widthOfString(text: string, options: ShapedTextOptions): number;
    }
  }
}

export interface TextStyle {
  size: number;
  weight?: "regular" | "bold";
  /** Courier, for the tracking number: fixed-width digits are easier to read out over the phone. */
  monospace?: boolean;
  color?: string;
  /** `start` follows the text: left for Latin, right for Arabic. */
  align?: "start" | "left" | "center" | "right";
  /** Shrink the font down to this size before cutting with an ellipsis, for values that must stay whole. */
  minSize?: number;
}

/** Where a line goes: `baseline` is the alphabetic baseline, so Latin and Arabic lines align. */
export interface TextBox {
  x: number;
  baseline: number;
  width: number;
}

export interface TextBlockStyle extends TextStyle {
  maxLines: number;
  lineHeight: number;
}

/** Text made printable, with the font that can print it. */
interface PreparedText {
  text: string;
  unicode: boolean;
  direction: Direction;
}

interface LaidOutRun {
  /** What to hand to pdfkit: display order once shaped. */
  input: string;
  width: number;
  visualIndex: number;
}

const DEFAULT_IGNORABLE = /\p{Default_Ignorable_Code_Point}/u;
// Characters outside Latin-1 that the WinAnsi encoding of the standard PDF fonts still has.
const WIN_ANSI_EXTRAS = new Set("€‚ƒ„…†‡ˆ‰Š‹ŒŽ‘’“”•–—˜™š›œžŸ");

function isWinAnsi(text: string): boolean {
  for (const char of text) {
    const code = char.codePointAt(0) ?? 0;
    if (!((code >= 0x20 && code <= 0x7e) || (code >= 0xa0 && code <= 0xff) || WIN_ANSI_EXTRAS.has(char))) return false;
  }
  return true;
}

/**
 * Directory text may carry line breaks, tabs or runs of spaces; a label line is one line. Text the
 * standard PDF fonts can encode stays in Helvetica (nothing to embed, the fast path); anything else
 * goes to the bundled Unicode font, where a character it has no glyph for (emoji, Tifinagh) prints
 * as a visible "?" rather than as a blank a courier could misread.
 */
export function prepareText(text: string): PreparedText {
  const clean = text
    .normalize("NFC")
    // eslint-disable-next-line no-control-regex -- control characters are what this removes
    .replace(/[\u0000-\u001f\u007f-\u009f\s]+/gu, " ")
    .trim();
  if (isWinAnsi(clean)) return { text: clean, unicode: false, direction: "ltr" };
  let printable = "";
  for (const char of clean) {
    const known = DEFAULT_IGNORABLE.test(char) || unicodeFontHasGlyph(char.codePointAt(0) ?? 0);
    printable += known ? char : "?";
  }
  return { text: printable, unicode: true, direction: paragraphDirection(printable) };
}

/** Outline width, in ems, that makes the regular Unicode font read as bold. */
const SYNTHETIC_BOLD_EM = 0.05;

function selectFont(doc: Doc, prepared: PreparedText, style: TextStyle, size: number): void {
  if (prepared.unicode) useUnicodeFont(doc);
  else if (style.monospace) useStandardFont(doc, "Courier-Bold");
  else useStandardFont(doc, style.weight === "bold" ? "Helvetica-Bold" : "Helvetica");
  doc.fontSize(size);
}

/** Bold in the Unicode font is its regular weight filled and outlined: one font to embed, not two. */
function isSyntheticBold(prepared: PreparedText, style: TextStyle): boolean {
  return prepared.unicode && style.weight === "bold";
}

/**
 * `features` set makes pdfkit shape the whole run at once instead of word by word. Called for
 * every pdfkit call, as fontkit writes into the features object.
 */
function textOptions(prepared: PreparedText, style?: TextStyle): ShapedTextOptions {
  if (!prepared.unicode) return { lineBreak: false, baseline: "alphabetic" };
  const outline = style !== undefined && isSyntheticBold(prepared, style);
  return { lineBreak: false, baseline: "alphabetic", features: shapingFeatures(), ...(outline ? { fill: true, stroke: true } : {}) };
}

function runsOf(prepared: PreparedText, line: string): DirectionalRun[] {
  if (!prepared.unicode || isPlainLeftToRight(line)) return [{ text: line, rtl: false, visualIndex: 0 }];
  return directionalRuns(line, prepared.direction);
}

interface LaidOutLine {
  runs: LaidOutRun[];
  width: number;
}

/** Lays a line out with the current font and size. */
function layOut(doc: Doc, prepared: PreparedText, line: string): LaidOutLine {
  let width = 0;
  const runs = runsOf(prepared, line).map(run => {
    const input = shaperInput(run);
    const runWidth = doc.widthOfString(input, textOptions(prepared));
    width += runWidth;
    return { input, width: runWidth, visualIndex: run.visualIndex };
  });
  return { runs, width };
}

/** Glyph widths scale linearly with the font size: a layout at one size gives it at another. */
function scaled(laidOut: LaidOutLine, factor: number): LaidOutLine {
  return { runs: laidOut.runs.map(run => ({ ...run, width: run.width * factor })), width: laidOut.width * factor };
}

/** Shaping Arabic is the costly part of a label: each candidate line is laid out once per call. */
function layoutCache(doc: Doc, prepared: PreparedText): { layOut: (line: string) => LaidOutLine; measure: (line: string) => number } {
  const cache = new Map<string, LaidOutLine>();
  const cachedLayOut = (line: string): LaidOutLine => {
    let laidOut = cache.get(line);
    if (!laidOut) {
      laidOut = layOut(doc, prepared, line);
      cache.set(line, laidOut);
    }
    return laidOut;
  };
  return { layOut: cachedLayOut, measure: line => cachedLayOut(line).width };
}

function alignedStart(box: TextBox, width: number, style: TextStyle, direction: Direction): number {
  const align = style.align === "start" || style.align === undefined ? (direction === "rtl" ? "right" : "left") : style.align;
  if (align === "left") return box.x;
  if (align === "right") return box.x + box.width - width;
  return box.x + (box.width - width) / 2;
}

/**
 * Runs are placed left to right in display order but written to the PDF in reading order: text
 * extraction (copy and paste, search, our tests) then reads each line in the order it was written.
 */
function drawLaidOut(doc: Doc, prepared: PreparedText, { runs, width }: LaidOutLine, box: TextBox, style: TextStyle, size: number): void {
  const xOf = new Map<number, number>();
  let x = alignedStart(box, width, style, prepared.direction);
  for (const run of [...runs].sort((a, b) => a.visualIndex - b.visualIndex)) {
    xOf.set(run.visualIndex, x);
    x += run.width;
  }
  doc.fillColor(style.color ?? "black");
  if (isSyntheticBold(prepared, style)) doc.lineWidth(size * SYNTHETIC_BOLD_EM).strokeColor(style.color ?? "black");
  for (const run of runs) doc.text(run.input, xOf.get(run.visualIndex) ?? box.x, box.baseline, textOptions(prepared, style));
}

/**
 * Draws one line at a fixed place. It never wraps and never moves on to a new page: text too wide
 * is first shrunk (down to `minSize`) and then cut with an ellipsis.
 */
export function drawTextLine(doc: Doc, text: string, box: TextBox, style: TextStyle): void {
  const prepared = prepareText(text);
  if (prepared.text === "") return;
  selectFont(doc, prepared, style, style.size);
  const natural = layOut(doc, prepared, prepared.text);
  const size = style.minSize === undefined ? style.size : shrunkSize(style.size, natural.width, box.width, style.minSize);
  const atSize = scaled(natural, size / style.size);
  if (size !== style.size) doc.fontSize(size);
  if (atSize.width <= box.width + 1e-6) {
    drawLaidOut(doc, prepared, atSize, box, style, size);
    return;
  }
  const cache = layoutCache(doc, prepared);
  drawLaidOut(doc, prepared, cache.layOut(truncateToWidth(prepared.text, box.width, cache.measure)), box, style, size);
}

/** Draws a paragraph on at most `maxLines` lines, the last one cut with an ellipsis if needed. Returns the lines used. */
export function drawTextBlock(doc: Doc, text: string, box: TextBox, style: TextBlockStyle): number {
  const prepared = prepareText(text);
  if (prepared.text === "") return 0;
  selectFont(doc, prepared, style, style.size);
  const { layOut: cachedLayOut, measure } = layoutCache(doc, prepared);
  const lines = wrapWords(prepared.text, box.width, style.maxLines, measure);
  lines.forEach((line, index) => {
    const fitted = measure(line) > box.width ? truncateToWidth(line, box.width, measure) : line;
    drawLaidOut(doc, prepared, cachedLayOut(fitted), { ...box, baseline: box.baseline + index * style.lineHeight }, style, style.size);
  });
  return lines.length;
}
