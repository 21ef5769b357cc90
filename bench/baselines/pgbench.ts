import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import pg from "pg";
import { runCommand } from "../proc";
import { sampleRss } from "../rss";
import { LoadStats, statsOfLatencies } from "../stats";
import { createThrowAwayDatabase, ThrowAwayDatabase } from "../systems/postgres";

export async function pgbenchAvailable(): Promise<boolean> {
  try {
    return (await runCommand("pgbench", ["--version"])).code === 0;
  } catch {
    return false;
  }
}

/** Per-transaction latencies (µs) from pgbench's `-l` logs: the third field of each line. */
function latenciesOfLogs(dir: string): number[] {
  const latencies: number[] = [];
  for (const file of fs.readdirSync(dir).filter(f => f.startsWith("pgbench_log"))) {
    for (const line of fs.readFileSync(path.join(dir, file), "utf8").split("\n")) {
      const us = Number(line.split(" ")[2]);
      if (Number.isFinite(us) && line) latencies.push(us / 1000);
    }
  }
  return latencies;
}

/** The server's own floor for small write transactions: `pgbench -b simple-update` on a throw-away database. */
export class Pgbench {
  private constructor(private readonly database: ThrowAwayDatabase) {}

  static async init(): Promise<Pgbench> {
    const database = await createThrowAwayDatabase("relay_bench_pgbench");
    const done = await runCommand("pgbench", ["-i", "-q", "-s", "1", database.url]);
    if (done.code !== 0) {
      await database.drop();
      throw new Error(`pgbench -i failed: ${done.stderr}`);
    }
    return new Pgbench(database);
  }

  /**
   * How many more connections the server takes now (max_connections less the reserved ones and
   * those open, with a margin for the system under test): pgbench at 64 clients beside a
   * distributed system's pools can exceed a default max_connections of 100.
   */
  async connectionsLeft(margin = 8): Promise<number> {
    const client = new pg.Client({ connectionString: this.database.url });
    await client.connect();
    try {
      const { rows } = await client.query<{ left: number }>(
        "SELECT current_setting('max_connections')::int - current_setting('superuser_reserved_connections')::int - (SELECT count(*) FROM pg_stat_activity)::int AS left"
      );
      return Math.max(1, rows[0].left - margin);
    } finally {
      await client.end();
    }
  }

  async run(clients: number, seconds: number, rssOfServer: number[] = []): Promise<LoadStats> {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), "bench-pgbench-"));
    const rss = sampleRss(rssOfServer);
    try {
      const done = await runCommand(
        "pgbench",
        [
          "-n",
          "-b",
          "simple-update",
          "-c",
          String(clients),
          "-j",
          String(Math.min(2, clients)),
          // -T counts from before the clients connect, and tps leaves the connecting out: at 64
          // clients on a busy machine, 2 s could pass before the first transaction.
          "-T",
          String(seconds + Math.ceil(clients / 16)),
          "-l",
          this.database.url
        ],
        { cwd: dir }
      );
      const tps = /tps = ([\d.]+) \(without initial connection time\)/.exec(done.stdout);
      if (done.code !== 0 || !tps) throw new Error(`pgbench failed: ${done.stderr}${done.stdout}`);
      const stats = statsOfLatencies(latenciesOfLogs(dir), seconds);
      // pgbench's own rate excludes connection set-up; the latencies come from its log.
      return { ...stats, rate: Number(tps[1]), ...(rssOfServer.length ? { rssMb: rss.stop() } : {}) };
    } finally {
      rss.stop();
      fs.rmSync(dir, { recursive: true, force: true });
    }
  }

  drop(): Promise<void> {
    return this.database.drop();
  }
}
