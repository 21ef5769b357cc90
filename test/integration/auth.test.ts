import { randomBytes } from "node:crypto";
import { ServiceBroker } from "moleculer";
import { hashApiKey } from "../../lib/api-keys";
import { loadConfig } from "../../lib/config";
import { Database } from "../../lib/db/database";
import { openPostgres } from "../../lib/db/postgres";
import { Principal } from "../../lib/principal";
import { createSystem } from "../../bin/system";
import { createTestDatabase } from "../helpers/postgres";
import { describeWithServers } from "../helpers/servers";

describeWithServers(["postgres"], "auth service on PostgreSQL", () => {
  let broker: ServiceBroker;
  let database: { url: string; drop: () => Promise<void> };
  let db: Database;

  beforeAll(async () => {
    database = await createTestDatabase();
    const config = loadConfig({
      DATABASE_URL: database.url,
      SERVICES: "auth",
      BACKOFFICE_TOKEN: "x",
      ENCRYPTION_KEY: randomBytes(32).toString("hex"),
      LABEL_URL_SECRET: "y",
      LOG_LEVEL: "warn"
    });
    broker = await createSystem(config, { logger: false });
    await broker.start();
    db = openPostgres(database.url, 2);
  });

  afterAll(async () => {
    await broker.stop();
    await db.close();
    await database.drop();
  });

  const createOrg = (name: string) => broker.call<{ id: string }, object>("auth.createOrganization", { name });
  const createKey = (organizationId: string, extra: object = {}) =>
    broker.call<{ id: string; key: string; keyPrefix: string; scopes: string[] }, object>("auth.createApiKey", {
      organizationId,
      mode: "live",
      ...extra
    });
  const resolve = (key: string) => broker.call<Principal | null, object>("auth.resolveKey", { keyHash: hashApiKey(key) });

  test("the key is stored only as a hash and a readable prefix: no column holds the secret", async () => {
    const org = await createOrg("Pharmacie Ibn Sina");
    const created = await createKey(org.id);
    const rows = await db.query("SELECT * FROM auth.api_keys WHERE id = $1", [created.id]);
    expect(rows).toHaveLength(1);
    const stored = JSON.stringify(rows);
    expect(stored).not.toContain(created.key);
    expect(stored).not.toContain(created.key.slice(16));
    expect(stored).toContain(hashApiKey(created.key));
    expect(stored).toContain(created.keyPrefix);
  });

  test("a key resolves to its own organisation only", async () => {
    const [a, b] = [await createOrg("Org A"), await createOrg("Org B")];
    const [keyA, keyB] = [await createKey(a.id), await createKey(b.id)];
    expect((await resolve(keyA.key))!.organizationId).toBe(a.id);
    expect((await resolve(keyB.key))!.organizationId).toBe(b.id);
    expect(await resolve(keyA.key.slice(0, -1) + (keyA.key.endsWith("A") ? "B" : "A"))).toBeNull();
  });

  test("keys get every scope by default, or exactly the ones asked for", async () => {
    const org = await createOrg("Scopes SARL");
    expect((await createKey(org.id)).scopes).toEqual(["parcels:read", "parcels:write", "wallet:read"]);
    const readOnly = await createKey(org.id, { scopes: ["parcels:read"] });
    expect((await resolve(readOnly.key))!.scopes).toEqual(["parcels:read"]);
  });

  test("revocation takes effect on the next lookup, and only within the key's organisation", async () => {
    const [owner, other] = [await createOrg("Owner"), await createOrg("Other")];
    const created = await createKey(owner.id);
    await expect(broker.call("auth.revokeApiKey", { organizationId: other.id, keyId: created.id })).rejects.toMatchObject({
      type: "API_KEY_NOT_FOUND",
      code: 404
    });
    expect(await resolve(created.key)).not.toBeNull();
    await broker.call("auth.revokeApiKey", { organizationId: owner.id, keyId: created.id });
    expect(await resolve(created.key)).toBeNull();
  });

  test("a key for an unknown organisation is refused", async () => {
    await expect(createKey("0b7c3f0e-1d2a-4c55-9e8f-123456789abc")).rejects.toMatchObject({
      type: "ORGANIZATION_NOT_FOUND"
    });
  });
});
