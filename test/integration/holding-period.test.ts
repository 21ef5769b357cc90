import { randomBytes, randomUUID } from "node:crypto";
import { ServiceBroker } from "moleculer";
import { createSystem } from "../../bin/system";
import { loadConfig } from "../../lib/config";
import { acquireDatabase, releaseDatabase } from "../../lib/db/connection";
import type { Database } from "../../lib/db/database";
import type { KeyMode } from "../../lib/api-keys";
import type { ParcelView } from "../../lib/parcel-view";
import type { PublicTracking } from "../../lib/public-tracking";
import { createTestDatabase } from "../helpers/postgres";
import { availableServers } from "../helpers/servers";

/**
 * The holding period on both engines: a parcel that reaches its relay point gets a deadline by
 * whichever path it arrives (operator transition, sandbox trigger), shown in the parcel view and
 * in public tracking.
 */

const HOLDING_DAYS = 5;
const DAY_MS = 24 * 3600 * 1000;

function engines(): [string, () => Promise<{ env: Record<string, string>; drop: () => Promise<void> }>][] {
  const list: [string, () => Promise<{ env: Record<string, string>; drop: () => Promise<void> }>][] = [
    ["PGlite", async () => ({ env: { DATA_DIR: `memory://${randomUUID()}` }, drop: async () => undefined })]
  ];
  if (availableServers().has("postgres")) {
    list.push([
      "PostgreSQL",
      async () => {
        const database = await createTestDatabase();
        return { env: { DATABASE_URL: database.url }, drop: database.drop };
      }
    ]);
  } else process.stderr.write("\n[notice] holding period: PostgreSQL not reachable, PGlite only\n");
  return list;
}

describe.each(engines())("holding period on %s", (_engine, open) => {
  let broker: ServiceBroker;
  let db: Database;
  let config: ReturnType<typeof loadConfig>;
  let drop: () => Promise<void>;
  let orgId: string;

  beforeAll(async () => {
    const database = await open();
    drop = database.drop;
    config = loadConfig({
      ...database.env,
      SERVICES: "auth,wallet,parcels",
      BACKOFFICE_TOKEN: "t",
      ENCRYPTION_KEY: randomBytes(32).toString("hex"),
      LABEL_URL_SECRET: "l",
      SWEEP_INTERVAL_MS: "3600000",
      HOLDING_INTERVAL_MS: "60000",
      HOLDING_DAYS: String(HOLDING_DAYS)
    });
    broker = await createSystem(config, { logger: false });
    await broker.start();
    db = await acquireDatabase(config);
    orgId = (await broker.call<{ id: string }, object>("auth.createOrganization", { name: "Holding SARL" })).id;
    for (const mode of ["live", "sandbox"]) await broker.call("wallet.topUp", { organizationId: orgId, mode, amountDzd: 100_000 });
  }, 60_000);

  afterAll(async () => {
    await broker.stop();
    await releaseDatabase(config);
    await drop();
  });

  const meta = (mode: KeyMode) => ({
    auth: {
      keyId: randomUUID(),
      keyPrefix: "rp_test",
      organizationId: orgId,
      organizationName: "Holding SARL",
      mode,
      scopes: ["parcels:read", "parcels:write"],
      rateLimitPerMinute: null
    }
  });

  async function create(mode: KeyMode = "live", extra: object = {}): Promise<ParcelView> {
    return broker.call<ParcelView, object>(
      "parcels.create",
      { recipientName: "Amina", recipientPhone: "+213555123456", weightG: 800, destinationRelayCode: "DZ-16-ALGER-CENTRE", ...extra },
      { meta: meta(mode) }
    );
  }
  const read = (id: string, mode: KeyMode = "live") => broker.call<ParcelView, object>("parcels.get", { id }, { meta: meta(mode) });
  const operator = (id: string, toStatus: string) => broker.call<ParcelView, object>("parcels.transition", { id, toStatus });
  async function toRelay(id: string): Promise<ParcelView> {
    for (const status of ["READY_FOR_PICKUP", "PICKED_UP", "IN_TRANSIT"]) await operator(id, status);
    return operator(id, "AT_RELAY");
  }
  const arrivedAt = async (id: string) =>
    (
      await db.query<{ created_at: Date }>(
        "SELECT created_at FROM parcels.status_history WHERE parcel_id = $1 AND to_status = 'AT_RELAY' ORDER BY id DESC LIMIT 1",
        [id]
      )
    )[0].created_at;

  test("no deadline before arrival; on arrival (operator) it is arrival + HOLDING_DAYS, in the view and public tracking", async () => {
    const parcel = await create();
    expect(parcel.pickupDeadline).toBeNull();
    expect(parcel.returnFeeDzd).toBeNull();
    const atRelay = await toRelay(parcel.id);
    expect(atRelay.pickupDeadline).not.toBeNull();
    expect(Date.parse(atRelay.pickupDeadline!)).toBe((await arrivedAt(parcel.id)).getTime() + HOLDING_DAYS * DAY_MS);
    expect((await read(parcel.id)).pickupDeadline).toBe(atRelay.pickupDeadline);
    const tracking = await broker.call<PublicTracking, object>("parcels.publicTracking", { trackingNumber: parcel.trackingNumber });
    expect(tracking.pickupDeadline).toBe(atRelay.pickupDeadline);
  });

  test("a sandbox parcel moved to AT_RELAY by the trigger gets its deadline too", async () => {
    const parcel = await create("sandbox");
    await broker.call("parcels.triggerSandboxEvent", { id: parcel.id, toStatus: "AT_RELAY" }, { meta: meta("sandbox") });
    const after = await read(parcel.id, "sandbox");
    expect(Date.parse(after.pickupDeadline!)).toBe((await arrivedAt(parcel.id)).getTime() + HOLDING_DAYS * DAY_MS);
  });
});
