/** One measured load: throughput, latency and the memory of the process under test. */
export interface LoadStats {
  /** Requests (or operations) per second. */
  rate: number;
  p50Ms: number;
  p99Ms: number;
  count: number;
  errors: number;
  seconds: number;
  /** Bytes read per answer, headers included: two sides of a row answering the same size read the same work. */
  bytesPerAnswer?: number;
  /** Peak resident memory of the process(es) under test during the load, in MB. */
  rssMb?: number;
  /** CPU used during the load by each process of the system (and the servers it uses), in cores. */
  cpuCores?: Record<string, number>;
  /** Open-loop runs: p99 of how late the generator sent its requests (its own lag, e.g. a starved CPU). */
  generatorLagP99Ms?: number;
}

/** Nearest-rank percentile of ascending-sorted values (q in 0..1). */
export function percentile(sorted: readonly number[], q: number): number {
  if (sorted.length === 0) return 0;
  const rank = Math.ceil(q * sorted.length) - 1;
  return sorted[Math.min(sorted.length - 1, Math.max(0, rank))];
}

export function median(values: readonly number[]): number {
  if (values.length === 0) return 0;
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
}

/** The median of each figure of several repetitions (each figure on its own). */
export function medianOf(reps: readonly LoadStats[]): LoadStats {
  const of = (pick: (s: LoadStats) => number) => median(reps.map(pick));
  const rss = reps.map(r => r.rssMb).filter((v): v is number => v !== undefined);
  const lags = reps.map(r => r.generatorLagP99Ms).filter((v): v is number => v !== undefined);
  const cpuLabels = [...new Set(reps.flatMap(r => Object.keys(r.cpuCores ?? {})))];
  const cpuCores = Object.fromEntries(cpuLabels.map(label => [label, median(reps.map(r => r.cpuCores?.[label] ?? 0))]));
  return {
    rate: of(s => s.rate),
    p50Ms: of(s => s.p50Ms),
    p99Ms: of(s => s.p99Ms),
    count: of(s => s.count),
    errors: of(s => s.errors),
    seconds: of(s => s.seconds),
    ...(rss.length > 0 ? { rssMb: Math.max(...rss) } : {}),
    ...(cpuLabels.length > 0 ? { cpuCores } : {}),
    ...(lags.length > 0 ? { generatorLagP99Ms: median(lags) } : {})
  };
}

/** Stats of individual operation latencies (ms) measured over `seconds`. */
export function statsOfLatencies(latenciesMs: number[], seconds: number, errors = 0): LoadStats {
  const sorted = [...latenciesMs].sort((a, b) => a - b);
  return {
    rate: seconds > 0 ? sorted.length / seconds : 0,
    p50Ms: percentile(sorted, 0.5),
    p99Ms: percentile(sorted, 0.99),
    count: sorted.length,
    errors,
    seconds
  };
}
