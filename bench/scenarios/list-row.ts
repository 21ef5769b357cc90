import type { Bench } from "../context";
import { Contender, measureInterleaved, wrkContender } from "../measure";
import { runBenchScript } from "../scripts";
import type { Row, Target } from "../report/results";
import type { LoadStats } from "../stats";
import type { Merchant } from "../systems/merchant";
import { RunningSystem, watchOf } from "../systems/system";
import { partnerRequest } from "./partner-rows";

export const SAME_SQL = "same SQL via pg";
export const LIST_SIZE = 100;

/** The list's own SQL through `pg`, from a separate process, same concurrency (see baselines/pg-list-load.ts). */
function sqlContender(bench: Bench, databaseUrl: string, merchant: Merchant): Contender {
  return {
    name: SAME_SQL,
    run: () =>
      runBenchScript<LoadStats>("baselines/pg-list-load.js", {
        databaseUrl,
        organizationId: merchant.organizationId,
        mode: "live",
        size: LIST_SIZE,
        concurrency: bench.options.connections,
        seconds: bench.options.seconds
      })
  };
}

export async function listRow(
  bench: Bench,
  system: RunningSystem,
  merchant: Merchant,
  options: { id: string; stored: number; minRatioOfSql: number | null }
): Promise<Row> {
  const title = `GET /parcels?size=${LIST_SIZE}, ${options.stored.toLocaleString("en-US")} stored — ${system.mode}`;
  const spec = partnerRequest(system, merchant.liveKey, "GET", `/parcels?size=${LIST_SIZE}`);
  const contenders = [wrkContender("ours", spec, bench.shape, watchOf(system))];
  if (system.databaseUrl) contenders.push(sqlContender(bench, system.databaseUrl, merchant));
  const [ours, ...baselines] = await measureInterleaved(contenders, bench.options.reps, bench.progress, title);
  const target: Target | undefined =
    system.databaseUrl && options.minRatioOfSql !== null ? { kind: "ratio", baseline: SAME_SQL, min: options.minRatioOfSql } : undefined;
  return bench.addRow({ id: options.id, title, unit: "req/s", ours, baselines, ...(target ? { target } : {}) });
}
