import type { LabelData } from "../../../lib/labels/label-data";
import { PDF_CONTENT_TYPE, ZPL_CONTENT_TYPE } from "../../../lib/labels/page-formats";
import { renderLabelDocument } from "./pdf-document";
import type { PrintOptions } from "../../../lib/labels/print-options";
import { renderZpl } from "./zpl";

/** A rendered label document, ready to be served. */
export interface LabelFile {
  content: Buffer;
  /** PDF_CONTENT_TYPE or ZPL_CONTENT_TYPE. */
  contentType: string;
  extension: "pdf" | "zpl";
}

/** One document of one or more labels, in the format asked for. */
export async function renderLabelFile(labels: readonly LabelData[], options: PrintOptions): Promise<LabelFile> {
  if (options.format === "zpl") {
    return { content: Buffer.from(renderZpl(labels), "utf8"), contentType: ZPL_CONTENT_TYPE, extension: "zpl" };
  }
  const content = await renderLabelDocument(labels, { format: options.format, startOffset: options.startOffset });
  return { content, contentType: PDF_CONTENT_TYPE, extension: "pdf" };
}
