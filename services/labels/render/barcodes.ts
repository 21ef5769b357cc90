import bwipjs from "bwip-js";
import { encode as encodeQr } from "uqr";

/** Code 128 as its run of bar and space widths, in modules, starting with a bar. */
export interface Code128Pattern {
  widths: number[];
  /** Total width of the symbol in modules, without quiet zones. */
  modules: number;
}

/** A QR symbol without its quiet zone: `dark[row][column]`. */
export interface QrMatrix {
  size: number;
  dark: boolean[][];
}

/** A dark area of a barcode, in modules from the symbol's top-left corner. */
export interface ModuleRect {
  x: number;
  y: number;
  width: number;
  height: number;
}

/** ISO/IEC 15417: ten modules of clear space on each side of a Code 128 symbol. */
export const CODE128_QUIET_ZONE_MODULES = 10;
/** ISO/IEC 18004: four modules of clear space around a QR symbol. */
export const QR_QUIET_ZONE_MODULES = 4;

function isLinearSymbol(value: object): value is { sbs: number[] } {
  return "sbs" in value && Array.isArray(value.sbs);
}

/**
 * bwip-js encodes (start code, subset switching, check character, stop): the encoding is the
 * library's well-tested one, only the drawing is ours.
 */
export function code128Pattern(text: string): Code128Pattern {
  const [symbol] = bwipjs.raw({ bcid: "code128", text });
  if (!symbol || !isLinearSymbol(symbol)) throw new Error("bwip-js returned no Code 128 pattern");
  const widths = symbol.sbs.slice();
  return { widths, modules: widths.reduce((sum, width) => sum + width, 0) };
}

/** The bars of a Code 128 pattern as rectangles one module high. */
export function code128Bars(pattern: Code128Pattern): ModuleRect[] {
  const bars: ModuleRect[] = [];
  let x = 0;
  pattern.widths.forEach((width, index) => {
    if (index % 2 === 0) bars.push({ x, y: 0, width, height: 1 });
    x += width;
  });
  return bars;
}

/**
 * uqr (a port of Nayuki's QR generator) rather than bwip-js here: same symbol quality (automatic
 * mode selection and mask scoring) at about a quarter of bwip-js's time, which is most of a
 * label's budget. Level Q survives a quarter of the symbol being scuffed or taped over.
 */
export function qrMatrix(text: string): QrMatrix {
  const qr = encodeQr(text, { ecc: "Q", border: 0 });
  return { size: qr.size, dark: qr.data };
}

/** Dark modules merged into one rectangle per horizontal run: a few dozen shapes instead of hundreds. */
export function qrRects(matrix: QrMatrix): ModuleRect[] {
  const rects: ModuleRect[] = [];
  matrix.dark.forEach((row, y) => {
    let runStart = -1;
    for (let x = 0; x <= row.length; x++) {
      const dark = x < row.length && row[x];
      if (dark && runStart < 0) runStart = x;
      if (!dark && runStart >= 0) {
        rects.push({ x: runStart, y, width: x - runStart, height: 1 });
        runStart = -1;
      }
    }
  });
  return rects;
}
