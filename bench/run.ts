import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { pgbenchAvailable } from "./baselines/pgbench";
import { Bench } from "./context";
import { BenchOptions, parseOptions, USAGE } from "./options";
import { ROOT } from "./proc";
import { Progress } from "./progress";
import { profileEmbedded } from "./profile/profile-embedded";
import { runScale } from "./scale/scale";
import { compareResults } from "./report/compare";
import type { Results } from "./report/results";
import { defaultResultsPath, gitInfo, writeResults } from "./report/results-file";
import { cpuLines, LEGEND, notes, resultsTable, summaryHeader } from "./report/table";
import { distributedPhase } from "./scenarios/distributed-phase";
import { embeddedPhase } from "./scenarios/embedded-phase";
import { LoadCheck, loadRows, loadTable } from "./scenarios/load-rows";
import { distributedServersMissing } from "./systems/distributed";
import { postgresReachable } from "./systems/postgres";
import { wrkAvailable } from "./wrk";

/**
 * `npm run bench`: every row of the performance issue, each beside its baseline measured in the
 * same run at the same concurrency. See USAGE in options.ts, and docs/development/benchmarks.md.
 */

const WRK_MISSING = `wrk is not installed. Load comes from wrk, a separate native process:
  sudo apt-get install -y wrk        (Debian/Ubuntu)
  brew install wrk                   (macOS)
then run npm run bench again.`;

async function preflight(options: BenchOptions): Promise<{ pgbench: boolean; skipped: string[] }> {
  if (!fs.existsSync(path.join(ROOT, "dist", "bin", "start.js")))
    throw new Error("dist/ is missing: run npm run build (npm run bench does it)");
  // The load rows send their creates from a Node script (load/fixed-count.ts): no wrk needed.
  if (!options.load && !(await wrkAvailable())) {
    process.stderr.write(`${WRK_MISSING}\n`);
    process.exit(2);
  }
  const skipped: string[] = [];
  const pgbench = (await pgbenchAvailable()) && (await postgresReachable());
  if (!pgbench) skipped.push("pgbench baselines: pgbench (apt-get install postgresql-client) or the local PostgreSQL is missing");
  if (options.modes.includes("distributed")) {
    const missing = [...((await postgresReachable()) ? [] : ["PostgreSQL (127.0.0.1:5432)"]), ...(await distributedServersMissing())];
    if (missing.length > 0) {
      options.modes = options.modes.filter(m => m !== "distributed");
      skipped.push(`distributed rows: ${missing.join(", ")} not reachable`);
    }
  }
  return { pgbench, skipped };
}

/** Rough count of progress steps, so that the progress line can say how far along it is. */
function plannedSteps(options: BenchOptions): number {
  if (options.load) return 2 + 2 * options.modes.length;
  const per = (contenders: number) => contenders * (options.reps + 1);
  const embedded = 2 + per(3) + per(2) + 1 + per(2) + per(2) + per(1) + 1 + per(1) + 3 + per(2) + 3 * options.reps + 1;
  const sizes = options.growthSizes.length;
  const distributed = 2 + sizes * (1 + per(2) + per(2)) + per(2) + per(3) + per(2) + (options.short ? 0 : 3 * options.reps + 3 + per(2));
  return 2 + (options.modes.includes("embedded") ? embedded : 0) + (options.modes.includes("distributed") ? distributed : 0);
}

async function run(options: BenchOptions): Promise<void> {
  const { pgbench, skipped } = await preflight(options);
  const startedAt = new Date().toISOString();
  const loadAverageBefore = os.loadavg();
  const logDir = fs.mkdtempSync(path.join(os.tmpdir(), "relay-bench-"));
  const progress = new Progress(plannedSteps(options));
  const bench = new Bench(options, progress, logDir, pgbench);
  skipped.forEach(s => bench.skip(s));
  const interrupted = async () => {
    progress.done();
    process.stderr.write(`\ninterrupted: stopping everything the bench started (logs in ${logDir})\n`);
    await bench.close().catch(() => undefined);
    process.exit(130);
  };
  process.once("SIGINT", interrupted);
  process.once("SIGTERM", interrupted);

  progress.print(
    `relay-parcels bench (${options.short ? "short" : "full"}): median of ${options.reps} × ${options.seconds} s, ${options.connections} connections; logs in ${logDir}\n`
  );
  let failure: unknown = null;
  let loadChecks: LoadCheck[] = [];
  try {
    if (options.load) loadChecks = await loadRows(bench);
    else {
      if (options.modes.includes("embedded")) await embeddedPhase(bench);
      if (options.modes.includes("distributed")) await distributedPhase(bench);
    }
  } catch (err) {
    failure = err;
  } finally {
    await bench.close();
  }
  progress.done();

  const results: Results = {
    startedAt,
    finishedAt: new Date().toISOString(),
    git: await gitInfo(),
    machine: {
      cpus: os.cpus().length,
      cpuModel: os.cpus()[0]?.model ?? "unknown",
      memoryGb: Math.round(os.totalmem() / 2 ** 30),
      node: process.version,
      loadAverageBefore,
      loadAverageAfter: os.loadavg()
    },
    options: {
      short: options.short,
      reps: options.reps,
      seconds: options.seconds,
      connections: options.connections,
      logLevel: options.logLevel
    },
    rows: bench.rows,
    ...(options.load ? { loadChecks } : {}),
    skipped: bench.skipped
  };
  const file = options.out ?? defaultResultsPath(results);
  writeResults(results, file);
  const explained = notes(results.rows);
  const cpu = cpuLines(results.rows, results.machine.cpus);
  process.stdout.write(
    `\n${summaryHeader(results)}\n\n${resultsTable(results.rows)}\n\n${LEGEND}\n${explained ? `\n${explained}\n` : ""}${cpu ? `\n${cpu}\n` : ""}${loadChecks.length ? `\n${loadTable(loadChecks)}\n` : ""}${results.skipped.length ? `\nSkipped: ${results.skipped.join("; ")}\n` : ""}\nResults: ${path.relative(process.cwd(), file)}\n`
  );
  if (loadChecks.some(c => !c.pass)) failure ??= new Error("a load row failed (see above)");
  if (failure) {
    process.stderr.write(`\nbench failed: ${failure instanceof Error ? failure.stack : String(failure)}\nlogs kept in ${logDir}\n`);
    process.exit(1);
  }
  fs.rmSync(logDir, { recursive: true, force: true });
}

async function main(): Promise<void> {
  const options = parseOptions(process.argv.slice(2));
  switch (options.command) {
    case "help":
      process.stdout.write(USAGE);
      return;
    case "compare":
      process.stdout.write(`${compareResults(options.compareFiles[0], options.compareFiles[1])}\n`);
      return;
    case "profile":
      await profileEmbedded(options);
      return;
    case "scale":
      await runScale(options.scale, { jsonFile: options.json, keep: options.keep, seedOnly: options.seedOnly, rounds: options.reps });
      return;
    case "run":
      await run(options);
  }
}

main().catch(err => {
  process.stderr.write(`bench failed: ${err instanceof Error ? err.message : String(err)}\n`);
  process.exit(1);
});
