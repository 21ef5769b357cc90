export { type LabelData, MAX_LABELS_PER_DOCUMENT, SANDBOX_MARK, formatDzd, formatLabelDate, formatWeight } from "./label-data";
export { LABEL_FORMATS, type LabelFormat, type PdfLabelFormat, isLabelFormat, pageCount } from "./page-formats";
export { type LabelDocumentOptions, renderLabelDocument, renderLabelPdf } from "./pdf-document";
export { type ZplOptions, renderZpl, zplFontDownload } from "./zpl";
