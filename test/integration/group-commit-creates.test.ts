import { randomBytes, randomUUID } from "node:crypto";
import type { ServiceBroker } from "moleculer";
import { createSystem } from "../../bin/system";
import { loadConfig } from "../../lib/config";
import type { Principal } from "../../lib/principal";
import { checkMoneyInvariant } from "../helpers/money-invariant";
import { createTestDatabase } from "../helpers/postgres";
import { describeWithServers } from "../helpers/servers";

/**
 * Group commit on the create path (docs/decisions/0025) keeps the create's guarantees: under 200
 * concurrent creates the wallet's and the parcels' writes go in groups, yet a wallet for N parcels
 * pays for exactly N, every refusal is its item's own, and an Idempotency-Key answers its first
 * answer. On both engines.
 */

const PARCEL = {
  recipientName: "Amina B.",
  recipientPhone: "0555 12 34 56",
  weightG: 300,
  destinationRelayCode: "DZ-16-ALGER-CENTRE"
};
const PRICE_DZD = 350;

interface Outcome {
  ok: boolean;
  id?: string;
  code?: string;
  status?: number;
}

function onEngine(
  database: () => Promise<{
    env: Record<string, string>;
    drop: () => Promise<void>;
    invariant: () => string | { pgliteDir: string } | null;
  }>
) {
  let broker: ServiceBroker;
  let drop: () => Promise<void>;
  let invariantTarget: () => string | { pgliteDir: string } | null;

  beforeAll(async () => {
    const db = await database();
    drop = db.drop;
    invariantTarget = db.invariant;
    const config = loadConfig({
      ...db.env,
      SERVICES: "auth,wallet,parcels,labels",
      BACKOFFICE_TOKEN: "t",
      ENCRYPTION_KEY: randomBytes(32).toString("hex"),
      LABEL_URL_SECRET: randomBytes(32).toString("hex"),
      LOG_LEVEL: "warn",
      SWEEP_INTERVAL_MS: "3600000"
    });
    broker = await createSystem(config, { logger: false });
    await broker.start();
  }, 60_000);

  afterAll(async () => {
    await broker?.stop();
    await drop?.();
  });

  async function merchant(name: string, balanceDzd: number): Promise<Principal> {
    const org = await broker.call<{ id: string }, object>("auth.createOrganization", { name });
    if (balanceDzd > 0) await broker.call("wallet.topUp", { organizationId: org.id, mode: "live", amountDzd: balanceDzd });
    return {
      keyId: randomUUID(),
      keyPrefix: "rp_live_test",
      organizationId: org.id,
      organizationName: name,
      mode: "live",
      scopes: ["parcels:read", "parcels:write"],
      rateLimitPerMinute: null
    };
  }

  const create = (auth: Principal, body: object, idempotencyKey?: string): Promise<Outcome> =>
    broker.call<{ id: string }, object>("parcels.create", body, { meta: { auth, idempotencyKey } }).then(
      parcel => ({ ok: true, id: parcel.id }),
      (err: { type?: string; code?: number }) => ({ ok: false, code: err.type, status: err.code })
    );

  const balanceOf = async (auth: Principal) =>
    (await broker.call<{ balanceDzd: number }, object>("wallet.get", { organizationId: auth.organizationId, mode: "live" })).balanceDzd;

  test("200 concurrent creates on a wallet for 150: exactly 150 parcels, 50 × 402 INSUFFICIENT_BALANCE, balance 0", async () => {
    const auth = await merchant("Concurrence SARL", 150 * PRICE_DZD);
    const outcomes = await Promise.all(Array.from({ length: 200 }, (_, i) => create(auth, { ...PARCEL, recipientName: `Client ${i}` })));
    const created = outcomes.filter(o => o.ok);
    const refused = outcomes.filter(o => !o.ok);
    expect(created).toHaveLength(150);
    expect(new Set(created.map(o => o.id)).size).toBe(150);
    expect(refused).toHaveLength(50);
    expect(refused.every(o => o.code === "INSUFFICIENT_BALANCE" && o.status === 402)).toBe(true);
    expect(await balanceOf(auth)).toBe(0);
    const listed = await broker.call<{ totalElements: number }, object>("parcels.list", { page: 0, size: 1 }, { meta: { auth } });
    expect(listed.totalElements).toBe(150);
    const target = invariantTarget();
    if (target) expect((await checkMoneyInvariant(target)).violations).toEqual([]);
  }, 120_000);

  test("a batch with one invalid item: that item fails alone, the others are created and paid once", async () => {
    const auth = await merchant("Lot Mixte", 10 * PRICE_DZD);
    const items = Array.from({ length: 6 }, (_, i) => ({ ...PARCEL, recipientName: `Lot ${i}` })) as object[];
    items[2] = { ...items[2], destinationRelayCode: "DZ-99-NOWHERE" };
    items[4] = { ...items[4], weightG: 0 };
    const result = await broker.call<
      { created: number; failed: number; items: { status: number; error: { code: string } | null }[] },
      object
    >("parcels.createBatch", { items }, { meta: { auth } });
    expect(result.items.map(i => i.status)).toEqual([201, 201, 400, 201, 400, 201]);
    expect(result.items[2].error!.code).toBe("RELAY_NOT_FOUND");
    expect(result.items[4].error!.code).toBe("VALIDATION_FAILED");
    expect(result).toMatchObject({ created: 4, failed: 2 });
    expect(await balanceOf(auth)).toBe(6 * PRICE_DZD);
  }, 60_000);

  test("a batch runs out of money in its own order: the last items are the ones refused", async () => {
    const auth = await merchant("Petit Solde", 3 * PRICE_DZD);
    const result = await broker.call<{ items: { status: number }[] }, object>(
      "parcels.createBatch",
      { items: Array.from({ length: 8 }, () => PARCEL) },
      { meta: { auth } }
    );
    expect(result.items.map(i => i.status)).toEqual([201, 201, 201, 402, 402, 402, 402, 402]);
    expect(await balanceOf(auth)).toBe(0);
  }, 60_000);

  test("idempotency keys under batching: 20 concurrent creates with one key make one parcel, paid once, and every answer is it or 409 in flight", async () => {
    const auth = await merchant("Cle Unique", 10 * PRICE_DZD);
    const key = `order-${randomUUID()}`;
    const outcomes = await Promise.all(Array.from({ length: 20 }, () => create(auth, PARCEL, key)));
    const ids = new Set(outcomes.filter(o => o.ok).map(o => o.id));
    expect(ids.size).toBe(1);
    expect(outcomes.filter(o => !o.ok).every(o => o.code === "IDEMPOTENCY_KEY_IN_USE")).toBe(true);
    expect(await balanceOf(auth)).toBe(9 * PRICE_DZD);
    // Once finished, every retry answers the first parcel, without a second debit; another body is 422.
    const retries = await Promise.all(Array.from({ length: 10 }, () => create(auth, PARCEL, key)));
    expect(retries.map(o => o.id)).toEqual(Array.from({ length: 10 }, () => [...ids][0]));
    expect(await create(auth, { ...PARCEL, weightG: 999 }, key)).toMatchObject({ ok: false, code: "IDEMPOTENCY_KEY_REUSED" });
    expect(await balanceOf(auth)).toBe(9 * PRICE_DZD);
  }, 60_000);

  test("a replayed debit answers the first debit, whatever the group it lands in", async () => {
    const auth = await merchant("Debit Rejoue", 2 * PRICE_DZD);
    const parcelId = randomUUID();
    const debit = { parcelId, organizationId: auth.organizationId, mode: "live", amountCentimes: PRICE_DZD * 100 };
    const answers = await Promise.all(
      Array.from({ length: 5 }, () => broker.call<{ balanceCentimes: number }, object>("wallet.debit", debit))
    );
    expect(answers.map(a => a.balanceCentimes)).toEqual(Array.from({ length: 5 }, () => PRICE_DZD * 100));
    expect(await balanceOf(auth)).toBe(PRICE_DZD);
  });

  test("wallet.debitBatch: one call, each item its own outcome in the order given (debited, again, 402, 409 for a refunded parcel)", async () => {
    const auth = await merchant("Debits Groupes", 2 * PRICE_DZD);
    const debit = (parcelId: string) => ({ parcelId, organizationId: auth.organizationId, mode: "live", amountCentimes: PRICE_DZD * 100 });
    const [first, second, third, refunded] = Array.from({ length: 4 }, () => randomUUID());
    await broker.call("wallet.refund", { parcelId: refunded, organizationId: auth.organizationId, mode: "live", reason: "test" });
    const { outcomes } = await broker.call<{ outcomes: { balanceCentimes?: number; error?: { code: string } }[] }, object>(
      "wallet.debitBatch",
      { debits: [debit(first), debit(second), debit(first), debit(third), debit(refunded)] }
    );
    expect(outcomes).toEqual([
      { debitedCentimes: PRICE_DZD * 100, balanceCentimes: PRICE_DZD * 100 },
      { debitedCentimes: PRICE_DZD * 100, balanceCentimes: 0 },
      { debitedCentimes: PRICE_DZD * 100, balanceCentimes: PRICE_DZD * 100 },
      { error: { code: "INSUFFICIENT_BALANCE", message: expect.any(String) } },
      { error: { code: "CONFLICT", message: expect.any(String) } }
    ]);
    expect(await balanceOf(auth)).toBe(0);
  });

  test("creates pay through wallet.debitBatch, each parcel once, never through one wallet.debit per create", async () => {
    const auth = await merchant("Rafale SARL", 40 * PRICE_DZD);
    const spy = jest.spyOn(broker, "call");
    try {
      const outcomes = await Promise.all(Array.from({ length: 40 }, (_, i) => create(auth, { ...PARCEL, recipientName: `Rafale ${i}` })));
      expect(outcomes.every(o => o.ok)).toBe(true);
      const actions = spy.mock.calls.map(([action]) => action);
      expect(actions).not.toContain("wallet.debit");
      const debited = spy.mock.calls
        .filter(([action]) => action === "wallet.debitBatch")
        .flatMap(([, params]) => (params as { debits: { parcelId: string }[] }).debits.map(d => d.parcelId));
      expect(debited.sort()).toEqual(outcomes.map(o => o.id).sort());
    } finally {
      spy.mockRestore();
    }
    expect(await balanceOf(auth)).toBe(0);
  }, 60_000);
}

describe("group commit on the create path, PGlite", () =>
  onEngine(async () => ({ env: { DATA_DIR: `memory://group-${randomUUID()}` }, drop: async () => undefined, invariant: () => null })));

describeWithServers(["postgres"], "group commit on the create path, PostgreSQL server", () =>
  onEngine(async () => {
    const database = await createTestDatabase();
    return { env: { DATABASE_URL: database.url, DATABASE_POOL_SIZE: "8" }, drop: database.drop, invariant: () => database.url };
  })
);
