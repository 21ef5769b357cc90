import {
  BarcodeFormat,
  BinaryBitmap,
  Code128Reader,
  DecodeHintType,
  GlobalHistogramBinarizer,
  HybridBinarizer,
  QRCodeReader,
  RGBLuminanceSource
} from "@zxing/library";
import bwipjs from "bwip-js";
import { LabelData, renderLabelDocument } from "../../../services/labels/render";
import { code128Pattern, qrMatrix, qrRects } from "../../../services/labels/render/barcodes";
import { LabelCell, PdfLabelFormat, labelCells } from "../../../lib/labels/page-formats";
import {
  Rect,
  boundsOf,
  filledRectPaths,
  intersects,
  rasterise,
  readPages,
  strokedLines,
  textOrigins
} from "../../helpers/label-pdf-reading";

const label: LabelData = {
  trackingNumber: "RP123456785DZ",
  relayCode: "DZ-16-ALGER-CENTRE",
  relayName: "Librairie Didouche",
  relayNameAr: "مكتبة ديدوش مراد",
  relayCity: "Alger Centre",
  relayAddress: "42 Rue Didouche Mourad, Alger Centre",
  weightG: 1250,
  codAmountDzd: 1500,
  senderName: "Boutique Yasmine SARL",
  createdAt: "2024-05-01T10:00:00.000Z",
  sandbox: true
};
const MM = 72 / 25.4;

interface DrawnBarcodes {
  code128: Rect[];
  qr: Rect[];
  /** Everything else drawn on the page: other filled shapes, lines, text starts. */
  others: Rect[];
}

/** The Code 128 bars share one top and height; the QR modules are one module high and fill a square. */
function drawnBarcodes(content: string, pageHeight: number): DrawnBarcodes[] {
  const paths = filledRectPaths(content);
  const code128 = paths.filter(
    path => path.length > 20 && path.every(rect => rect.y === path[0].y && rect.height === path[0].height && rect.height > 20)
  );
  const qr = paths.filter(path => {
    if (path.length < 20 || !path.every(rect => rect.height === path[0].height)) return false;
    const bounds = boundsOf(path);
    return Math.abs(bounds.width - bounds.height) < 0.01;
  });
  const others = [
    ...paths.filter(path => !code128.includes(path) && !qr.includes(path)).flat(),
    ...strokedLines(content),
    ...textOrigins(content, pageHeight).map(origin => ({ ...origin, width: 0.01, height: 0.01 }))
  ];
  return code128.map((bars, index) => ({ code128: bars, qr: qr[index], others }));
}

function decode(
  reader: Code128Reader | QRCodeReader,
  rects: Rect[],
  pixelsPerPoint: number,
  margin: number,
  oneDimensional: boolean
): string {
  const { luminance, width, height } = rasterise(rects, pixelsPerPoint, margin);
  const source = new RGBLuminanceSource(luminance, width, height);
  const bitmap = new BinaryBitmap(oneDimensional ? new GlobalHistogramBinarizer(source) : new HybridBinarizer(source));
  const hints = new Map([[DecodeHintType.POSSIBLE_FORMATS, [oneDimensional ? BarcodeFormat.CODE_128 : BarcodeFormat.QR_CODE]]]);
  return reader.decode(bitmap, hints).getText();
}

/** Bar and space widths in modules, read back from the drawn bars. */
function widthsOf(bars: Rect[], module: number): number[] {
  const sorted = [...bars].sort((a, b) => a.x - b.x);
  const widths: number[] = [];
  sorted.forEach((bar, index) => {
    if (index > 0) {
      const previous = sorted[index - 1];
      widths.push((bar.x - previous.x - previous.width) / module);
    }
    widths.push(bar.width / module);
  });
  return widths;
}

function quietZones(symbol: Rect, horizontal: number, vertical: number): Rect[] {
  return [
    { x: symbol.x - horizontal, y: symbol.y - vertical, width: horizontal, height: symbol.height + 2 * vertical },
    { x: symbol.x + symbol.width, y: symbol.y - vertical, width: horizontal, height: symbol.height + 2 * vertical },
    { x: symbol.x, y: symbol.y - vertical, width: symbol.width, height: vertical },
    { x: symbol.x, y: symbol.y + symbol.height, width: symbol.width, height: vertical }
  ].filter(zone => zone.width > 0 && zone.height > 0);
}

function inside(zone: Rect, cell: LabelCell): boolean {
  return (
    zone.x >= cell.x - 1e-6 &&
    zone.y >= cell.y - 1e-6 &&
    zone.x + zone.width <= cell.x + cell.width + 1e-6 &&
    zone.y + zone.height <= cell.y + cell.height + 1e-6
  );
}

describe.each([
  ["a6", 1],
  ["4x6", 1],
  ["a4", 4]
] as const)("barcodes on %s labels", (format: PdfLabelFormat, perPage: number) => {
  const labels = Array.from({ length: perPage }, (_, index) => ({
    ...label,
    trackingNumber: `RP${String(123456785 + index * 1111).padStart(9, "0")}DZ`
  }));
  let page: { content: string; mediaBox: number[] };
  let drawn: DrawnBarcodes[];
  const cells = labelCells(format, perPage);

  beforeAll(async () => {
    page = readPages(await renderLabelDocument(labels, { format }))[0];
    drawn = drawnBarcodes(page.content, page.mediaBox[3]);
  });

  it("draws one Code 128 symbol per label whose bars and spaces are bwip-js's encoding of the tracking number", () => {
    expect(drawn).toHaveLength(perPage);
    drawn.forEach(({ code128 }, index) => {
      const expected = (bwipjs.raw({ bcid: "code128", text: labels[index].trackingNumber })[0] as { sbs: number[] }).sbs;
      const bounds = boundsOf(code128);
      const module = bounds.width / expected.reduce((sum, width) => sum + width, 0);
      const widths = widthsOf(code128, module);
      expect(widths.map(width => Math.round(width))).toEqual(expected);
      // Exact multiples of the module: no bar rounded wider or narrower than its neighbours.
      for (const width of widths) expect(Math.abs(width - Math.round(width))).toBeLessThan(1e-3);
      // GS1 logistic labels: at least 0.495 mm per module.
      expect(module / MM).toBeGreaterThanOrEqual(0.495);
    });
  });

  it("draws Code 128 symbols that a barcode reader decodes to the tracking number", () => {
    drawn.forEach(({ code128 }, index) => {
      expect(decode(new Code128Reader(), code128, 4, 15, true)).toBe(labels[index].trackingNumber);
    });
  });

  it("draws QR codes that a reader decodes to the tracking number", () => {
    drawn.forEach(({ qr }, index) => {
      const module = qr[0].height;
      expect(decode(new QRCodeReader(), qr, 8 / module, 4 * module, false)).toBe(labels[index].trackingNumber);
      // Every dark module of the encoder's matrix, and nothing else, is painted.
      const bounds = boundsOf(qr);
      const expected = qrRects(qrMatrix(labels[index].trackingNumber)).map(rect => [rect.x, rect.y, rect.width]);
      const painted = qr.map(rect => [(rect.x - bounds.x) / module, (rect.y - bounds.y) / module, rect.width / module].map(Math.round));
      expect(painted).toEqual(expected);
    });
  });

  it("keeps ten modules clear on each side of the Code 128 symbol and four around the QR code, inside the label", () => {
    drawn.forEach(({ code128, qr }, index) => {
      const cell = cells[index];
      const bars = boundsOf(code128);
      const barModule = bars.width / code128Pattern(labels[index].trackingNumber).modules;
      const square = boundsOf(qr);
      const zones = [...quietZones(bars, 10 * barModule, 0), ...quietZones(square, 4 * qr[0].height, 4 * qr[0].height)];
      for (const zone of zones) {
        expect(inside(zone, cell)).toBe(true);
        const intruders = drawn.flatMap(other => [...other.others, ...(other === drawn[index] ? [] : [...other.code128, ...other.qr])]);
        expect(intruders.filter(thing => intersects(zone, thing))).toEqual([]);
      }
      expect(bars.x).toBeGreaterThanOrEqual(cell.x);
      expect(square.x + square.width).toBeLessThanOrEqual(cell.x + cell.width);
    });
  });
});
