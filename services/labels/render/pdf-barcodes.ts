import { CODE128_QUIET_ZONE_MODULES, Code128Pattern, ModuleRect, QR_QUIET_ZONE_MODULES, QrMatrix, code128Bars, qrRects } from "./barcodes";

type Doc = PDFKit.PDFDocument;

/** A barcode's place on the page, in points; `module` is the width (and for QR, height) of one module. */
export interface BarcodePlacement {
  x: number;
  y: number;
  width: number;
  height: number;
  module: number;
  /** Clear space kept on each side, in points. */
  quietZone: number;
}

/** 0.5 mm: the smallest module GS1 allows on logistic labels (GS1 General Specifications 5.4). */
const CODE128_TARGET_MODULE_INCHES = 0.02;
/** About 1.35 mm per QR module: a phone camera reads it from a counter's length away. */
const QR_TARGET_MODULE_INCHES = 0.053;

function snap(value: number, dot: number): number {
  return Math.round(value / dot) * dot;
}

/** The largest whole number of printer dots, up to `targetInches`, that fits `modules` into `width`. */
function moduleSize(targetInches: number, modules: number, width: number, dotsPerInch: number): number {
  const dot = 72 / dotsPerInch;
  const targetDots = Math.max(1, Math.round(targetInches * dotsPerInch));
  const fittingDots = Math.floor(width / modules / dot);
  // A symbol too long even at one dot per module is scaled to fit rather than cut.
  return fittingDots >= 1 ? Math.min(targetDots, fittingDots) * dot : width / modules;
}

/** Centres a Code 128 symbol, with its quiet zones, across `width` points starting at `x`. */
export function placeCode128(
  pattern: Code128Pattern,
  area: { x: number; y: number; width: number; height: number },
  dotsPerInch: number
): BarcodePlacement {
  const withQuietZones = pattern.modules + 2 * CODE128_QUIET_ZONE_MODULES;
  const module = moduleSize(CODE128_TARGET_MODULE_INCHES, withQuietZones, area.width, dotsPerInch);
  const width = pattern.modules * module;
  const x = snap(area.x + (area.width - width) / 2, 72 / dotsPerInch);
  return { x, y: area.y, width, height: area.height, module, quietZone: CODE128_QUIET_ZONE_MODULES * module };
}

/** Places a QR symbol so that it and its quiet zone fit in a square of `maxSide` points whose top right is (right, top). */
export function placeQr(matrix: QrMatrix, right: number, top: number, maxSide: number, dotsPerInch: number): BarcodePlacement {
  const withQuietZone = matrix.size + 2 * QR_QUIET_ZONE_MODULES;
  const module = moduleSize(QR_TARGET_MODULE_INCHES, withQuietZone, maxSide, dotsPerInch);
  const side = matrix.size * module;
  const quietZone = QR_QUIET_ZONE_MODULES * module;
  const dot = 72 / dotsPerInch;
  return { x: snap(right - quietZone - side, dot), y: snap(top + quietZone, dot), width: side, height: side, module, quietZone };
}

/**
 * One path, one fill: the bars or modules are rasterised together, so no hairline seams appear
 * between touching rectangles, and the content stream stays small.
 */
function fillRects(doc: Doc, rects: ModuleRect[], placement: BarcodePlacement, moduleHeight: number): void {
  for (const rect of rects) {
    doc.rect(
      placement.x + rect.x * placement.module,
      placement.y + rect.y * moduleHeight,
      rect.width * placement.module,
      rect.height * moduleHeight
    );
  }
  doc.fill("black");
}

export function drawCode128(doc: Doc, pattern: Code128Pattern, placement: BarcodePlacement): void {
  fillRects(doc, code128Bars(pattern), placement, placement.height);
}

export function drawQr(doc: Doc, matrix: QrMatrix, placement: BarcodePlacement): void {
  fillRects(doc, qrRects(matrix), placement, placement.module);
}
