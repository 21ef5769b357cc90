/**
 * Issue 48: each row's requests/s on the scaled database beside the same row on an empty one,
 * measured in the same run; printed as a table, and written as JSON by `--json FILE`.
 */

export interface RateRow {
  row: string;
  /** Requests/s answered on the empty database. */
  empty: number;
  /** Requests/s answered on the scaled one. */
  scaled: number;
  /** Requests answered with an error status (either database): a row that errs is not a rate. */
  errors: number;
}

/** scaled / empty, the figure the issue's goal is stated in (within 15 %: ≥ 0.85). */
export function ratioOf(row: RateRow): number {
  return row.empty > 0 ? row.scaled / row.empty : 0;
}

export function rateTable(rows: RateRow[]): string {
  const lines = ["| row | empty rps | scaled rps | ratio |", "|---|---:|---:|---:|"];
  for (const r of rows)
    lines.push(
      `| ${r.row} | ${Math.round(r.empty).toLocaleString("en")} | ${Math.round(r.scaled).toLocaleString("en")} | ${ratioOf(r).toFixed(2)}${r.errors > 0 ? ` (${r.errors} errors)` : ""} |`
    );
  return lines.join("\n");
}

/** One object per row: `row`, `empty`, `scaled` (requests/s), the ratio and the database's bytes per parcel. */
export function rateJson(rows: RateRow[], bytesPerParcel: number) {
  return rows.map(r => ({
    row: r.row,
    empty: Math.round(r.empty),
    scaled: Math.round(r.scaled),
    ratio: Number(ratioOf(r).toFixed(3)),
    errors: r.errors,
    bytesPerParcel
  }));
}

const median = (values: number[]) => {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
};

/**
 * Several rounds of the same rows folded into one: each side's median rate (a 5 s load on a
 * two-core machine wanders by ±15 %, a median of three damps one bad second), errors summed.
 */
export function medianRows(rounds: RateRow[][]): RateRow[] {
  if (rounds.length === 0) return [];
  return rounds[0].map((first, i) => {
    const same = rounds.map(round => round[i]);
    if (same.some(r => r.row !== first.row)) throw new Error("rounds list different rows");
    return {
      row: first.row,
      empty: median(same.map(r => r.empty)),
      scaled: median(same.map(r => r.scaled)),
      errors: same.reduce((sum, r) => sum + r.errors, 0)
    };
  });
}

export const FIRST_PAGE_ROW = "list, first page";
export const SPEC_DEEP_PAGE_ROW = "list, page=2000 (SPEC)";

/**
 * The SPEC's deep page against its own first page on the scaled database (the issue's goal for
 * it: at least 0.25); null when either row is missing.
 */
export function deepPageRatio(rows: RateRow[]): number | null {
  const first = rows.find(r => r.row === FIRST_PAGE_ROW);
  const deep = rows.find(r => r.row === SPEC_DEEP_PAGE_ROW);
  return first && deep && first.scaled > 0 ? deep.scaled / first.scaled : null;
}
