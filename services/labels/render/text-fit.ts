export const ELLIPSIS = "…";

const graphemes = new Intl.Segmenter(undefined, { granularity: "grapheme" });

/**
 * The longest start of `line` that, followed by `ellipsis`, is at most `width` wide. It cuts
 * between graphemes only, so an Arabic letter never loses its vowel mark, and it cuts at the
 * logical end, which the bidirectional layout then shows at the left of a right-to-left line.
 */
export function truncateToWidth(line: string, width: number, measure: (text: string) => number, ellipsis = ELLIPSIS): string {
  const pieces = Array.from(graphemes.segment(line), segment => segment.segment);
  let fits = 0;
  let tooLong = pieces.length;
  while (tooLong - fits > 1) {
    const middle = Math.floor((fits + tooLong) / 2);
    if (measure(pieces.slice(0, middle).join("").trimEnd() + ellipsis) <= width) fits = middle;
    else tooLong = middle;
  }
  return pieces.slice(0, fits).join("").trimEnd() + ellipsis;
}

/**
 * The size at which text `naturalWidth` wide at `size` fits `width`, not below `minSize`, in
 * half-point steps. Glyph widths scale linearly with the size, so one measurement is enough.
 */
export function shrunkSize(size: number, naturalWidth: number, width: number, minSize: number, step = 0.5): number {
  if (naturalWidth <= width) return size;
  return Math.max(minSize, Math.floor((size * width) / naturalWidth / step) * step);
}

/** Greedy word wrap; the last allowed line takes all the remaining words (to be cut by the caller). */
export function wrapWords(text: string, width: number, maxLines: number, measure: (text: string) => number): string[] {
  const words = text.split(" ");
  const lines: string[] = [];
  let current = "";
  for (let index = 0; index < words.length; index++) {
    const candidate = current === "" ? words[index] : `${current} ${words[index]}`;
    if (current === "" || measure(candidate) <= width) {
      current = candidate;
      continue;
    }
    if (lines.length === maxLines - 1) {
      lines.push(`${current} ${words.slice(index).join(" ")}`);
      return lines;
    }
    lines.push(current);
    current = words[index];
  }
  if (current !== "") lines.push(current);
  return lines;
}
