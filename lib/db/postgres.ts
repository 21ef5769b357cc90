import { Pool, PoolClient } from "pg";
import { Database, Queryable } from "./database";
import type { Statement } from "./statement";
import { countStatements } from "./statement-count";

function wrap(client: Pool | PoolClient): Queryable {
  return {
    async query<R extends object>(sql: Statement, params?: unknown[]) {
      const values = params as unknown[] | undefined;
      countStatements(1);
      const result =
        typeof sql === "string" ? await client.query(sql, values) : await client.query({ name: sql.name, text: sql.text, values });
      return result.rows as R[];
    },
    async exec(sql: string) {
      countStatements(1);
      await client.query(sql);
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
      const client = await pool.connect();
      // BEGIN, and COMMIT or ROLLBACK: two statements around the work's own.
      countStatements(2);
      try {
        await client.query("BEGIN");
        const result = await work(wrap(client));
        await client.query("COMMIT");
        return result;
      } catch (err) {
        await client.query("ROLLBACK").catch(() => undefined);
        throw err;
      } finally {
        client.release();
      }
    },
    async close() {
      await pool.end();
    }
  };
}
