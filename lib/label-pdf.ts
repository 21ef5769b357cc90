import PDFDocument from "pdfkit";
import bwipjs from "bwip-js";

/**
 * What a label shows. The recipient's name and phone are deliberately absent: hand-over at the
 * relay is by tracking number, the pick-up SMS and an identity document, so the name would add nothing to the
 * hand-over, while the label passes through couriers, sorting centres and relay counters. Printing
 * it would expose personal data that we otherwise keep encrypted at rest (DESIGN §2).
 */
export interface LabelData {
  trackingNumber: string;
  relayCode: string;
  relayName: string;
  relayCity?: string | null;
  weightG: number;
  codAmountDzd: number | null;
  senderName: string;
  createdAt: string | Date;
  sandbox?: boolean;
}

export const SANDBOX_MARK = "SANDBOX — NOT FOR SHIPPING";

// A6 in PostScript points (105 × 148 mm).
const PAGE_WIDTH = 297.64;
const PAGE_HEIGHT = 419.53;
const MARGIN = 14;
const CONTENT_WIDTH = PAGE_WIDTH - 2 * MARGIN;
// Code 128 needs a quiet zone of ten modules on each side; 24 pt is comfortably more than that.
const BARCODE_SIDE_GAP = 24;
const QR_SIZE = 96;

type Doc = PDFKit.PDFDocument;

interface LineOptions {
  font: string;
  size: number;
  width: number;
  align?: "left" | "center" | "right";
  color?: string;
  /** Shrink the font down to this size before truncating, for values that must stay whole. */
  minSize?: number;
  maxLines?: number;
}

// Characters outside Latin-1 that the WinAnsi encoding of the standard PDF fonts still has.
const WIN_ANSI_EXTRAS = new Set("€‚ƒ„…†‡ˆ‰Š‹ŒŽ‘’“”•–—˜™š›œžŸ");

/**
 * The built-in PDF fonts only encode WinAnsi; anything else (Arabic, Tifinagh, emoji) would come
 * out as unrelated Latin glyphs that a courier could misread. A visible "?" is the honest fallback
 * until a Unicode font is bundled with the labels service.
 */
export function toPrintableWinAnsi(text: string): string {
  let printable = "";
  for (const char of text.normalize("NFC")) {
    const code = char.codePointAt(0) ?? 0;
    const encodable = (code >= 0x20 && code <= 0x7e) || (code >= 0xa0 && code <= 0xff) || WIN_ANSI_EXTRAS.has(char);
    printable += encodable ? char : code < 0x20 ? " " : "?";
  }
  return printable;
}

/**
 * Every piece of text is drawn at a fixed position inside a box of fixed height. pdfkit adds a page
 * whenever unbounded text runs past the bottom margin, and only a `height` stops that: with it, an
 * over-long relay or sender name ends in an ellipsis instead of spilling onto a second page.
 */
function drawText(doc: Doc, text: string, x: number, y: number, options: LineOptions): void {
  const maxLines = options.maxLines ?? 1;
  const printable = toPrintableWinAnsi(text);
  let size = options.size;
  doc.font(options.font);
  if (options.minSize !== undefined) {
    while (size > options.minSize && doc.fontSize(size).widthOfString(printable) > options.width) size -= 0.5;
  }
  doc.fontSize(size).fillColor(options.color ?? "black");
  const lineHeight = doc.currentLineHeight(true);
  doc.text(printable, x, y, {
    width: options.width,
    height: lineHeight * maxLines,
    ellipsis: true,
    align: options.align ?? "left"
  });
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

/** A COD of zero is no COD: printing "to collect 0,00 DZD" would only confuse the relay. */
function hasCashOnDelivery(label: LabelData): label is LabelData & { codAmountDzd: number } {
  return label.codAmountDzd !== null && label.codAmountDzd > 0;
}

function renderBarcodes(trackingNumber: string): Promise<[Buffer, Buffer]> {
  return Promise.all([
    bwipjs.toBuffer({ bcid: "code128", text: trackingNumber, scale: 3, height: 18, includetext: false }),
    bwipjs.toBuffer({ bcid: "qrcode", text: trackingNumber, scale: 4 })
  ]);
}

function drawSandboxMarks(doc: Doc): void {
  doc.save();
  doc.rect(0, 0, PAGE_WIDTH, 20).fill("#c62828");
  drawText(doc, SANDBOX_MARK, MARGIN, 6, { font: "Helvetica-Bold", size: 10, width: CONTENT_WIDTH, align: "center", color: "white" });
  doc.restore();

  // Diagonal watermark: a strip at the top can be cut off or covered by tape; this cannot.
  doc.save();
  const diagonalDegrees = (Math.atan2(PAGE_HEIGHT, PAGE_WIDTH) * 180) / Math.PI;
  const watermarkWidth = 420;
  doc.rotate(-diagonalDegrees, { origin: [PAGE_WIDTH / 2, PAGE_HEIGHT / 2] });
  doc.opacity(0.2);
  drawText(doc, SANDBOX_MARK, (PAGE_WIDTH - watermarkWidth) / 2, PAGE_HEIGHT / 2 - 14, {
    font: "Helvetica-Bold",
    size: 28,
    minSize: 12,
    width: watermarkWidth,
    align: "center",
    color: "#c62828"
  });
  doc.restore();
}

function drawLabel(doc: Doc, label: LabelData, code128Png: Buffer, qrPng: Buffer): void {
  const grey = "#555555";

  drawText(doc, `From: ${label.senderName}`, MARGIN, 26, { font: "Helvetica", size: 9, width: CONTENT_WIDTH - 80 });
  drawText(doc, formatLabelDate(label.createdAt), PAGE_WIDTH - MARGIN - 75, 26, {
    font: "Helvetica",
    size: 9,
    width: 75,
    align: "right"
  });
  doc.moveTo(MARGIN, 42).lineTo(PAGE_WIDTH - MARGIN, 42).lineWidth(0.8).stroke("black");

  drawText(doc, "DESTINATION RELAY POINT", MARGIN, 50, { font: "Helvetica", size: 7, width: CONTENT_WIDTH, color: grey });
  // The relay code is what sorting reads: shrink it rather than cut it.
  drawText(doc, label.relayCode, MARGIN, 60, { font: "Helvetica-Bold", size: 22, minSize: 9, width: CONTENT_WIDTH });
  drawText(doc, label.relayName, MARGIN, 88, { font: "Helvetica", size: 12, width: CONTENT_WIDTH, maxLines: 2 });
  if (label.relayCity) {
    drawText(doc, label.relayCity, MARGIN, 120, { font: "Helvetica-Bold", size: 10, width: CONTENT_WIDTH });
  }
  doc.moveTo(MARGIN, 138).lineTo(PAGE_WIDTH - MARGIN, 138).lineWidth(0.8).stroke("black");

  const leftColumnWidth = CONTENT_WIDTH - QR_SIZE - 10;
  drawText(doc, "WEIGHT", MARGIN, 148, { font: "Helvetica", size: 7, width: leftColumnWidth, color: grey });
  drawText(doc, formatWeight(label.weightG), MARGIN, 158, { font: "Helvetica-Bold", size: 13, minSize: 8, width: leftColumnWidth });
  drawText(doc, "Hand-over at the relay against the pick-up SMS and an identity document.", MARGIN, 188, {
    font: "Helvetica",
    size: 8,
    width: leftColumnWidth,
    maxLines: 4,
    color: grey
  });
  doc.image(qrPng, PAGE_WIDTH - MARGIN - QR_SIZE, 146, { width: QR_SIZE, height: QR_SIZE });

  if (hasCashOnDelivery(label)) {
    doc.rect(MARGIN, 250, CONTENT_WIDTH, 26).fill("black");
    // The amount to collect must never be cut off by an ellipsis, hence the shrink-to-fit.
    drawText(doc, `COD: ${formatDzd(label.codAmountDzd)} — to collect`, MARGIN + 6, 257, {
      font: "Helvetica-Bold",
      size: 13,
      minSize: 7,
      width: CONTENT_WIDTH - 12,
      align: "center",
      color: "white"
    });
  }

  const barcodeWidth = PAGE_WIDTH - 2 * BARCODE_SIDE_GAP;
  doc.image(code128Png, BARCODE_SIDE_GAP, 286, { width: barcodeWidth, height: 78 });
  drawText(doc, label.trackingNumber, MARGIN, 370, {
    font: "Courier-Bold",
    size: 18,
    minSize: 8,
    width: CONTENT_WIDTH,
    align: "center"
  });

  if (label.sandbox) drawSandboxMarks(doc);
}

/**
 * Renders the A6 shipping label. The barcodes come from bwip-js as PNGs rather than being drawn
 * here, so that their encoding (start/stop codes, check characters, QR error correction) is the
 * library's well-tested one and not ours.
 */
export async function renderLabelPdf(label: LabelData): Promise<Buffer> {
  // Validate before the (comparatively slow) barcode rendering, and fail outside the PDF stream.
  formatLabelDate(label.createdAt);
  const [code128Png, qrPng] = await renderBarcodes(label.trackingNumber);

  const doc = new PDFDocument({
    size: "A6",
    margin: 0,
    info: { Title: `Label ${label.trackingNumber}`, Creator: "relay-parcels" }
  });
  const chunks: Buffer[] = [];
  const finished = new Promise<Buffer>((resolve, reject) => {
    doc.on("data", (chunk: Buffer) => chunks.push(chunk));
    doc.on("end", () => resolve(Buffer.concat(chunks)));
    doc.on("error", reject);
  });
  drawLabel(doc, label, code128Png, qrPng);
  doc.end();
  return finished;
}
