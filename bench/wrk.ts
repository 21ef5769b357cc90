import path from "node:path";
import { CpuWatch, meterCpu } from "./cpu";
import { ROOT, runCommand } from "./proc";
import { sampleRss } from "./rss";
import { RESULT_MARK } from "./scripts";
import type { LoadStats } from "./stats";

export interface HttpRequestSpec {
  method: "GET" | "POST" | "PUT";
  /** Absolute URL, path and query included. */
  url: string;
  headers?: Record<string, string>;
  body?: string;
}

export interface WrkOptions {
  connections: number;
  seconds: number;
  /** Processes whose RSS is sampled during the load. */
  rssOf?: number[];
  /** Processes whose CPU is metered during the load. */
  cpu?: CpuWatch[];
}

interface WrkSummary {
  requests: number;
  durationUs: number;
  connect: number;
  read: number;
  write: number;
  status: number;
  timeout: number;
  p50Us: number;
  p99Us: number;
  /** Bytes read, headers included (older result lines lack it). */
  bytes?: number;
}

const SCRIPT = path.join(ROOT, "bench", "wrk-request.lua");

export async function wrkAvailable(): Promise<boolean> {
  try {
    const done = await runCommand("wrk", ["--version"]);
    // Debian's build prints "wrk debian/4.1.0…" and exits 1 on --version.
    return /^wrk /m.test(done.stdout + done.stderr);
  } catch {
    return false;
  }
}

/** Closed-loop load from wrk (a separate, native process): `connections` keep-alive connections for `seconds`. */
export async function runWrk(spec: HttpRequestSpec, options: WrkOptions): Promise<LoadStats> {
  const headers = { ...(spec.body ? { "Content-Type": "application/json" } : {}), ...(spec.headers ?? {}) };
  const threads = Math.min(2, options.connections);
  const rss = options.rssOf ? sampleRss(options.rssOf) : null;
  const cpu = options.cpu ? meterCpu(options.cpu) : null;
  const done = await runCommand(
    "wrk",
    ["-t", String(threads), "-c", String(options.connections), "-d", `${options.seconds}s`, "--timeout", "10s", "-s", SCRIPT, spec.url],
    {
      env: {
        ...process.env,
        BENCH_METHOD: spec.method,
        BENCH_BODY: spec.body ?? "",
        BENCH_HEADERS: Object.entries(headers)
          .map(([k, v]) => `${k}: ${v}`)
          .join("\n")
      }
    }
  );
  const peak = rss?.stop();
  const cpuCores = cpu?.stop();
  const line = done.stdout.split("\n").find(l => l.startsWith(RESULT_MARK));
  if (done.code !== 0 || !line) throw new Error(`wrk failed (exit ${done.code}): ${done.stderr}${done.stdout}`);
  const s = JSON.parse(line.slice(RESULT_MARK.length)) as WrkSummary;
  const seconds = s.durationUs / 1e6;
  const errors = s.connect + s.read + s.write + s.status + s.timeout;
  return {
    // Only answered requests count: a stream of errors must not look like throughput.
    rate: (s.requests - s.status) / seconds,
    p50Ms: s.p50Us / 1000,
    p99Ms: s.p99Us / 1000,
    count: s.requests,
    errors,
    seconds,
    ...(s.bytes !== undefined && s.requests > 0 ? { bytesPerAnswer: s.bytes / s.requests } : {}),
    ...(peak !== undefined ? { rssMb: peak } : {}),
    ...(cpuCores ? { cpuCores } : {})
  };
}
