import type { LoadStats } from "../stats";
import { Measured, ratioPercent, Results, Row } from "./results";

export function formatRate(rate: number): string {
  return rate >= 100 ? Math.round(rate).toLocaleString("en-US") : rate.toFixed(rate >= 10 ? 1 : 2);
}

export function formatMs(ms: number): string {
  return ms >= 100 ? ms.toFixed(0) : ms >= 10 ? ms.toFixed(1) : ms.toFixed(2);
}

const mb = (s: LoadStats) => (s.rssMb === undefined ? "" : Math.round(s.rssMb).toString());

/** A Markdown table whose columns are also aligned for the terminal. */
export function markdownTable(header: string[], lines: string[][], rightAligned: boolean[]): string {
  const widths = header.map((h, i) => Math.max(h.length, ...lines.map(l => (l[i] ?? "").length)));
  const cell = (text: string, i: number) => (rightAligned[i] ? text.padStart(widths[i]) : text.padEnd(widths[i]));
  const row = (cells: string[]) => `| ${cells.map(cell).join(" | ")} |`;
  const rule = `|${widths.map((w, i) => (rightAligned[i] ? `${"-".repeat(w + 1)}:` : `:${"-".repeat(w + 1)}`)).join("|")}|`;
  return [row(header), rule, ...lines.map(row)].join("\n");
}

const HEADER = ["row", "ours", "p50 ms", "p99 ms", "RSS MB", "baseline", "baseline", "p50 ms", "p99 ms", "ours/base", "target", ""];
const RIGHT = [false, true, true, true, true, false, true, true, true, true, false, false];

function baselineCells(row: Row, baseline: Measured | undefined): string[] {
  if (!baseline) return ["", "", "", "", ""];
  const ratio = `${ratioPercent(row.ours.stats, baseline.stats).toFixed(1)} %`;
  return [baseline.name, formatRate(baseline.stats.rate), formatMs(baseline.stats.p50Ms), formatMs(baseline.stats.p99Ms), ratio];
}

function targetCells(row: Row, baseline: Measured | undefined, first: boolean): string[] {
  const target = row.target;
  if (!target || !row.verdict) return first && !target ? ["—", ""] : ["", ""];
  const here = target.kind === "ratio" ? baseline?.name === target.baseline : first;
  if (!here) return ["", ""];
  return [row.verdict.text, row.verdict.pass ? "✓" : "✗"];
}

function linesOf(row: Row): string[][] {
  const s = row.ours.stats;
  const errors = s.errors > 0 ? ` (${s.errors} err)` : "";
  const memory = row.unit === "MB";
  const latency = (ms: number) => (memory ? "" : formatMs(ms));
  const ours = [row.title, `${formatRate(s.rate)} ${row.unit}${errors}`, latency(s.p50Ms), latency(s.p99Ms), mb(s)];
  const baselines = row.baselines.length > 0 ? row.baselines : [undefined];
  return baselines.map((baseline, i) => [
    ...(i === 0 ? ours : ["", "", "", "", ""]),
    ...baselineCells(row, baseline),
    ...targetCells(row, baseline, i === 0)
  ]);
}

export function resultsTable(rows: Row[]): string {
  return markdownTable(HEADER, rows.flatMap(linesOf), RIGHT);
}

export function summaryHeader(results: Results): string {
  const m = results.machine;
  const o = results.options;
  return [
    `relay-parcels bench — ${results.startedAt} — ${results.git.sha}${results.git.dirty ? " (uncommitted changes)" : ""} on ${results.git.branch}`,
    `${m.cpus} × ${m.cpuModel}, ${m.memoryGb} GB, node ${m.node}; load average before ${m.loadAverageBefore.map(l => l.toFixed(2)).join(" ")}, after ${m.loadAverageAfter.map(l => l.toFixed(2)).join(" ")}`,
    `${o.short ? "SHORT run (checks the tool; numbers are indicative)" : "full run"}: median of ${o.reps} × ${o.seconds} s, ${o.connections} connections, LOG_LEVEL=${o.logLevel}`
  ].join("\n");
}

export const LEGEND = [
  "ours: the system under test, loaded by wrk (closed loop) from a separate process; p50/p99 are wrk's per-request latencies.",
  "baseline: measured in the same run, interleaved repetition by repetition with ours, at the same concurrency.",
  "RSS MB: peak resident memory during the load of the process(es) answering it — for the distributed system the sum of its 7 processes.",
  "ours/base: ours' rate as a share of the baseline's; target: the issue's goal for the row (✓ met, ✗ not met)."
].join("\n");

export function notes(rows: Row[]): string {
  return rows
    .filter(r => r.note)
    .map(r => `- ${r.title}: ${r.note}`)
    .join("\n");
}

/** CPU time one request (a create, on the create rows) costs a process: cores ÷ requests per second. */
export function cpuMsPerRequest(cores: number, rate: number): string {
  return rate > 0 ? `${((1000 * cores) / rate).toFixed(1)} ms` : "– ms";
}

/** Which process used the CPU during each load of ours: on a small machine, what saturates first. */
export function cpuLines(rows: Row[], cpus: number): string {
  const lines = rows
    .filter(r => r.ours.stats.cpuCores)
    .map(r => {
      const cores = Object.entries(r.ours.stats.cpuCores ?? {});
      const total = cores.reduce((sum, [, c]) => sum + c, 0);
      const parts = cores
        .filter(([, c]) => c >= 0.02)
        .sort((a, b) => b[1] - a[1])
        .map(([label, c]) => `${label} ${c.toFixed(2)} = ${cpuMsPerRequest(c, r.ours.stats.rate)}`);
      return `- ${r.title}: ${parts.join(" · ")} (total ${total.toFixed(2)} = ${cpuMsPerRequest(total, r.ours.stats.rate)})`;
    });
  return lines.length > 0
    ? `CPU used during each load of ours, in cores (the machine has ${cpus}; wrk and the rest of the machine use the remainder) = CPU-ms per request by process (per create on the create rows):\n${lines.join("\n")}`
    : "";
}
