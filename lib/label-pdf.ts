/** The labels' historical entry point; the modules live in lib/labels/. */
export { type LabelData, SANDBOX_MARK, formatDzd, formatLabelDate, formatWeight, renderLabelPdf } from "./labels";
