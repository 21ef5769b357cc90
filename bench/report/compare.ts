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

type Row = Results["rows"][number];

/** The figure the row is judged on: ours/baseline, the p99 or the RSS; with its ✓/✗. */
function judged(row: Row): string {
  const mark = row.verdict ? (row.verdict.pass ? " ✓" : " ✗") : "";
  const target = row.target;
  if (target?.kind === "p99") return `p99 ${formatMs(row.ours.stats.p99Ms)} ms${mark}`;
  if (target?.kind === "rss") return `${Math.round(row.ours.stats.rssMb ?? 0)} MB${mark}`;
  const baseline = target?.kind === "ratio" ? row.baselines.find(b => b.name === target.baseline) : row.baselines[0];
  return baseline ? `${ratioPercent(row.ours.stats, baseline.stats).toFixed(1)} %${mark}` : "";
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
    const memory = (rb ?? ra)?.unit === "MB";
    return [
      title,
      ra ? formatRate(ra.ours.stats.rate) : "",
      rb ? formatRate(rb.ours.stats.rate) : "",
      ra && rb ? change(ra.ours.stats.rate, rb.ours.stats.rate) : "",
      ra && !memory ? formatMs(ra.ours.stats.p99Ms) : "",
      rb && !memory ? formatMs(rb.ours.stats.p99Ms) : "",
      ra ? judged(ra) : "",
      rb ? judged(rb) : ""
    ];
  });
  const head = (r: Results, label: string) =>
    `${label}: ${r.git.sha}${r.git.dirty ? "+" : ""} ${r.startedAt} (${r.options.short ? "short" : "full"}, load ${r.machine.loadAverageBefore[0].toFixed(2)})`;
  return [
    head(a, "A"),
    head(b, "B"),
    "",
    markdownTable(["row", "A rate", "B rate", "B vs A", "A p99 ms", "B p99 ms", "A judged on", "B judged on"], lines, [
      false,
      true,
      true,
      true,
      true,
      true,
      true,
      true
    ])
  ].join("\n");
}
