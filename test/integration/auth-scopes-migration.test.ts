import { randomUUID } from "node:crypto";
import type { Database } from "../../lib/db/database";
import { migrateSchema } from "../../lib/db/migrate";
import { migrateUpTo, openThrowAwayPglite, openThrowAwayPostgres, ThrowAwayDatabase } from "../helpers/postgres";
import { describeWithServers } from "../helpers/servers";

/**
 * Migration auth/002 on both engines: keys that had every scope there was (both parcel scopes)
 * gain wallet:read, once; a key limited on purpose stays limited.
 */

const MIGRATION = "002_wallet_read_scope.sql";

function migrationContract(open: () => Promise<ThrowAwayDatabase>) {
  let db: Database;
  let close: () => Promise<void>;
  const keys: Record<string, string[]> = {
    both: ["parcels:read", "parcels:write"],
    bothReversed: ["parcels:write", "parcels:read"],
    readOnly: ["parcels:read"],
    writeOnly: ["parcels:write"],
    already: ["parcels:read", "parcels:write", "wallet:read"]
  };
  const ids: Record<string, string> = {};

  beforeAll(async () => {
    ({ db, close } = await open());
    await migrateUpTo(db, "auth", MIGRATION);
    const organizationId = randomUUID();
    await db.query("INSERT INTO auth.organizations (id, name) VALUES ($1, 'Avant 002')", [organizationId]);
    for (const [name, scopes] of Object.entries(keys)) {
      ids[name] = randomUUID();
      await db.query(
        `INSERT INTO auth.api_keys (id, organization_id, mode, key_prefix, key_hash, scopes) VALUES ($1, $2, 'live', 'rp_live_x', $3, $4)`,
        [ids[name], organizationId, randomUUID(), scopes]
      );
    }
  }, 60_000);

  afterAll(() => close());

  test("keys with both parcel scopes gain wallet:read, once; limited keys stay as they were", async () => {
    // 002 first, then whatever later migrations exist.
    expect((await migrateSchema(db, "auth"))[0]).toBe(MIGRATION);
    expect(await migrateSchema(db, "auth")).toEqual([]);
    const rows = await db.query<{ id: string; scopes: string[] }>("SELECT id, scopes FROM auth.api_keys");
    const scopesOf = Object.fromEntries(rows.map(r => [r.id, r.scopes]));
    expect(Object.fromEntries(Object.entries(ids).map(([name, id]) => [name, scopesOf[id]]))).toEqual({
      both: ["parcels:read", "parcels:write", "wallet:read"],
      bothReversed: ["parcels:write", "parcels:read", "wallet:read"],
      readOnly: ["parcels:read"],
      writeOnly: ["parcels:write"],
      already: ["parcels:read", "parcels:write", "wallet:read"]
    });
  });
}

describe("auth migration 002 on PGlite", () => migrationContract(openThrowAwayPglite));
describeWithServers(["postgres"], "auth migration 002 on the PostgreSQL server", () => migrationContract(openThrowAwayPostgres));
