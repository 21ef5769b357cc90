import { randomUUID } from "node:crypto";
import { openPglite } from "../../lib/db/pglite";
import { Database } from "../../lib/db/database";
import { migrateSchema } from "../../lib/db/migrate";
import { VisibleParcelCache } from "../../services/parcels/visible-parcel-cache";

/** The embedded read cache of GET /parcels/{id} never shows a parcel older than the database. */
describe("visible parcel cache on PGlite", () => {
  let db: Database;
  const owner = { organizationId: randomUUID(), mode: "live" as const };
  const id = randomUUID();

  beforeAll(async () => {
    db = await openPglite(`memory://visible-cache-${randomUUID()}`);
    await migrateSchema(db, "parcels");
    await db.query("INSERT INTO parcels.relay_points (code, name, city) VALUES ('DZ-16-CACHE-TEST', 'Test', 'Alger')");
    await db.query(
      `INSERT INTO parcels.parcels (id, organization_id, mode, tracking_number, status, destination_relay_code,
         recipient_name_enc, recipient_phone_enc, weight_g, price_centimes)
       VALUES ($1, $2, $3, 'BN00000001' || '5DZ', 'CREATED', 'DZ-16-CACHE-TEST', 'n', 'p', 500, 45000)`,
      [id, owner.organizationId, owner.mode]
    );
  }, 60_000);

  afterAll(() => db.close());

  test("PGlite counts its writes", () => {
    expect(typeof db.writeGeneration).toBe("function");
  });

  test("a status change, in a statement or a transaction, is seen by the very next read", async () => {
    const cache = new VisibleParcelCache(db);
    expect((await cache.find(owner, id))?.status).toBe("CREATED");
    expect((await cache.find(owner, id))?.status).toBe("CREATED");

    await db.query("UPDATE parcels.parcels SET status = 'AT_RELAY' WHERE id = $1", [id]);
    expect((await cache.find(owner, id))?.status).toBe("AT_RELAY");

    await db.transaction(tx => tx.query("UPDATE parcels.parcels SET status = 'DELIVERED' WHERE id = $1", [id]));
    expect((await cache.find(owner, id))?.status).toBe("DELIVERED");
  });

  test("a write issued while a read is on its way leaves nothing stale behind", async () => {
    const cache = new VisibleParcelCache(db);
    const read = cache.find(owner, id);
    const write = db.query("UPDATE parcels.parcels SET status = 'RETURNED' WHERE id = $1", [id]);
    await Promise.all([read, write]);
    expect((await cache.find(owner, id))?.status).toBe("RETURNED");
  });

  test("another organisation or mode never reads it", async () => {
    const cache = new VisibleParcelCache(db);
    await cache.find(owner, id);
    expect(await cache.find({ ...owner, organizationId: randomUUID() }, id)).toBeNull();
    expect(await cache.find({ ...owner, mode: "sandbox" }, id)).toBeNull();
  });
});
