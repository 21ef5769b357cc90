import { performance } from "node:perf_hooks";
import { Pool } from "pg";
import { answer, scriptInput } from "../scripts";
import { statsOfLatencies } from "../stats";

/**
 * The floor of `GET /parcels?size=N`: the very SQL the parcels service runs for it, through `pg`
 * with a pool of `concurrency` connections, in its own process, closed loop like wrk.
 */
interface PgListInput {
  databaseUrl: string;
  organizationId: string;
  mode: "live" | "sandbox";
  size: number;
  concurrency: number;
  seconds: number;
}

// Copied from listVisible in services/parcels/parcels.store.ts (no status filter, page 0): keep in step.
const COUNT_SQL = `SELECT count(*) AS total FROM parcels.parcels WHERE organization_id = $1 AND mode = $2 AND status <> 'PENDING'`;
const PAGE_SQL = `SELECT * FROM parcels.parcels WHERE organization_id = $1 AND mode = $2 AND status <> 'PENDING'
      ORDER BY created_at DESC, id DESC LIMIT $3 OFFSET $4`;

async function main(): Promise<void> {
  const input = scriptInput<PgListInput>();
  const pool = new Pool({ connectionString: input.databaseUrl, max: input.concurrency });
  const owner = [input.organizationId, input.mode];
  const listOnce = async () => {
    await pool.query(COUNT_SQL, owner);
    await pool.query(PAGE_SQL, [...owner, input.size, 0]);
  };
  const run = async (seconds: number) => {
    const latencies: number[] = [];
    const start = performance.now();
    await Promise.all(
      Array.from({ length: input.concurrency }, async () => {
        while (performance.now() - start < seconds * 1000) {
          const t = performance.now();
          await listOnce();
          latencies.push(performance.now() - t);
        }
      })
    );
    return statsOfLatencies(latencies, (performance.now() - start) / 1000);
  };
  await run(Math.min(1, input.seconds));
  const stats = await run(input.seconds);
  await pool.end();
  answer(stats);
}

void main();
