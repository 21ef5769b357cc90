import { Client } from "pg";
import type { Queryable } from "../../lib/db/database";
import { textOf, type Statement } from "../../lib/db/statement";

/**
 * Issue 48: the plans of the services' own reads at scale. A read runs through `recording`, which
 * runs it for real and keeps its text and parameters; `explain` then asks PostgreSQL for its plan
 * twice, with the parameters written in (literal) and as a generic prepared statement (what a
 * named statement gets after five executions), and says whether it scans a big table from end to
 * end or sorts on disk.
 */

export interface Recorded {
  sql: string;
  params: unknown[];
}

export function recording(db: Queryable, into: Recorded[]): Queryable {
  return {
    async query<R extends object>(sql: Statement, params: unknown[] = []) {
      into.push({ sql: textOf(sql), params });
      return db.query<R>(sql, params);
    },
    exec: sql => db.exec(sql)
  };
}

export interface PlanCheck {
  ms: number;
  seqScanOnBigTable: boolean;
  diskSort: boolean;
  plan: string;
}

const BIG_TABLES = /Seq Scan on (parcels|status_history|events|deliveries|outbox|sms_messages)\b/;

function literal(value: unknown): string {
  if (value === null || value === undefined) return "NULL";
  if (typeof value === "number" || typeof value === "boolean") return String(value);
  if (value instanceof Date) return `'${value.toISOString()}'`;
  if (Array.isArray(value)) return `ARRAY[${value.map(literal).join(", ")}]`;
  return `'${String(value).replace(/'/g, "''")}'`;
}

const withLiterals = (r: Recorded) => r.sql.replace(/\$(\d+)/g, (_m, n: string) => literal(r.params[Number(n) - 1]));

function check(rows: { "QUERY PLAN": string }[]): PlanCheck {
  const plan = rows.map(r => r["QUERY PLAN"]).join("\n");
  const ms = Number(/Execution Time: ([\d.]+) ms/.exec(plan)?.[1] ?? NaN);
  return { ms, seqScanOnBigTable: BIG_TABLES.test(plan), diskSort: /Sort Method: external|Disk:/.test(plan), plan };
}

export async function explain(url: string, read: Recorded): Promise<{ literal: PlanCheck; prepared: PlanCheck }> {
  const client = new Client({ connectionString: url });
  await client.connect();
  try {
    const literalPlan = check((await client.query(`EXPLAIN (ANALYZE, BUFFERS) ${withLiterals(read)}`)).rows);
    await client.query("SET plan_cache_mode = force_generic_plan");
    await client.query(`PREPARE bench_read AS ${read.sql}`);
    const args = read.params.map(literal).join(", ");
    const prepared = check((await client.query(`EXPLAIN (ANALYZE, BUFFERS) EXECUTE bench_read${args ? `(${args})` : ""}`)).rows);
    return { literal: literalPlan, prepared };
  } finally {
    await client.end();
  }
}

/** Bytes of each schema's tables and indexes, per parcel. */
export async function bytesPerParcel(db: Queryable): Promise<{ total: number; bySchema: Record<string, number> }> {
  const [{ n }] = await db.query<{ n: string }>("SELECT count(*) AS n FROM parcels.parcels");
  const rows = await db.query<{ schema: string; bytes: string }>(
    `SELECT n.nspname AS schema, sum(pg_total_relation_size(c.oid)) AS bytes FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
      WHERE c.relkind IN ('r', 'p') AND n.nspname IN ('parcels', 'webhooks', 'wallet', 'notifications', 'auth') GROUP BY 1`
  );
  const parcels = Math.max(1, Number(n));
  const bySchema = Object.fromEntries(rows.map(r => [r.schema, Math.round(Number(r.bytes) / parcels)]));
  return { total: Object.values(bySchema).reduce((a, b) => a + b, 0), bySchema };
}
