import { Code128Pattern, QrMatrix } from "./barcodes";
import {
  LabelData,
  SANDBOX_MARK,
  cityAndWilaya,
  distinctSecondName,
  formatDzd,
  formatLabelDate,
  formatWeight,
  hasCashOnDelivery,
  wilayaBox
} from "../../../lib/labels/label-data";
import { LabelCell } from "../../../lib/labels/page-formats";
import { BarcodePlacement, drawCode128, drawQr, placeCode128, placeQr } from "./pdf-barcodes";
import { TextBox, drawTextBlock, drawTextLine } from "./pdf-text";

type Doc = PDFKit.PDFDocument;

/** The encoded barcodes of one label, computed before drawing. */
export interface LabelBarcodes {
  code128: Code128Pattern;
  qr: QrMatrix;
}

/** Where the barcodes of a label go. */
interface LabelBarcodeLayout {
  code128: BarcodePlacement;
  qr: BarcodePlacement;
}

const MARGIN = 14;
const RULE_WIDTH = 0.8;
const SANDBOX_RED = "#c62828";
/** Everything is black: thermal printers dither grey into speckles that small text does not survive. */
const INK = "black";

/**
 * Fixed vertical positions, in points from the top of the label. The upper part (sender, relay,
 * weight, QR code) is anchored to the top, the lower part (COD, Code 128, tracking number) to the
 * bottom, so the taller 4×6 label simply gets taller bars.
 */
const TOP = {
  headerBaseline: 33,
  headerRule: 40,
  captionBaseline: 51,
  relayCodeBaseline: 73,
  relayBlockBottom: 146,
  middleRule: 153,
  qrMaxSide: 114,
  weightCaptionBaseline: 167,
  weightBaseline: 184,
  noteBaseline: 200,
  codTop: 268
} as const;
const BOTTOM = {
  barsTopFromCod: 34,
  barsBottom: 48,
  trackingBaseline: 28
} as const;
const COD_HEIGHT = 28;
/** The wilaya box at the right of the relay code: "WILAYA" over the number, white on black. */
const WILAYA_BOX = { width: 44, top: 53, height: 27, gap: 6 } as const;

function barcodeLayout(barcodes: LabelBarcodes, cell: LabelCell, dotsPerInch: number): LabelBarcodeLayout {
  const qr = placeQr(barcodes.qr, cell.x + cell.width - 2, cell.y + TOP.middleRule + 1, TOP.qrMaxSide, dotsPerInch);
  const barsTop = cell.y + TOP.codTop + BOTTOM.barsTopFromCod;
  const code128 = placeCode128(
    barcodes.code128,
    { x: cell.x, y: barsTop, width: cell.width, height: cell.y + cell.height - BOTTOM.barsBottom - barsTop },
    dotsPerInch
  );
  return { code128, qr };
}

function rule(doc: Doc, cell: LabelCell, y: number): void {
  doc
    .moveTo(cell.x + MARGIN, cell.y + y)
    .lineTo(cell.x + cell.width - MARGIN, cell.y + y)
    .lineWidth(RULE_WIDTH)
    .stroke(INK);
}

/**
 * Relay lines stack downwards from the code; each takes its room only if present, and the
 * address gives up its second line before anything else is dropped.
 */
function drawRelayBlock(doc: Doc, label: LabelData, cell: LabelCell): void {
  const x = cell.x + MARGIN;
  const width = cell.width - 2 * MARGIN;
  const box = (baseline: number): TextBox => ({ x, baseline: cell.y + baseline, width });
  let baseline: number = TOP.relayCodeBaseline;

  baseline += 17;
  drawTextLine(doc, label.relayName, box(baseline), { size: 12, minSize: 9, align: "start" });

  const nameAr = distinctSecondName(label.relayName, label.relayNameAr);
  if (nameAr) {
    baseline += 18;
    drawTextLine(doc, nameAr, box(baseline), { size: 13, minSize: 9, align: "start" });
  }

  const cityAr = distinctSecondName(label.relayCity, label.relayCityAr);
  const hasCityLine = Boolean(label.relayCity?.trim() || cityAr || wilayaBox(label));
  const cityLineHeight = 15;
  if (label.relayAddress?.trim()) {
    const lineHeight = 10;
    // Arabic letters reach further below the baseline than Latin ones.
    const firstLineOffset = nameAr ? 13 : 11;
    const room = TOP.relayBlockBottom - (hasCityLine ? cityLineHeight : 0) - baseline - firstLineOffset;
    const maxLines = Math.max(1, Math.min(2, Math.floor(room / lineHeight) + 1));
    baseline += firstLineOffset;
    const used = drawTextBlock(doc, label.relayAddress, box(baseline), { size: 8, maxLines, lineHeight, align: "start" });
    baseline += (used - 1) * lineHeight;
  }

  if (hasCityLine) {
    baseline += cityLineHeight;
    const half = (width - 8) / 2;
    const city = label.relayCity?.trim();
    const wilaya = wilayaBox(label);
    if (city && cityAr) {
      drawTextLine(
        doc,
        cityAndWilaya(city, wilaya, "fr"),
        { x, baseline: cell.y + baseline, width: half },
        { size: 10, weight: "bold", minSize: 7, align: "left" }
      );
      drawTextLine(
        doc,
        cityAndWilaya(cityAr, wilaya, "ar"),
        { x: x + width - half, baseline: cell.y + baseline, width: half },
        { size: 11, weight: "bold", minSize: 7, align: "right" }
      );
    } else {
      const line = cityAr && !city ? cityAndWilaya(cityAr, wilaya, "ar") : cityAndWilaya(city, wilaya, "fr");
      drawTextLine(doc, line, box(baseline), { size: 10, weight: "bold", minSize: 7, align: "start" });
    }
  }
}

/** Sorting reads the wilaya from here, whatever number the code carries. */
function drawWilayaBox(doc: Doc, wilaya: string, cell: LabelCell): void {
  const x = cell.x + cell.width - MARGIN - WILAYA_BOX.width;
  const y = cell.y + WILAYA_BOX.top;
  doc.rect(x, y, WILAYA_BOX.width, WILAYA_BOX.height).fill(INK);
  const line = { x, width: WILAYA_BOX.width };
  drawTextLine(doc, "WILAYA", { ...line, baseline: y + 7.5 }, { size: 6, weight: "bold", align: "center", color: "white" });
  drawTextLine(doc, wilaya, { ...line, baseline: y + 24 }, { size: 17, weight: "bold", align: "center", color: "white" });
}

function drawSandboxMarks(doc: Doc, cell: LabelCell): void {
  doc.save();
  doc.rect(cell.x, cell.y, cell.width, 20).fill(SANDBOX_RED);
  drawTextLine(
    doc,
    SANDBOX_MARK,
    { x: cell.x + MARGIN, baseline: cell.y + 14, width: cell.width - 2 * MARGIN },
    { size: 10, weight: "bold", align: "center", color: "white" }
  );
  doc.restore();

  // Diagonal watermark: a strip at the top can be cut off or covered by tape; this cannot.
  doc.save();
  const centreX = cell.x + cell.width / 2;
  const centreY = cell.y + cell.height / 2;
  const diagonalDegrees = (Math.atan2(cell.height, cell.width) * 180) / Math.PI;
  const watermarkWidth = Math.hypot(cell.width, cell.height) - 2 * MARGIN;
  doc.rotate(-diagonalDegrees, { origin: [centreX, centreY] });
  doc.opacity(0.2);
  drawTextLine(
    doc,
    SANDBOX_MARK,
    { x: centreX - watermarkWidth / 2, baseline: centreY + 10, width: watermarkWidth },
    { size: 28, minSize: 12, weight: "bold", align: "center", color: SANDBOX_RED }
  );
  doc.restore();
}

/** Draws one label into `cell`, which may be a whole page (A6, 4×6) or a quarter of one (A4). */
export function drawLabel(doc: Doc, label: LabelData, barcodes: LabelBarcodes, cell: LabelCell, dotsPerInch: number): void {
  const left = cell.x + MARGIN;
  const contentWidth = cell.width - 2 * MARGIN;
  const at = (baseline: number, width = contentWidth, x = left): TextBox => ({ x, baseline: cell.y + baseline, width });
  const layout = barcodeLayout(barcodes, cell, dotsPerInch);

  // The header: the sender, and the brand the parcel travels under (BRAND_NAME) at the right; the
  // date then goes to the caption line, where the short caption leaves room for it.
  const brandWidth = label.brandName ? Math.min(120, contentWidth * 0.42) : 0;
  const headerLeftWidth = label.brandName ? contentWidth - brandWidth - 6 : contentWidth - 80;
  drawTextLine(doc, `From: ${label.senderName}`, at(TOP.headerBaseline, headerLeftWidth), { size: 9 });
  const date = formatLabelDate(label.createdAt);
  if (label.brandName) {
    const brandBox = at(TOP.headerBaseline, brandWidth, left + contentWidth - brandWidth);
    drawTextLine(doc, label.brandName, brandBox, { size: 11, minSize: 6, weight: "bold", align: "right" });
  } else {
    drawTextLine(doc, date, at(TOP.headerBaseline, 75, left + contentWidth - 75), { size: 9, align: "right" });
  }
  rule(doc, cell, TOP.headerRule);

  drawTextLine(doc, "DESTINATION RELAY POINT", at(TOP.captionBaseline, contentWidth - 80), { size: 7 });
  if (label.brandName) drawTextLine(doc, date, at(TOP.captionBaseline, 75, left + contentWidth - 75), { size: 8, align: "right" });
  // The relay code and its wilaya are what sorting reads: shrink the code rather than cut it.
  const wilaya = wilayaBox(label);
  if (wilaya) drawWilayaBox(doc, wilaya, cell);
  const codeWidth = wilaya ? contentWidth - WILAYA_BOX.width - WILAYA_BOX.gap : contentWidth;
  drawTextLine(doc, label.relayCode, at(TOP.relayCodeBaseline, codeWidth), { size: 22, minSize: 9, weight: "bold" });
  drawRelayBlock(doc, label, cell);
  rule(doc, cell, TOP.middleRule);

  const qrClearLeft = layout.qr.x - layout.qr.quietZone;
  const leftColumnWidth = qrClearLeft - left - 4;
  drawTextLine(doc, "WEIGHT", at(TOP.weightCaptionBaseline, leftColumnWidth), { size: 7 });
  drawTextLine(doc, formatWeight(label.weightG), at(TOP.weightBaseline, leftColumnWidth), { size: 13, minSize: 8, weight: "bold" });
  drawTextBlock(doc, "Hand-over at the relay against the pick-up SMS and an identity document.", at(TOP.noteBaseline, leftColumnWidth), {
    size: 8,
    maxLines: 4,
    lineHeight: 10
  });
  drawQr(doc, barcodes.qr, layout.qr);

  if (hasCashOnDelivery(label)) {
    doc.rect(left, cell.y + TOP.codTop, contentWidth, COD_HEIGHT).fill(INK);
    // The amount to collect must never be cut off by an ellipsis, hence the shrink-to-fit.
    drawTextLine(doc, `COD: ${formatDzd(label.codAmountDzd)} — to collect`, at(TOP.codTop + 18.5, contentWidth - 12, left + 6), {
      size: 13,
      minSize: 7,
      weight: "bold",
      align: "center",
      color: "white"
    });
  }

  drawCode128(doc, barcodes.code128, layout.code128);
  drawTextLine(doc, label.trackingNumber, at(cell.height - BOTTOM.trackingBaseline), {
    size: 18,
    minSize: 8,
    monospace: true,
    align: "center"
  });

  if (label.sandbox) drawSandboxMarks(doc, cell);
}
