export type PdfLabelFormat = "a6" | "4x6" | "a4";
export type LabelFormat = PdfLabelFormat | "zpl";

export const LABEL_FORMATS: readonly LabelFormat[] = ["a6", "4x6", "a4", "zpl"];

/** What a label document is served as: PDF, or ZPL as plain text (what printers, `lp -o raw` and browsers take). */
export const PDF_CONTENT_TYPE = "application/pdf";
export const ZPL_CONTENT_TYPE = "text/plain; charset=utf-8";

const POINTS_PER_INCH = 72;

/** Where one label is drawn, in PDF points from the top-left corner of its page. */
export interface LabelCell {
  page: number;
  x: number;
  y: number;
  width: number;
  height: number;
}

export interface PdfFormatSpec {
  pageWidth: number;
  pageHeight: number;
  labelsPerPage: number;
  /**
   * The printer dot the barcodes are sized in: bars a whole number of dots wide print with even
   * widths instead of alternately rounding up and down. Thermal 4×6 printers are 203 dpi; A6 and A4
   * go to office printers, 300 or 600 dpi.
   */
  dotsPerInch: number;
}

/** ISO sizes as pdfkit names them (105 × 148 mm and 210 × 297 mm, to 1/100 pt). */
export const PDF_FORMATS: Record<PdfLabelFormat, PdfFormatSpec> = {
  a6: { pageWidth: 297.64, pageHeight: 419.53, labelsPerPage: 1, dotsPerInch: 300 },
  "4x6": { pageWidth: 4 * POINTS_PER_INCH, pageHeight: 6 * POINTS_PER_INCH, labelsPerPage: 1, dotsPerInch: 203 },
  a4: { pageWidth: 595.28, pageHeight: 841.89, labelsPerPage: 4, dotsPerInch: 300 }
};

export function isLabelFormat(value: unknown): value is LabelFormat {
  return typeof value === "string" && (LABEL_FORMATS as readonly string[]).includes(value);
}

/**
 * Where each of `count` labels goes. On A4 the page holds four A6 labels, two by two, filled row
 * by row; `startOffset` skips the first 0–3 positions of the first sheet, so a sheet of label paper
 * with some labels already used can go back into the printer.
 */
export function labelCells(format: PdfLabelFormat, count: number, startOffset = 0): LabelCell[] {
  if (!Number.isInteger(startOffset) || startOffset < 0 || startOffset >= PDF_FORMATS[format].labelsPerPage) {
    throw new RangeError(
      format === "a4"
        ? `startOffset must be an integer from 0 to 3 on A4, got ${startOffset}`
        : `startOffset must be 0 for ${format} (one label per page), got ${startOffset}`
    );
  }
  const { pageWidth, pageHeight, labelsPerPage } = PDF_FORMATS[format];
  const columns = labelsPerPage === 1 ? 1 : 2;
  const rows = labelsPerPage / columns;
  const width = pageWidth / columns;
  const height = pageHeight / rows;
  return Array.from({ length: count }, (_, index) => {
    const position = index + startOffset;
    const slot = position % labelsPerPage;
    return {
      page: Math.floor(position / labelsPerPage),
      x: (slot % columns) * width,
      y: Math.floor(slot / columns) * height,
      width,
      height
    };
  });
}

/** Pages a document of `count` labels needs. */
export function pageCount(format: PdfLabelFormat, count: number, startOffset = 0): number {
  return count === 0 ? 0 : Math.ceil((count + startOffset) / PDF_FORMATS[format].labelsPerPage);
}
