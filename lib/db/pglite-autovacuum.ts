import type { PGlite } from "@electric-sql/pglite";
import { BackgroundLoop } from "../background-loop";

/**
 * PostgreSQL's autovacuum for the embedded database. PGlite runs PostgreSQL in single-user mode,
 * where no autovacuum worker ever starts: without this, every update and delete leaves its dead
 * row and its index entries for good, tables only grow, and the planner keeps the statistics of
 * an empty database. Measured (issue 31): after a few thousand creates the outbox's read switched
 * to a bitmap scan over every dispatched row's dead index entry, 0.04 → 0.5–1.3 ms per read.
 *
 * Every `intervalMs` one read of pg_stat_user_tables; a table past PostgreSQL's own default
 * thresholds (autovacuum_vacuum_threshold 50 + scale factor 0.2, analyze 50 + 0.1) is vacuumed
 * and analysed, or only analysed. The thresholds grow with the table, so the work stays a small
 * share of the writes. Each statement runs between the application's own (PGlite serialises them).
 */
export interface AutovacuumOptions {
  intervalMs: number;
  onError: (err: Error) => void;
}

interface TableStats {
  name: string;
  live: number;
  dead: number;
  modified: number;
}

const STATS = `SELECT quote_ident(schemaname) || '.' || quote_ident(relname) AS name,
  n_live_tup::int AS live, n_dead_tup::int AS dead, n_mod_since_analyze::int AS modified
  FROM pg_stat_user_tables`;

/** What a table needs now: PostgreSQL's default autovacuum rules. */
export function maintenanceOf(t: TableStats): "vacuum" | "analyze" | null {
  if (t.dead > 50 + 0.2 * t.live) return "vacuum";
  if (t.modified > 50 + 0.1 * t.live) return "analyze";
  return null;
}

/** One pass at a time, every `intervalMs`, stopped before the database closes: a BackgroundLoop. */
export class PgliteAutovacuum {
  private readonly loop: BackgroundLoop<void>;

  constructor(
    private readonly db: PGlite,
    options: AutovacuumOptions
  ) {
    this.loop = new BackgroundLoop(() => this.round(), options.intervalMs, options.onError, { unref: true });
  }

  start(): void {
    this.loop.start();
  }

  /** One round now (or the one in flight): reads the statistics, maintains every table that needs it. */
  async runOnce(): Promise<void> {
    await this.loop.kick();
  }

  /** Stops the rounds and waits for the one in flight, before the database closes. */
  stop(): Promise<void> {
    return this.loop.stop();
  }

  private async round(): Promise<void> {
    const { rows } = await this.db.query<TableStats>(STATS);
    for (const table of rows) {
      if (this.loop.stopping) return;
      const needed = maintenanceOf(table);
      if (needed === "vacuum") await this.db.exec(`VACUUM (ANALYZE) ${table.name}`);
      else if (needed === "analyze") await this.db.exec(`ANALYZE ${table.name}`);
    }
  }
}
