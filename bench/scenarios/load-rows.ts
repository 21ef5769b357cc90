import fs from "node:fs";
import path from "node:path";
import { Client } from "pg";
import { checkMoneyInvariant, InvariantReport } from "../../test/helpers/money-invariant";
import type { Bench } from "../context";
import type { PlainRequest } from "../load/request";
import { runBenchScript } from "../scripts";
import type { LoadStats } from "../stats";
import { startCluster } from "../systems/cluster";
import { startEmbedded } from "../systems/embedded";
import { CREATE_BODY, createMerchant } from "../systems/merchant";
import type { RunningSystem } from "../systems/system";

/**
 * The load rows of issue 26 (acceptance 1) and issue 31 (acceptance 2): a fixed number of creates
 * at a wide concurrency, then what a merchant would see go wrong. Not throughput figures (the
 * other rows are): every answer counted by status, `deadlock detected` counted in the system's
 * log (and, distributed, in PostgreSQL's own statistics of the database), and the money invariant
 * (DESIGN §3) checked once nothing is pending. Selected with `--load`; not in the default run.
 */

export interface LoadCheck {
  id: string;
  title: string;
  creates: number;
  concurrency: number;
  statuses: Record<string, number>;
  serverErrors: number;
  /** Requests that got no answer at all (reset, time-out). */
  unanswered: number;
  deadlocksInLog: number;
  /** pg_stat_database.deadlocks of the system's database (distributed only). */
  deadlocksInPostgres: number | null;
  invariant: Pick<InvariantReport, "pending" | "visibleParcels" | "violations">;
  ratePerSecond: number;
  pass: boolean;
}

export const LOAD_CONCURRENCY = 64;
const DISTRIBUTED_CREATES = 10_000;
const EMBEDDED_CREATES = 3_000;
const SETTLE_TIMEOUT_MS = 120_000;
const FUNDS_DZD = 20_000_000;

interface FixedCountAnswer extends LoadStats {
  statuses: Record<string, number>;
}

function creates(urls: string[], key: string, count: number): PlainRequest[] {
  return Array.from({ length: count }, (_, i) => ({
    method: "POST",
    url: `${urls[i % urls.length]}/api/partner/v1/parcels`,
    headers: { Authorization: `ApiKey ${key}` },
    body: CREATE_BODY
  }));
}

/** The money invariant, once the creates cut short (if any) are settled by the sweeper. */
async function settledInvariant(database: string | { pgliteDir: string }): Promise<InvariantReport> {
  const deadline = Date.now() + SETTLE_TIMEOUT_MS;
  for (;;) {
    const report = await checkMoneyInvariant(database);
    if ((report.pending === 0 && report.violations.length === 0) || Date.now() > deadline || typeof database !== "string") return report;
    await new Promise(r => setTimeout(r, 1000));
  }
}

async function postgresDeadlocks(url: string): Promise<number> {
  const client = new Client({ connectionString: url });
  await client.connect();
  try {
    // Backends report their counters when idle, at most a second late.
    await new Promise(r => setTimeout(r, 1500));
    const { rows } = await client.query<{ n: string }>(
      "SELECT deadlocks::text AS n FROM pg_stat_database WHERE datname = current_database()"
    );
    return Number(rows[0]?.n ?? 0);
  } finally {
    await client.end();
  }
}

const deadlocksIn = (log: string) => (log.match(/deadlock detected/g) ?? []).length;

function check(
  id: string,
  title: string,
  count: number,
  answer: FixedCountAnswer,
  log: string,
  deadlocksInPostgres: number | null,
  invariant: InvariantReport
): LoadCheck {
  const serverErrors = Object.entries(answer.statuses)
    .filter(([status]) => Number(status) >= 500)
    .reduce((sum, [, n]) => sum + n, 0);
  const unanswered = answer.statuses["0"] ?? 0;
  const deadlocksInLog = deadlocksIn(log);
  return {
    id,
    title,
    creates: count,
    concurrency: LOAD_CONCURRENCY,
    statuses: answer.statuses,
    serverErrors,
    unanswered,
    deadlocksInLog,
    deadlocksInPostgres,
    invariant: { pending: invariant.pending, visibleParcels: invariant.visibleParcels, violations: invariant.violations },
    ratePerSecond: answer.rate,
    pass:
      serverErrors === 0 &&
      unanswered === 0 &&
      deadlocksInLog === 0 &&
      (deadlocksInPostgres ?? 0) === 0 &&
      invariant.pending === 0 &&
      invariant.violations.length === 0
  };
}

async function fire(requests: PlainRequest[]): Promise<FixedCountAnswer> {
  return runBenchScript<FixedCountAnswer>("load/fixed-count.js", { requests, concurrency: LOAD_CONCURRENCY });
}

async function distributedLoad(bench: Bench): Promise<LoadCheck> {
  bench.progress.next("load: starting npm run start:cluster (throw-away database)");
  const system = await startCluster({ logLevel: bench.options.logLevel, logDir: bench.logDir });
  bench.onClose(() => system.stop());
  try {
    const merchant = await createMerchant(system.baseUrl, system.backofficeToken, "Bench Charge Cluster SARL", FUNDS_DZD);
    bench.progress.next(`load: ${DISTRIBUTED_CREATES.toLocaleString("en-US")} creates at c${LOAD_CONCURRENCY} over both gateways`);
    const answer = await fire(creates(system.gatewayUrls, merchant.liveKey, DISTRIBUTED_CREATES));
    const invariant = await settledInvariant(system.databaseUrl as string);
    const pgDeadlocks = await postgresDeadlocks(system.databaseUrl as string);
    return check(
      "load.create.cluster",
      `${DISTRIBUTED_CREATES.toLocaleString("en-US")} creates at c${LOAD_CONCURRENCY} — start:cluster`,
      DISTRIBUTED_CREATES,
      answer,
      system.services[0].log(),
      pgDeadlocks,
      invariant
    );
  } finally {
    await system.stop();
  }
}

async function embeddedLoad(bench: Bench): Promise<LoadCheck> {
  bench.progress.next("load: starting the embedded system");
  const system: RunningSystem = await startEmbedded({ logLevel: bench.options.logLevel, logDir: bench.logDir, keepData: true });
  const dataDir = system.dataDir as string;
  bench.onClose(async () => {
    await system.stop();
    fs.rmSync(dataDir, { recursive: true, force: true });
  });
  try {
    const merchant = await createMerchant(system.baseUrl, system.backofficeToken, "Bench Charge Embarqué SARL", FUNDS_DZD);
    bench.progress.next(`load: ${EMBEDDED_CREATES.toLocaleString("en-US")} creates at c${LOAD_CONCURRENCY}, embedded`);
    const answer = await fire(creates([system.baseUrl], merchant.liveKey, EMBEDDED_CREATES));
    const log = system.services[0].log();
    // PGlite is this process's own: the invariant is read once it stopped.
    await system.stop();
    const invariant = await settledInvariant({ pgliteDir: path.join(dataDir, "pgdata") });
    return check(
      "load.create.embedded",
      `${EMBEDDED_CREATES.toLocaleString("en-US")} creates at c${LOAD_CONCURRENCY} — embedded`,
      EMBEDDED_CREATES,
      answer,
      log,
      null,
      invariant
    );
  } finally {
    await system.stop();
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
}

/** The load rows of the modes asked for (`--only`), distributed first: the heavier one on a fresh machine. */
export async function loadRows(bench: Bench): Promise<LoadCheck[]> {
  const checks: LoadCheck[] = [];
  const runs = [
    ...(bench.options.modes.includes("distributed") ? [distributedLoad] : []),
    ...(bench.options.modes.includes("embedded") ? [embeddedLoad] : [])
  ];
  for (const run of runs) {
    const done = await run(bench);
    // Printed at once: a later row that cannot start must not lose this one.
    bench.progress.print(loadTable([done]));
    checks.push(done);
  }
  return checks;
}

export function loadTable(checks: LoadCheck[]): string {
  const lines = checks.map(c => {
    const statuses = Object.entries(c.statuses)
      .map(([s, n]) => `${s === "0" ? "no answer" : s}×${n}`)
      .join(" ");
    const deadlocks = `${c.deadlocksInLog} in log${c.deadlocksInPostgres === null ? "" : `, ${c.deadlocksInPostgres} in pg_stat_database`}`;
    const invariant =
      c.invariant.violations.length === 0 && c.invariant.pending === 0
        ? "holds"
        : `FAILS (${c.invariant.pending} pending; ${c.invariant.violations.slice(0, 3).join("; ")})`;
    return `${c.pass ? "PASS" : "FAIL"}  ${c.title}: ${statuses}; 5xx: ${c.serverErrors}; deadlocks: ${deadlocks}; money invariant: ${invariant} (${c.invariant.visibleParcels} visible parcels); ${c.ratePerSecond.toFixed(0)} creates/s`;
  });
  return `Load rows (0 × 5xx, 0 deadlocks, money invariant):\n${lines.join("\n")}`;
}
