import type { FieldProblem } from "../errors";
import { LABEL_FORMATS, LabelFormat, PDF_FORMATS, isLabelFormat } from "./page-formats";

/** How a merchant prints: the format, and on A4 the positions already used on the first sheet. */
export interface PrintOptions {
  format: LabelFormat;
  startOffset: number;
}

/** What `labelUrl` serves when nothing is asked: the A6 PDF. */
export const DEFAULT_PRINT_OPTIONS: Readonly<PrintOptions> = Object.freeze({ format: "a6", startOffset: 0 });

/** The largest start offset of a format: 3 on an A4 sheet of four, 0 where a page or a ZPL format holds one label. */
export function maxStartOffset(format: LabelFormat): number {
  return format === "zpl" ? 0 : PDF_FORMATS[format].labelsPerPage - 1;
}

/** The problem with a start offset for a format, or null; in words a merchant can act on. */
export function startOffsetProblem(format: LabelFormat, startOffset: number): FieldProblem | null {
  if (startOffset <= maxStartOffset(format)) return null;
  return {
    field: "startOffset",
    message:
      format === "a4"
        ? "must be 0 to 3: the label positions already used on the first A4 sheet"
        : `must be 0 for ${format}: a start offset only applies to A4 sheets of four labels`
  };
}

/** One query value as moleculer-web hands it over: a string, an array when repeated, or absent. An empty value is absent. */
function singleValue(value: unknown): string | undefined | null {
  if (value === undefined || value === "") return undefined;
  return typeof value === "string" ? value : null;
}

/**
 * The print options of a label download, from its query string (`?format=a4&startOffset=2`).
 * They are the caller's free choice, outside the signature: the URL grants the parcel's label,
 * and a format or a position on the sheet reveals nothing more.
 */
export function readPrintOptions(query: {
  format?: unknown;
  startOffset?: unknown;
}): { options: PrintOptions } | { problems: FieldProblem[] } {
  const problems: FieldProblem[] = [];
  const formatValue = singleValue(query.format);
  let format: LabelFormat = DEFAULT_PRINT_OPTIONS.format;
  if (formatValue === null || (formatValue !== undefined && !isLabelFormat(formatValue))) {
    problems.push({ field: "format", message: `must be one of ${LABEL_FORMATS.join(", ")}` });
  } else if (formatValue !== undefined) {
    format = formatValue;
  }
  const offsetValue = singleValue(query.startOffset);
  let startOffset = DEFAULT_PRINT_OPTIONS.startOffset;
  if (offsetValue === null || (offsetValue !== undefined && !/^[0-9]$/.test(offsetValue))) {
    problems.push({ field: "startOffset", message: "must be one integer from 0 to 3" });
  } else if (offsetValue !== undefined) {
    startOffset = Number(offsetValue);
    const problem = problems.length === 0 ? startOffsetProblem(format, startOffset) : null;
    if (problem) problems.push(problem);
  }
  return problems.length > 0 ? { problems } : { options: { format, startOffset } };
}
