import { randomUUID } from "node:crypto";
import type { Database, Queryable } from "../../lib/db/database";
import { migrateSchema } from "../../lib/db/migrate";
import { openPglite } from "../../lib/db/pglite";
import { openPostgres } from "../../lib/db/postgres";
import { textOf, type Statement } from "../../lib/db/statement";
import type { MarkTuning } from "../../services/parcels/list-marks.store";
import { ListPage, listVisible, Owner } from "../../services/parcels/parcels.store";
import { createTestDatabase } from "../helpers/postgres";
import { describeWithServers } from "../helpers/servers";

/**
 * Issue 48, decision 0067: the SPEC's deep page numbers read from marks counted from the oldest
 * parcel (services/parcels/list-marks.store.ts) give exactly the page the walk over every skipped
 * parcel gives — after new parcels, status changes and a create under way — on both engines, and
 * a second read of a deep page walks from a mark, not from the top. Small tuning, so that a few
 * hundred parcels reach the deep path.
 */

const TUNING: MarkTuning = { fromOffset: 30, reach: 12, settledMinutes: 60 };
const WALK_ONLY: MarkTuning = { ...TUNING, fromOffset: Number.MAX_SAFE_INTEGER };

/** `count` parcels of the owner, one a minute, the newest `hoursAgo` hours ago. */
async function seed(db: Database, owner: Owner, count: number, hoursAgo: number, status = "CREATED"): Promise<void> {
  await db.query(
    `INSERT INTO parcels.parcels (id, organization_id, mode, tracking_number, status, destination_relay_code,
       recipient_name_enc, recipient_phone_enc, weight_g, price_centimes, created_at)
     SELECT gen_random_uuid(), $1, $2, 'RP' || substr(md5(random()::text), 1, 9) || 'DZ', $5, 'DZ-MRK-TEST', 'x', 'x', 100, 35000,
            now() - make_interval(hours => $4::int) - make_interval(mins => $3::int - i)
       FROM generate_series(1, $3::int) AS i`,
    [owner.organizationId, owner.mode, count, hoursAgo, status]
  );
}

/** The statements' names (or texts) a read sent. */
function watched(db: Queryable, sent: string[]): Queryable {
  return {
    query: (sql: Statement, params?: unknown[]) => {
      sent.push(typeof sql === "string" ? textOf(sql) : sql.name);
      return db.query(sql, params);
    },
    exec: sql => db.exec(sql)
  } as Queryable;
}

const shape = (p: ListPage) => ({ ids: p.records.map(r => r.id), total: p.total, next: p.next });

function marksContract(open: () => Promise<{ db: Database; close: () => Promise<void> }>) {
  let db: Database;
  let close: () => Promise<void>;
  const a: Owner = { organizationId: randomUUID(), mode: "live" };
  const other: Owner = { organizationId: randomUUID(), mode: "live" };

  /** Every page of every size in `sizes`, read both ways: they must be the same. */
  const samePages = async (owner: Owner, sizes: number[], via: Queryable = db) => {
    for (const size of sizes) {
      const total = (await listVisible(db, owner, { status: null, page: 0, size }, WALK_ONLY)).total;
      for (let page = 0; page <= Math.ceil(total / size) + 1; page++) {
        const filter = { status: null, page, size };
        const walkedPage = await listVisible(db, owner, filter, WALK_ONLY);
        const marked = await listVisible(via, owner, filter, TUNING);
        expect({ page, size, ...shape(marked) }).toEqual({ page, size, ...shape(walkedPage) });
      }
    }
  };
  const marks = async (owner: Owner) =>
    (
      await db.query<{ from_oldest: string }>(
        "SELECT from_oldest FROM parcels.list_marks WHERE organization_id = $1 AND mode = $2 ORDER BY from_oldest",
        [owner.organizationId, owner.mode]
      )
    ).map(m => Number(m.from_oldest));

  beforeAll(async () => {
    ({ db, close } = await open());
    await migrateSchema(db, "parcels");
    await db.query("INSERT INTO parcels.relay_points (code, name, city) VALUES ('DZ-MRK-TEST', 'Test', 'Alger') ON CONFLICT DO NOTHING");
    await seed(db, a, 240, 48);
    await seed(db, a, 10, 60, "DELIVERED");
    await seed(db, other, 80, 48);
    await seed(db, { ...a, mode: "sandbox" }, 50, 48);
  });
  afterAll(() => close());

  test("a deep page from a mark is the page the walk gives, and the second read of it starts from the mark", async () => {
    await samePages(a, [20, 7]);
    const recorded = await marks(a);
    expect(recorded.length).toBeGreaterThan(0);
    // At least `reach` apart: at most one mark per `reach` parcels.
    for (let i = 1; i < recorded.length; i++) expect(recorded[i] - recorded[i - 1]).toBeGreaterThan(TUNING.reach);
    const sent: string[] = [];
    await samePages(a, [20, 7], watched(db, sent));
    expect(sent).toContain("parcels_list_from_mark");
    expect(sent).not.toContain("parcels_list_marking");
    // Another organisation's marks are its own; the sandbox's list is another list.
    await samePages(other, [20]);
    await samePages({ ...a, mode: "sandbox" }, [20]);
  });

  test("new parcels at the top, old ones moving on and a page past the end change nothing", async () => {
    await seed(db, a, 25, 0);
    await db.query(
      `UPDATE parcels.parcels SET status = 'DELIVERED' WHERE id IN
         (SELECT id FROM parcels.parcels WHERE organization_id = $1 AND mode = 'live' ORDER BY created_at LIMIT 40)`,
      [a.organizationId]
    );
    await samePages(a, [20, 9]);
    const past = await listVisible(db, a, { status: null, page: 500, size: 20 }, TUNING);
    expect(shape(past)).toEqual({ ids: [], total: 275, next: null });
  });

  test("a parcel younger than the settling time, or a create still under way below it, gets no mark", async () => {
    const young: Owner = { organizationId: randomUUID(), mode: "live" };
    await seed(db, young, 50, 0);
    await samePages(young, [20, 10]);
    expect(await marks(young)).toEqual([]);

    const waiting: Owner = { organizationId: randomUUID(), mode: "live" };
    await seed(db, waiting, 3, 100, "PENDING");
    await seed(db, waiting, 120, 48);
    await samePages(waiting, [20]);
    expect(await marks(waiting)).toEqual([]);
    // The create under way ends: it enters the list below every page, which all move by three.
    await db.query("UPDATE parcels.parcels SET status = 'CREATED' WHERE organization_id = $1", [waiting.organizationId]);
    await samePages(waiting, [20]);
    expect((await marks(waiting)).length).toBeGreaterThan(0);
  });
}

describe("deep pages from list marks on PGlite (embedded)", () => {
  marksContract(async () => {
    const db = await openPglite(`memory://${randomUUID()}`);
    return { db, close: () => db.close() };
  });
});

describeWithServers(["postgres"], "deep pages from list marks on the PostgreSQL server", () => {
  marksContract(async () => {
    const database = await createTestDatabase();
    const db = openPostgres(database.url, 4);
    return {
      db,
      close: async () => {
        await db.close();
        await database.drop();
      }
    };
  });
});
