import fs from "node:fs";
import type { Results } from "./results";
import { ratioPercent } from "./results";
import { formatMs, formatRate, markdownTable } from "./table";

function load(file: string): Results {
  return JSON.parse(fs.readFileSync(file, "utf8")) as Results;
}

function change(before: number, after: number): string {
  if (before === 0) return "";
  const pct = (100 * (after - before)) / before;
  return `${pct >= 0 ? "+" : ""}${pct.toFixed(1)} %`;
}

function mainRatio(row: Results["rows"][number]): string {
  const target = row.target;
  const baseline = target?.kind === "ratio" ? row.baselines.find(b => b.name === target.baseline) : row.baselines[0];
  return baseline ? `${ratioPercent(row.ours.stats, baseline.stats).toFixed(1)} %` : "";
}

/** Two result files side by side, row by row (rows are matched on their id). */
export function compareResults(fileA: string, fileB: string): string {
  const a = load(fileA);
  const b = load(fileB);
  const ids = [...new Set([...a.rows.map(r => r.id), ...b.rows.map(r => r.id)])];
  const lines = ids.map(id => {
    const ra = a.rows.find(r => r.id === id);
    const rb = b.rows.find(r => r.id === id);
    const title = (rb ?? ra)?.title ?? id;
    const verdict = (r: typeof ra) => (r?.verdict ? (r.verdict.pass ? "✓" : "✗") : "");
    return [
      title,
      ra ? formatRate(ra.ours.stats.rate) : "",
      rb ? formatRate(rb.ours.stats.rate) : "",
      ra && rb ? change(ra.ours.stats.rate, rb.ours.stats.rate) : "",
      ra ? formatMs(ra.ours.stats.p99Ms) : "",
      rb ? formatMs(rb.ours.stats.p99Ms) : "",
      ra ? `${mainRatio(ra)} ${verdict(ra)}` : "",
      rb ? `${mainRatio(rb)} ${verdict(rb)}` : ""
    ];
  });
  const head = (r: Results, label: string) => `${label}: ${r.git.sha}${r.git.dirty ? "+" : ""} ${r.startedAt} (${r.options.short ? "short" : "full"}, load ${r.machine.loadAverageBefore[0].toFixed(2)})`;
  return [
    head(a, "A"),
    head(b, "B"),
    "",
    markdownTable(
      ["row", "A rate", "B rate", "B vs A", "A p99 ms", "B p99 ms", "A ours/base", "B ours/base"],
      lines,
      [false, true, true, true, true, true, true, true]
    )
  ].join("\n");
}
