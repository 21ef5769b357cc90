import parseWithPdfJs = require("pdf-parse/lib/pdf-parse.js");

/**
 * Text and page count of a PDF. pdf-parse bundles a 2017 pdf.js whose "fake worker" has been seen
 * to fail once in a while on a loaded machine, on PDFs that parse fine on the next call; one retry
 * keeps that tool's hiccup from reading as a defect of the label. A PDF that is really broken fails
 * both times.
 */
export async function parsePdf(data: Buffer): Promise<{ numpages: number; text: string }> {
  try {
    return await parseWithPdfJs(data);
  } catch {
    return parseWithPdfJs(data);
  }
}
