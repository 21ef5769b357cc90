import bidiFactory from "bidi-js";

const bidi = bidiFactory();

export type Direction = "ltr" | "rtl";

/** A stretch of one embedding level, in logical (reading) order. */
export interface DirectionalRun {
  /** The characters in reading order, with brackets already mirrored inside right-to-left runs. */
  text: string;
  rtl: boolean;
  /** Position of this run when the line is laid out left to right. */
  visualIndex: number;
}

const RIGHT_TO_LEFT_SCRIPT = /[\p{Script=Arabic}\p{Script=Hebrew}\p{Script=Syriac}\p{Script=Thaana}\p{Script=Nko}]/u;
const NO_SCRIPT = /[\p{Script=Common}\p{Script=Inherited}\p{Script=Unknown}]/u;

/** The direction of a paragraph, from its first strong character (Unicode rules P2–P3). */
export function paragraphDirection(text: string): Direction {
  const paragraph = bidi.getEmbeddingLevels(text, "auto").paragraphs[0];
  return paragraph && paragraph.level % 2 === 1 ? "rtl" : "ltr";
}

/** A line contains right-to-left text only if some character resolves to an odd level. */
export function isPlainLeftToRight(text: string): boolean {
  return !/[\u0590-\u08ff\ufb1d-\ufdff\ufe70-\ufefc\u200f\u202b\u202e\u2067]|[\u{10800}-\u{10fff}\u{1e800}-\u{1efff}]/u.test(text);
}

/**
 * Splits one line into runs of one direction (Unicode bidirectional algorithm, via bidi-js) and
 * gives each run its place in the left-to-right display order (rule L2).
 */
export function directionalRuns(line: string, direction: Direction): DirectionalRun[] {
  const { levels } = bidi.getEmbeddingLevels(line, direction);
  const mirrored = bidi.getMirroredCharactersMap(line, levels);
  const logical: Array<{ text: string; level: number }> = [];
  let start = 0;
  while (start < line.length) {
    let end = start;
    let text = "";
    while (end < line.length && levels[end] === levels[start]) {
      text += mirrored.get(end) ?? line[end];
      end++;
    }
    logical.push({ text, level: levels[start] });
    start = end;
  }

  const visual = logical.map((_, index) => index);
  const highest = Math.max(0, ...logical.map(run => run.level));
  const lowestOdd = Math.min(highest + 1, ...logical.map(run => run.level).filter(level => level % 2 === 1));
  for (let level = highest; level >= lowestOdd; level--) {
    let from = 0;
    while (from < visual.length) {
      if (logical[visual[from]].level < level) {
        from++;
        continue;
      }
      let to = from;
      while (to < visual.length && logical[visual[to]].level >= level) to++;
      visual.splice(from, to - from, ...visual.slice(from, to).reverse());
      from = to;
    }
  }

  const runs = logical.map(run => ({ text: run.text, rtl: run.level % 2 === 1, visualIndex: 0 }));
  visual.forEach((logicalIndex, visualIndex) => {
    runs[logicalIndex].visualIndex = visualIndex;
  });
  return runs;
}

/**
 * fontkit lays a run out right to left, reversing its glyphs, exactly when the run's first
 * character with a script is in a right-to-left script; it knows nothing of embedding levels.
 */
function shaperReverses(text: string): boolean {
  for (const char of text) {
    if (NO_SCRIPT.test(char)) continue;
    return RIGHT_TO_LEFT_SCRIPT.test(char);
  }
  return false;
}

/**
 * The string to hand to the shaper so that the glyphs come out in display order. Arabic letters
 * stay in reading order (the shaper needs their neighbours to join them, and reverses them
 * itself); where the shaper's guess and the embedding level disagree (brackets or spaces alone in
 * a right-to-left run, Arabic-Indic digits, which run left to right), the characters are reversed
 * here instead. Those never join, so reversing them cannot break shaping.
 */
export function shaperInput(run: DirectionalRun): string {
  return run.rtl === shaperReverses(run.text) ? run.text : [...run.text].reverse().join("");
}
