import PDFDocument from "pdfkit";
import { code128Pattern, qrMatrix } from "./barcodes";
import { LabelData, MAX_LABELS_PER_DOCUMENT, assertPrintable } from "../../../lib/labels/label-data";
import { PDF_FORMATS, PdfLabelFormat, labelCells } from "../../../lib/labels/page-formats";
import { LabelBarcodes, drawLabel } from "./pdf-label";

export interface LabelDocumentOptions {
  format: PdfLabelFormat;
  /** A4 only: label positions (0–3) already used on the first sheet. */
  startOffset?: number;
}

export function assertLabelCount(labels: readonly LabelData[]): void {
  if (labels.length === 0 || labels.length > MAX_LABELS_PER_DOCUMENT) {
    throw new RangeError(`a label document holds 1 to ${MAX_LABELS_PER_DOCUMENT} labels, got ${labels.length}`);
  }
}

export function barcodesOf(label: LabelData): LabelBarcodes {
  return { code128: code128Pattern(label.trackingNumber), qr: qrMatrix(label.trackingNumber) };
}

/**
 * One PDF for many labels: one page per label in A6 and 4×6, four per page on A4. Everything is
 * checked and encoded before the document starts, so a bad label fails the call instead of
 * leaving a half-written stream.
 */
export async function renderLabelDocument(labels: readonly LabelData[], options: LabelDocumentOptions): Promise<Buffer> {
  assertLabelCount(labels);
  labels.forEach(assertPrintable);
  const cells = labelCells(options.format, labels.length, options.startOffset ?? 0);
  const barcodes = labels.map(barcodesOf);
  const spec = PDF_FORMATS[options.format];
  const size: [number, number] = [spec.pageWidth, spec.pageHeight];

  const title = labels.length === 1 ? `Label ${labels[0].trackingNumber}` : `${labels.length} labels`;
  // No default font (font: ""): pdfkit would parse Helvetica's metrics for this document alone;
  // every text call selects its font, shared between documents (pdf-fonts.ts).
  const doc = new PDFDocument({ size, margin: 0, autoFirstPage: false, font: "", info: { Title: title, Creator: "relay-parcels" } });
  const chunks: Buffer[] = [];
  const finished = new Promise<Buffer>((resolve, reject) => {
    doc.on("data", (chunk: Buffer) => chunks.push(chunk));
    doc.on("end", () => resolve(Buffer.concat(chunks)));
    doc.on("error", reject);
  });

  let page = -1;
  labels.forEach((label, index) => {
    const cell = cells[index];
    if (cell.page !== page) {
      doc.addPage({ size, margin: 0 });
      page = cell.page;
    }
    drawLabel(doc, label, barcodes[index], cell, spec.dotsPerInch);
  });
  doc.end();
  return finished;
}

/** The A6 label of one parcel, as `labelUrl` serves it. */
export async function renderLabelPdf(label: LabelData): Promise<Buffer> {
  return renderLabelDocument([label], { format: "a6" });
}
