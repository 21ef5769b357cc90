import type { Bench, BaselineServers } from "../context";
import { constantRate, Contender, measureInterleaved, wrkContender } from "../measure";
import type { Measured, Row, Target } from "../report/results";
import { CREATE_BODY, Merchant } from "../systems/merchant";
import { RunningSystem, watchOf, watchProcess } from "../systems/system";
import type { HttpRequestSpec } from "../wrk";

export const ALIAS = "moleculer-web alias";
export const NODE_HTTP = "node:http";
export const PGBENCH = "pgbench simple-update";

/** Said in the rows measured against the alias, so that the table states how the baseline was configured. */
function aliasNote(bench: Bench): string {
  const level = bench.options.logLevel;
  return `${ALIAS}: the gateway's moleculer-web logging settings at LOG_LEVEL=${level}${level === "warn" || level === "error" ? " (no line per request in either)" : ""}.`;
}

const PARTNER = "/api/partner/v1";

export function partnerRequest(system: RunningSystem, key: string, method: "GET" | "POST", path: string, body?: string): HttpRequestSpec {
  return { method, url: `${system.baseUrl}${PARTNER}${path}`, headers: { Authorization: `ApiKey ${key}` }, ...(body ? { body } : {}) };
}

function baselineContender(bench: Bench, name: string, server: { url: string; pid: number }, path: string): Contender {
  const contender = wrkContender(
    name,
    { method: "GET", url: `${server.url}${PARTNER}${path}` },
    bench.shape,
    watchProcess(name, server.pid)
  );
  return { ...contender, warm: contender.warm && bench.warmOnce(server.url, contender.warm) };
}

async function compare(
  bench: Bench,
  title: string,
  ours: Contender,
  baselines: Contender[]
): Promise<{ ours: Measured; baselines: Measured[] }> {
  const [measuredOurs, ...measuredBaselines] = await measureInterleaved([ours, ...baselines], bench.options.reps, bench.progress, title);
  return { ours: measuredOurs, baselines: measuredBaselines };
}

export async function healthRow(
  bench: Bench,
  system: RunningSystem,
  merchant: Merchant,
  servers: BaselineServers,
  minRatio: number
): Promise<Row> {
  const title = `GET /health — ${system.mode}`;
  const spec = partnerRequest(system, merchant.liveKey, "GET", "/health");
  const measured = await compare(bench, title, wrkContender("ours", spec, bench.shape, watchOf(system)), [
    baselineContender(bench, ALIAS, servers.alias, "/health"),
    baselineContender(bench, NODE_HTTP, servers.nodeHttp, "/health")
  ]);
  return bench.addRow({
    id: `health.${system.mode}`,
    title,
    unit: "req/s",
    ...measured,
    target: { kind: "ratio", baseline: ALIAS, min: minRatio },
    note: aliasNote(bench)
  });
}

export async function getRow(
  bench: Bench,
  system: RunningSystem,
  merchant: Merchant,
  parcelId: string,
  servers: BaselineServers,
  minRatio: number | null
): Promise<Row> {
  const title = `GET /parcels/{id} — ${system.mode}`;
  const spec = partnerRequest(system, merchant.liveKey, "GET", `/parcels/${parcelId}`);
  const measured = await compare(bench, title, wrkContender("ours", spec, bench.shape, watchOf(system)), [
    baselineContender(bench, ALIAS, servers.alias, `/parcels/${parcelId}`)
  ]);
  const target: Target | undefined = minRatio === null ? undefined : { kind: "ratio", baseline: ALIAS, min: minRatio };
  return bench.addRow({
    id: `get.${system.mode}`,
    title,
    unit: "req/s",
    ...measured,
    ...(target ? { target } : {}),
    note: aliasNote(bench)
  });
}

/** The second concurrency of the create rows: where grouping concurrent creates into one commit shows. */
export const WIDE_CONNECTIONS = 64;

/**
 * POST /parcels against pgbench at the same client count (the run's, or `connections`); `extra`
 * baselines are added beside it.
 */
export async function createRow(
  bench: Bench,
  system: RunningSystem,
  merchant: Merchant,
  options: { id: string; title: string; minRatioOfPgbench: number | null; connections?: number; extra?: Measured[]; note?: string }
): Promise<Row> {
  const spec = partnerRequest(system, merchant.liveKey, "POST", "/parcels", CREATE_BODY);
  const connections = options.connections ?? bench.options.connections;
  const pgbench = await bench.pgbench();
  // As many pgbench clients as connections, unless the server cannot take them all (said in the row).
  const pgClients = pgbench ? Math.min(connections, await pgbench.connectionsLeft()) : 0;
  const baselines: Contender[] = pgbench ? [{ name: PGBENCH, run: () => pgbench.run(pgClients, bench.options.seconds) }] : [];
  const capped =
    pgbench && pgClients < connections
      ? `${PGBENCH} at ${pgClients} clients: all the server's max_connections left beside the system. `
      : "";
  const shape = { ...bench.shape, connections };
  const measured = await compare(bench, options.title, wrkContender("ours", spec, shape, watchOf(system)), baselines);
  const target: Target | undefined =
    pgbench && options.minRatioOfPgbench !== null ? { kind: "ratio", baseline: PGBENCH, min: options.minRatioOfPgbench } : undefined;
  return bench.addRow({
    id: options.id,
    title: options.title,
    unit: "req/s",
    ours: measured.ours,
    baselines: [...measured.baselines, ...(options.extra ?? [])],
    ...(target ? { target } : {}),
    ...(options.note || capped ? { note: `${capped}${options.note ?? ""}`.trim() } : {})
  });
}

/**
 * p99 at a fixed fraction of the row's measured maximum, from the open-loop generator: the latency
 * a client sees when the system is busy but not saturated.
 */
export async function constantRateRow(bench: Bench, system: RunningSystem, of: Row, spec: HttpRequestSpec, maxP99Ms: number): Promise<Row> {
  const fraction = bench.options.constantRateFraction;
  const rate = Math.max(1, Math.round(of.ours.stats.rate * fraction));
  const title = `${of.title.replace(/ — .*$/, "")} at ${Math.round(fraction * 100)} % of max (${rate}/s) — ${system.mode}`;
  const [measured] = await measureInterleaved(
    [{ name: "ours", run: () => constantRate(spec, rate, bench.shape, watchOf(system)) }],
    bench.options.reps,
    bench.progress,
    title
  );
  const lag = measured.stats.generatorLagP99Ms ?? 0;
  return bench.addRow({
    id: `${of.id}.halfmax`,
    title,
    unit: "req/s",
    ours: measured,
    baselines: [],
    target: { kind: "p99", maxMs: maxP99Ms },
    // Latency counts from each request's due time, so a generator that falls behind inflates it.
    note: `open loop, latency from each request's due time; the generator's own lag p99 ${lag.toFixed(1)} ms${lag > 5 ? " — it fell behind (machine too busy): this p99 overstates the system's" : ""}.`
  });
}
