import { PGlite } from "@electric-sql/pglite";
import { maintenanceOf, PgliteAutovacuum } from "../../lib/db/pglite-autovacuum";

interface Stats {
  dead: number;
  last_vacuum: Date | null;
  last_analyze: Date | null;
  reltuples: number;
}

const STATS = `SELECT s.n_dead_tup::int AS dead, s.last_vacuum, s.last_analyze, c.reltuples::float8 AS reltuples
  FROM pg_stat_user_tables s JOIN pg_class c ON c.oid = s.relid WHERE s.relname = $1`;

/** PostgreSQL publishes table statistics at most once a second: wait until they say what we wrote. */
async function statsOf(db: PGlite, table: string, until: (s: Stats) => boolean): Promise<Stats> {
  for (;;) {
    const [row] = (await db.query<Stats>(STATS, [table])).rows;
    if (row && until(row)) return row;
    await new Promise(r => setTimeout(r, 100));
  }
}

describe("maintenanceOf: PostgreSQL's default autovacuum rules", () => {
  test("dead rows past 50 + 20 % of the live ones call for a vacuum, changes past 50 + 10 % for an analyse", () => {
    expect(maintenanceOf({ name: "t", live: 1000, dead: 251, modified: 0 })).toBe("vacuum");
    expect(maintenanceOf({ name: "t", live: 1000, dead: 250, modified: 151 })).toBe("analyze");
    expect(maintenanceOf({ name: "t", live: 1000, dead: 250, modified: 150 })).toBeNull();
    expect(maintenanceOf({ name: "t", live: 0, dead: 51, modified: 0 })).toBe("vacuum");
  });
});

describe("PgliteAutovacuum (PGlite has no autovacuum of its own)", () => {
  let db: PGlite;

  beforeAll(async () => {
    db = await PGlite.create("memory://autovacuum");
    await db.exec("CREATE TABLE churn (id int PRIMARY KEY, state text NOT NULL); CREATE TABLE quiet (id int PRIMARY KEY)");
  });
  afterAll(() => db.close());

  test("a table full of dead rows is vacuumed and analysed; a quiet one is left alone", async () => {
    await db.query("INSERT INTO churn SELECT g, 'new' FROM generate_series(1, 500) g");
    await db.query("UPDATE churn SET state = 'done'");
    await db.query("INSERT INTO quiet VALUES (1)");
    const before = await statsOf(db, "churn", s => s.dead >= 500);
    expect(before.last_vacuum).toBeNull();

    const errors: Error[] = [];
    const autovacuum = new PgliteAutovacuum(db, { intervalMs: 60_000, onError: err => errors.push(err) });
    await autovacuum.runOnce();
    await autovacuum.stop();
    expect(errors).toEqual([]);

    const after = await statsOf(db, "churn", s => s.last_vacuum !== null);
    expect(after.dead).toBe(0);
    // The planner now knows the table's size (never analysed: -1).
    expect(after.reltuples).toBe(500);
    const quiet = await statsOf(db, "quiet", () => true);
    expect(quiet.last_vacuum).toBeNull();
    expect(quiet.last_analyze).toBeNull();
  });

  test("after stop no round runs, and stop waits for the one in flight", async () => {
    const autovacuum = new PgliteAutovacuum(db, { intervalMs: 60_000, onError: () => undefined });
    const round = autovacuum.runOnce();
    await autovacuum.stop();
    await round;
    await db.query("UPDATE churn SET state = 'again'");
    await statsOf(db, "churn", s => s.dead >= 500);
    await autovacuum.runOnce();
    expect((await statsOf(db, "churn", () => true)).dead).toBeGreaterThanOrEqual(500);
  });
});
