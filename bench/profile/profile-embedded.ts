import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import type { BenchOptions } from "../options";
import { BENCH_DIST, ROOT, waitUntil } from "../proc";
import { gitInfo } from "../report/results-file";
import { formatMs, formatRate } from "../report/table";
import { partnerRequest } from "../scenarios/partner-rows";
import { startEmbedded } from "../systems/embedded";
import { CREATE_BODY, createMerchant, createParcel } from "../systems/merchant";
import { HttpRequestSpec, runWrk } from "../wrk";
import type { CensusSnapshot } from "./census";
import { formatCensus } from "./census-report";
import { InspectorClient } from "./inspector-client";
import { formatSummary, summarise } from "./summary";

const lineCount = (text: string) => text.split("\n").length - 1;

interface MemoryUsage {
  rss: number;
  heapUsed: number;
  heapTotal: number;
  external: number;
  arrayBuffers: number;
}

/** Anonymous (heap, WebAssembly memory, compiled code, malloc) and file-backed resident memory, in bytes. */
function residentKinds(pid: number): { anonymous: number; fileBacked: number } {
  const rollup = fs.readFileSync(`/proc/${pid}/smaps_rollup`, "utf8");
  const kb = (field: string) => Number(new RegExp(`^${field}:\\s+(\\d+) kB`, "m").exec(rollup)?.[1] ?? 0) * 1024;
  return { anonymous: kb("Anonymous"), fileBacked: kb("Rss") - kb("Anonymous") };
}

/**
 * Where the resident memory is: V8's heap, "external" (ArrayBuffers and PGlite's WebAssembly
 * memory), and the anonymous rest (compiled code, WebAssembly code included, malloc arenas).
 */
function formatMemory(m: MemoryUsage, pid: number): string {
  const mb = (bytes: number) => `${Math.round(bytes / 2 ** 20)} MB`;
  const { anonymous, fileBacked } = residentKinds(pid);
  const otherAnonymous = Math.max(0, anonymous - m.heapTotal - m.external);
  return `rss ${mb(m.rss)}: V8 heap ${mb(m.heapTotal)} (used ${mb(m.heapUsed)}) + external ${mb(m.external)} (array buffers ${mb(m.arrayBuffers)}) + other anonymous ${mb(otherAnonymous)} + file-backed ${mb(fileBacked)}`;
}

/**
 * `npm run bench -- --profile`: the embedded process under each load, sampled by V8's profiler
 * through the inspector (no change to the app). Writes one .cpuprofile per load (open it in Chrome
 * DevTools or speedscope) and prints where the time went.
 */
export async function profileEmbedded(options: BenchOptions): Promise<void> {
  const logDir = fs.mkdtempSync(path.join(os.tmpdir(), "relay-bench-profile-"));
  const git = await gitInfo();
  const outDir = path.join(
    ROOT,
    "bench",
    "results",
    "profiles",
    `${new Date()
      .toISOString()
      .replace(/:/g, "")
      .replace(/\.\d+Z$/, "")}-${git.sha}`
  );
  fs.mkdirSync(outDir, { recursive: true });
  const system = await startEmbedded({
    logLevel: options.logLevel,
    logDir,
    nodeArgs: ["--inspect=127.0.0.1:0", "--require", path.join(BENCH_DIST, "profile", "census.js")]
  });
  let client: InspectorClient | null = null;
  try {
    await waitUntil("the inspector URL", () => /Debugger listening on ws:\/\/\S+/.test(system.services[0].log()), 10_000);
    const wsUrl = (/Debugger listening on (ws:\/\/\S+)/.exec(system.services[0].log()) as RegExpExecArray)[1];
    client = await InspectorClient.connect(wsUrl);
    const merchant = await createMerchant(system.baseUrl, system.backofficeToken, "Bench Profil SARL", 20_000_000);
    const parcel = await createParcel(system.baseUrl, merchant.liveKey);
    const loads: Array<[string, HttpRequestSpec]> = [
      ["health", partnerRequest(system, merchant.liveKey, "GET", "/health")],
      ["get", partnerRequest(system, merchant.liveKey, "GET", `/parcels/${parcel.id}`)],
      ["create", partnerRequest(system, merchant.liveKey, "POST", "/parcels", CREATE_BODY)],
      ["list", partnerRequest(system, merchant.liveKey, "GET", "/parcels?size=100")]
    ];
    if (parcel.labelUrl) loads.push(["label", { method: "GET", url: parcel.labelUrl.replace(/^https?:\/\/[^/]+/, system.baseUrl) }]);
    const inspector = client;
    const memory = async () => formatMemory(await inspector.evaluate<MemoryUsage>("process.memoryUsage()"), system.services[0].pid);
    process.stdout.write(`memory once started: ${await memory()}\n`);
    process.stdout.write(
      `Profiling the embedded process (LOG_LEVEL=${options.logLevel}), ${options.seconds} s per load, ${options.connections} connections.\n\n`
    );
    for (const [name, spec] of loads) {
      process.stderr.write(`profiling ${name}…\n`);
      await runWrk(spec, { connections: options.connections, seconds: options.warmupSeconds });
      await client.evaluate("globalThis.__benchCensus.reset()");
      const logLinesBefore = lineCount(system.services[0].log());
      const load = runWrk(spec, { connections: options.connections, seconds: options.seconds });
      const profile = await client.profile(() => load);
      const stats = await load;
      const census = await client.evaluate<CensusSnapshot>("globalThis.__benchCensus.snapshot()");
      const logLines = lineCount(system.services[0].log()) - logLinesBefore;
      const file = path.join(outDir, `${name}.cpuprofile`);
      fs.writeFileSync(file, JSON.stringify(profile));
      const title = `${name} (${spec.method} ${new URL(spec.url).pathname}): ${formatRate(stats.rate)} req/s under the profiler, p50 ${formatMs(stats.p50Ms)} ms, p99 ${formatMs(stats.p99Ms)} ms`;
      process.stdout.write(
        `${formatSummary(title, summarise(profile))}\n${formatCensus(census, stats.count, logLines)}\n  memory after: ${await memory()}\n  profile: ${path.relative(process.cwd(), file)}\n\n`
      );
    }
  } finally {
    client?.close();
    await system.stop();
    fs.rmSync(logDir, { recursive: true, force: true });
  }
}
