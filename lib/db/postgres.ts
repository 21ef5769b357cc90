import { Pool, PoolClient } from "pg";
import { Database, Queryable } from "./database";
import type { Statement } from "./statement";
import { countStatements } from "./statement-count";
import { asUnavailable, wasConnectionLost } from "./connection-loss";

function wrap(client: Pool | PoolClient): Queryable {
  return {
    async query<R extends object>(sql: Statement, params?: unknown[]) {
      const values = params as unknown[] | undefined;
      countStatements(1);
      try {
        const result =
          typeof sql === "string" ? await client.query(sql, values) : await client.query({ name: sql.name, text: sql.text, values });
        return result.rows as R[];
      } catch (err) {
        throw asUnavailable(err);
      }
    },
    async exec(sql: string) {
      countStatements(1);
      await client.query(sql).catch(err => {
        throw asUnavailable(err);
      });
    }
  };
}

/**
 * `applicationName` names this process' connections in pg_stat_activity and the server's logs
 * (which service holds a lock, uses the CPU); an `application_name` in the URL or PGAPPNAME wins over it.
 */
export function openPostgres(url: string, poolSize: number, applicationName?: string): Database {
  const pool = new Pool({ connectionString: url, max: poolSize, fallback_application_name: applicationName });
  // An idle client losing its server must not crash the process; the pool replaces it.
  pool.on("error", () => undefined);
  const direct = wrap(pool);
  return {
    query: direct.query,
    exec: direct.exec,
    async transaction<T>(work: (tx: Queryable) => Promise<T>): Promise<T> {
      const client = await pool.connect().catch(err => {
        throw asUnavailable(err);
      });
      // The pool listens for a checked-out client's errors no more: a server gone while the work
      // awaits something else (a remote call) would otherwise be an uncaught 'error' event, the
      // process' end. The work's next statement fails instead (503).
      let lost: Error | undefined;
      const onError = (err: Error) => (lost = err);
      client.on("error", onError);
      // BEGIN, and COMMIT or ROLLBACK: two statements around the work's own.
      countStatements(2);
      try {
        await client.query("BEGIN");
        const result = await work(wrap(client));
        await client.query("COMMIT");
        return result;
      } catch (err) {
        // A COMMIT cut off has an unknown outcome: the 503 says retry, and the retry finds what exists.
        if (wasConnectionLost(err)) lost = err as Error;
        else await client.query("ROLLBACK").catch(() => undefined);
        throw asUnavailable(err);
      } finally {
        client.removeListener("error", onError);
        // A connection that was lost is destroyed, not handed to the next caller.
        client.release(lost);
      }
    },
    async close() {
      await pool.end();
    }
  };
}
