export {
  type LabelData,
  MAX_LABELS_PER_DOCUMENT,
  SANDBOX_MARK,
  formatDzd,
  formatLabelDate,
  formatWeight
} from "../../../lib/labels/label-data";
export {
  LABEL_FORMATS,
  type LabelFormat,
  PDF_CONTENT_TYPE,
  type PdfLabelFormat,
  ZPL_CONTENT_TYPE,
  isLabelFormat,
  pageCount
} from "../../../lib/labels/page-formats";
export { type LabelDocumentOptions, renderLabelDocument, renderLabelPdf } from "./pdf-document";
export { type ZplOptions, renderZpl, zplFontDownload } from "./zpl";
export {
  type PrintOptions,
  DEFAULT_PRINT_OPTIONS,
  maxStartOffset,
  readPrintOptions,
  startOffsetProblem
} from "../../../lib/labels/print-options";
export { type LabelFile, renderLabelFile } from "./label-file";
