import type { LoadStats } from "../stats";

/** One figure: the median of its repetitions, and the repetitions themselves. */
export interface Measured {
  name: string;
  stats: LoadStats;
  reps: LoadStats[];
}

/** The goal for a row. */
export type Target =
  /** ours.rate ≥ min × the named baseline's rate */
  | { kind: "ratio"; baseline: string; min: number }
  /** p99 latency of ours ≤ maxMs */
  | { kind: "p99"; maxMs: number }
  /** peak RSS ≤ maxMb */
  | { kind: "rss"; maxMb: number };

export interface Verdict {
  /** ours / baseline in %, the p99 in ms or the RSS in MB. */
  value: number;
  pass: boolean;
  text: string;
}

export interface Row {
  /** Stable key, the same in every run: what --compare matches on. */
  id: string;
  title: string;
  unit: string;
  ours: Measured;
  baselines: Measured[];
  target?: Target;
  verdict?: Verdict;
  note?: string;
}

export interface Results {
  startedAt: string;
  finishedAt: string;
  git: { sha: string; dirty: boolean; branch: string };
  machine: { cpus: number; cpuModel: string; memoryGb: number; node: string; loadAverageBefore: number[]; loadAverageAfter: number[] };
  options: { short: boolean; reps: number; seconds: number; connections: number; logLevel: string };
  rows: Row[];
  /** `--load` runs: the load rows' checks (scenarios/load-rows.ts). */
  loadChecks?: import("../scenarios/load-rows").LoadCheck[];
  skipped: string[];
}

export function ratioPercent(ours: LoadStats, baseline: LoadStats): number {
  return baseline.rate > 0 ? (100 * ours.rate) / baseline.rate : 0;
}

export function judge(row: Omit<Row, "verdict">): Verdict | undefined {
  const target = row.target;
  if (!target) return undefined;
  switch (target.kind) {
    case "ratio": {
      const baseline = row.baselines.find(b => b.name === target.baseline);
      if (!baseline) return undefined;
      const value = ratioPercent(row.ours.stats, baseline.stats);
      return { value, pass: value >= target.min * 100, text: `≥ ${Math.round(target.min * 100)} % of ${target.baseline}` };
    }
    case "p99":
      return { value: row.ours.stats.p99Ms, pass: row.ours.stats.p99Ms <= target.maxMs, text: `p99 ≤ ${target.maxMs} ms` };
    case "rss": {
      const rss = row.ours.stats.rssMb ?? 0;
      return { value: rss, pass: rss <= target.maxMb, text: `≤ ${target.maxMb} MB` };
    }
  }
}

export function makeRow(row: Omit<Row, "verdict">): Row {
  const verdict = judge(row);
  return verdict ? { ...row, verdict } : row;
}
