import { randomUUID } from "node:crypto";
import fc from "fast-check";
import type { Database } from "../../lib/db/database";
import { migrateSchema } from "../../lib/db/migrate";
import { openPglite } from "../../lib/db/pglite";
import { openPostgres } from "../../lib/db/postgres";
import { createTestDatabase } from "../helpers/postgres";
import { describeWithServers } from "../helpers/servers";

/**
 * A list page's totalElements comes from parcels.parcel_counts (migrations parcels/005, 015), kept by a
 * trigger: after any sequence of inserts, status changes and deletes — concurrent ones included —
 * its sums must equal a count over the table, on both engines.
 */

const STATUSES = ["PENDING", "CREATED", "READY_FOR_PICKUP", "DELIVERED", "CANCELLED"];
const ORGS = [randomUUID(), randomUUID()];

type Step =
  | { op: "insert"; org: number; mode: "live" | "sandbox"; status: string }
  | { op: "move"; pick: number; status: string }
  | { op: "delete"; pick: number };

const step: fc.Arbitrary<Step> = fc.oneof(
  fc.record({
    op: fc.constant("insert" as const),
    org: fc.integer({ min: 0, max: 1 }),
    mode: fc.constantFrom("live" as const, "sandbox" as const),
    status: fc.constantFrom(...STATUSES)
  }),
  fc.record({ op: fc.constant("move" as const), pick: fc.nat(), status: fc.constantFrom(...STATUSES) }),
  fc.record({ op: fc.constant("delete" as const), pick: fc.nat() })
);

async function insertParcel(db: Database, org: string, mode: string, status: string): Promise<string> {
  const id = randomUUID();
  await db.query(
    `INSERT INTO parcels.parcels (id, organization_id, mode, tracking_number, status, destination_relay_code,
       recipient_name_enc, recipient_phone_enc, weight_g, price_centimes)
     VALUES ($1, $2, $3, $4, $5, 'DZ-CNT-TEST', 'x', 'x', 100, 35000)`,
    [id, org, mode, `RP${id.replace(/-/g, "").slice(0, 9)}DZ`, status]
  );
  return id;
}

/** Every (organisation, mode, status) group, counted both ways. */
async function bothWays(db: Database) {
  const counted = await db.query<{ k: string; n: string }>(
    "SELECT organization_id || mode || status AS k, count(*)::text AS n FROM parcels.parcels GROUP BY 1 ORDER BY 1"
  );
  const summed = await db.query<{ k: string; n: string }>(
    "SELECT organization_id || mode || status AS k, sum(n)::text AS n FROM parcels.parcel_counts GROUP BY 1 HAVING sum(n) <> 0 ORDER BY 1"
  );
  return { counted, summed };
}

function countsContract(open: () => Promise<{ db: Database; close: () => Promise<void> }>) {
  let db: Database;
  let close: () => Promise<void>;

  beforeAll(async () => {
    ({ db, close } = await open());
    await migrateSchema(db, "parcels");
    await db.query("INSERT INTO parcels.relay_points (code, name, city) VALUES ('DZ-CNT-TEST', 'Test', 'Alger') ON CONFLICT DO NOTHING");
  });
  afterAll(() => close());

  test("any sequence of inserts, status changes and deletes keeps the counters equal to a count", async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(step, { maxLength: 40 }), async steps => {
        const ids: string[] = [];
        for (const s of steps) {
          if (s.op === "insert") ids.push(await insertParcel(db, ORGS[s.org], s.mode, s.status));
          else if (ids.length > 0 && s.op === "move") {
            await db.query("UPDATE parcels.parcels SET status = $2 WHERE id = $1", [ids[s.pick % ids.length], s.status]);
          } else if (ids.length > 0 && s.op === "delete") {
            await db.query("DELETE FROM parcels.parcels WHERE id = $1", ids.splice(s.pick % ids.length, 1));
          }
        }
        const { counted, summed } = await bothWays(db);
        expect(summed).toEqual(counted);
      }),
      { numRuns: 25 }
    );
  });

  test("concurrent inserts and moves of one organisation keep the total exact", async () => {
    const org = randomUUID();
    const ids = await Promise.all(Array.from({ length: 40 }, () => insertParcel(db, org, "live", "CREATED")));
    await Promise.all(
      ids.map((id, i) =>
        db.transaction(tx => tx.query("UPDATE parcels.parcels SET status = $2 WHERE id = $1", [id, i % 2 ? "DELIVERED" : "CANCELLED"]))
      )
    );
    const [{ total }] = await db.query<{ total: string }>(
      "SELECT sum(n)::text AS total FROM parcels.parcel_counts WHERE organization_id = $1",
      [org]
    );
    const [{ delivered }] = await db.query<{ delivered: string }>(
      "SELECT coalesce(sum(n), 0)::text AS delivered FROM parcels.parcel_counts WHERE organization_id = $1 AND status = 'DELIVERED'",
      [org]
    );
    expect([total, delivered]).toEqual(["40", "20"]);
  });

  test("a change that keeps the status (a refund flag) moves no counter", async () => {
    const org = randomUUID();
    const id = await insertParcel(db, org, "sandbox", "CREATED");
    await db.query("UPDATE parcels.parcels SET refund_pending = true, status = status WHERE id = $1", [id]);
    const rows = await db.query<{ status: string; n: string }>(
      "SELECT status, sum(n)::text AS n FROM parcels.parcel_counts WHERE organization_id = $1 GROUP BY status HAVING sum(n) <> 0",
      [org]
    );
    expect(rows).toEqual([{ status: "CREATED", n: "1" }]);
  });
}

describe("parcel counters on PGlite (embedded)", () => {
  countsContract(async () => {
    const db = await openPglite(`memory://${randomUUID()}`);
    return { db, close: () => db.close() };
  });
});

describeWithServers(["postgres"], "parcel counters on the PostgreSQL server", () => {
  countsContract(async () => {
    const database = await createTestDatabase();
    const db = openPostgres(database.url, 8);
    return {
      db,
      close: async () => {
        await db.close();
        await database.drop();
      }
    };
  });
});
