// eslint-disable-next-line @typescript-eslint/no-require-imports -- pdf-parse's inner module, without its debug entry point
import parseWithPdfJs = require("pdf-parse/lib/pdf-parse.js");

/**
 * Text and page count of a PDF. pdf-parse bundles a 2017 pdf.js whose "fake worker" has been seen
 * to fail once in a while on a loaded machine (an empty UnknownErrorException), on PDFs that parse
 * fine a moment later; a few spaced retries keep that tool's hiccup from reading as a defect of the
 * label. A PDF that is really broken fails every time.
 */
export async function parsePdf(data: Buffer, attempts = 4): Promise<{ numpages: number; text: string }> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await parseWithPdfJs(data);
    } catch (err) {
      if (attempt >= attempts) throw err;
      await new Promise(resolve => setTimeout(resolve, 250 * attempt));
    }
  }
}
