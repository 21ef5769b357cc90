import { CpuWatch, meterCpu } from "./cpu";
import type { ConstantRateInput } from "./load/constant-rate";
import type { PlainRequest } from "./load/request";
import type { Progress } from "./progress";
import { sampleRss } from "./rss";
import { runBenchScript } from "./scripts";
import type { Measured } from "./report/results";
import { LoadStats, medianOf } from "./stats";
import { HttpRequestSpec, runWrk } from "./wrk";

/** One side of a comparison: ours, or a baseline. */
export interface Contender {
  name: string;
  run: () => Promise<LoadStats>;
  /** Run once before the first repetition (JIT, caches, connection pools). */
  warm?: () => Promise<unknown>;
}

/**
 * Repetition by repetition, every contender in turn (ours, baseline, ours, baseline…), so that a
 * neighbour's burst on the shared machine lands on both sides rather than on one of them.
 */
export async function measureInterleaved(contenders: Contender[], reps: number, progress: Progress, title: string): Promise<Measured[]> {
  for (const c of contenders) {
    if (c.warm) {
      progress.next(`${title} · warming ${c.name}`);
      await c.warm();
    }
  }
  const runs = contenders.map(() => [] as LoadStats[]);
  for (let rep = 0; rep < reps; rep++) {
    for (const [i, c] of contenders.entries()) {
      progress.next(`${title} · ${c.name} · repetition ${rep + 1}/${reps}`);
      runs[i].push(await c.run());
    }
  }
  return contenders.map((c, i) => ({ name: c.name, stats: medianOf(runs[i]), reps: runs[i] }));
}

export interface LoadShape {
  connections: number;
  seconds: number;
  warmupSeconds: number;
}

/** What is watched during a load: the RSS of some processes, the CPU of some others. */
export interface Watch {
  rssOf: number[];
  cpu: CpuWatch[];
}

/** A wrk contender. */
export function wrkContender(name: string, spec: HttpRequestSpec, shape: LoadShape, watch: Watch): Contender {
  return {
    name,
    run: () => runWrk(spec, { connections: shape.connections, seconds: shape.seconds, ...watch }),
    warm: () => runWrk(spec, { connections: shape.connections, seconds: shape.warmupSeconds })
  };
}

/** Open-loop load at `rate` requests per second from a separate process (see load/constant-rate.ts). */
export async function constantRate(spec: HttpRequestSpec, rate: number, shape: LoadShape, watch: Watch): Promise<LoadStats> {
  const request: PlainRequest = { method: spec.method, url: spec.url, headers: spec.headers, body: spec.body };
  const rss = sampleRss(watch.rssOf);
  const cpu = meterCpu(watch.cpu);
  const input: ConstantRateInput = { request, rate, seconds: shape.seconds, connections: shape.connections };
  const stats = await runBenchScript<LoadStats & { intendedRate: number; generatorLagP99Ms: number }>("load/constant-rate.js", input);
  return { ...stats, rssMb: rss.stop(), cpuCores: cpu.stop() };
}
