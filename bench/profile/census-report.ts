import type { CensusSnapshot } from "./census";

/** Statements and action calls per HTTP request, the most frequent first. */
export function formatCensus(census: CensusSnapshot, requests: number, logLines: number): string {
  const per = (n: number) => (requests > 0 ? n / requests : 0);
  const statements = Object.entries(census.statements).sort((a, b) => b[1].count - a[1].count);
  const totalStatements = statements.reduce((sum, [, s]) => sum + s.count, 0);
  const calls = Object.entries(census.calls).sort((a, b) => b[1] - a[1]);
  const totalCalls = calls.reduce((sum, [, n]) => sum + n, 0);
  const commits = census.transactions + totalStatements - census.statementsInTransactions;
  return [
    `  per request: ${per(totalStatements).toFixed(2)} PGlite statements in ${per(commits).toFixed(2)} commits (${per(census.transactions).toFixed(2)} explicit transactions), ${per(totalCalls).toFixed(2)} action calls, ${per(logLines).toFixed(2)} log lines (${requests} requests)`,
    ...statements
      .filter(([, s]) => per(s.count) >= 0.02)
      .slice(0, 25)
      .map(
        ([sql, s]) => `    ${per(s.count).toFixed(2).padStart(6)} × ${(s.ms / s.count).toFixed(2).padStart(6)} ms (with queue wait)  ${sql}`
      ),
    ...calls.slice(0, 10).map(([action, n]) => `    ${per(n).toFixed(2).padStart(6)} × call ${action}`)
  ].join("\n");
}
