import { randomUUID } from "node:crypto";
import type { Database } from "../../lib/db/database";
import { migrateSchema } from "../../lib/db/migrate";
import { openPglite } from "../../lib/db/pglite";
import { openPostgres } from "../../lib/db/postgres";
import { errorCodeOf } from "../../lib/errors";
import * as custody from "../../services/parcels/cash/cash-custody";
import { checkCashInvariant } from "../../services/parcels/cash/cash-invariant.store";
import * as cash from "../../services/parcels/cash/cash.store";
import { approveProposal, proposalsOf } from "../../services/parcels/cash/remittance-proposals";
import { toParcelView } from "../../services/parcels/parcel-view";
import { ParcelRow, toParcel } from "../../services/parcels/parcels.store";
import { createRemittance } from "../../services/parcels/remittance";
import { closeTill } from "../../services/parcels/relay/till";
import { createTestDatabase } from "../helpers/postgres";
import { availableServers } from "../helpers/servers";

/**
 * Issue 45 B, acceptance 3: every dinar from the till's closing to the merchant's remittance, and
 * the cash invariant (services/parcels/cash/cash-invariant.store.ts) after each step; on PostgreSQL, with
 * collections, confirmations, deposits and remittances sent at once.
 */

const ORG_A = randomUUID();
const ORG_B = randomUUID();
const HUB = randomUUID();
const OTHER_HUB = randomUUID();
let trackingSerial = 100_000_000;

const silentLogger = { warn: () => undefined, info: () => undefined } as never;
const noWallet = { call: () => Promise.reject(new Error("no wallet in this test")) } as never;
const deps = (db: Database) => ({ db, logger: silentLogger, caller: noWallet });

const courier = (hubId = HUB): custody.CourierActor => ({ keyId: randomUUID(), courierId: randomUUID(), hubId });
const agentOf = (relayCode: string) => ({ keyId: randomUUID(), keyPrefix: "rp_agent_test", relayCode });

async function relay(db: Database): Promise<string> {
  const code = `DZ-CASH-${randomUUID().slice(0, 8).toUpperCase()}`;
  await db.query("INSERT INTO parcels.relay_points (code, name, city) VALUES ($1, 'Cash test', 'Alger')", [code]);
  return code;
}

/** A COD parcel handed over at the counter: in the till, its COD COLLECTED. */
async function handedOver(db: Database, relayCode: string, organizationId: string, codDzd: number, tender = "cash"): Promise<string> {
  const id = randomUUID();
  await db.query(
    `INSERT INTO parcels.parcels (id, organization_id, mode, tracking_number, status, destination_relay_code, recipient_name_enc,
       recipient_phone_enc, weight_g, price_centimes, cod_amount_centimes, cod_status)
     VALUES ($1, $2, 'live', $3, 'DELIVERED', $4, 'x', 'x', 500, 50000, $5, 'COLLECTED')`,
    [id, organizationId, `RP${trackingSerial++}DZ`, relayCode, codDzd * 100]
  );
  await db.query("INSERT INTO parcels.relay_cash_items (parcel_id, relay_code, amount_centimes, tender) VALUES ($1, $2, $3, $4)", [
    id,
    relayCode,
    codDzd * 100,
    tender
  ]);
  return id;
}

/** Where the merchant reads its parcel's cash is, as the parcel view says it. */
async function cashAt(db: Database, parcelId: string) {
  const [row] = await db.query<ParcelRow>("SELECT * FROM parcels.parcels WHERE id = $1", [parcelId]);
  return toParcelView(toParcel(row), null).codCashAt;
}

async function expectClean(db: Database) {
  const { violations, totals } = await checkCashInvariant(db);
  expect(violations).toEqual([]);
  return totals;
}

async function refusal(promise: Promise<unknown>): Promise<string | undefined> {
  try {
    await promise;
    return undefined;
  } catch (err) {
    return errorCodeOf(err) ?? (err as Error).message;
  }
}

function chainOnOneConnection(open: () => Promise<{ db: Database; close: () => Promise<void> }>) {
  let db: Database;
  let close: () => Promise<void>;
  beforeAll(async () => {
    ({ db, close } = await open());
    await migrateSchema(db, "parcels");
  });
  afterAll(() => close());

  test("a relay's cash goes from the closing to the courier, the hub and the merchant, one count at a time", async () => {
    const [r1, r2] = [await relay(db), await relay(db)];
    const a1 = await handedOver(db, r1, ORG_A, 2500);
    const a2 = await handedOver(db, r1, ORG_A, 1200.5);
    const b1 = await handedOver(db, r2, ORG_B, 3000);
    const card = await handedOver(db, r2, ORG_A, 800, "card");
    expect(await cashAt(db, a1)).toBe("COUNTER");
    expect(await cashAt(db, card)).toBe("CARRIER");
    await closeTill(db, agentOf(r1), { countedDzd: 3700.5, denominations: null });
    // The agent of r2 finds 100 DZD less than the books at closing.
    await closeTill(db, agentOf(r2), { countedDzd: 2900, denominations: null });
    await expectClean(db);

    const c = courier();
    const atR1 = await custody.uncollected(db, r1);
    expect(atR1.map(k => k.expectedCentimes)).toEqual([370050]);
    const collection = await custody.recordCollection(db, c, {
      id: custody.handOffIdOf(c.keyId, "collection", "k1"),
      relayCode: r1,
      denominations: { "2000": 1, "1000": 1, "500": 1, "200": 1 },
      closingIds: null,
      occurredAt: new Date()
    });
    // 3 700 in notes for 3 700.50 in the books: a difference once the agent confirms.
    expect(collection.courierCountedCentimes).toBe(370000);
    // Until the agent confirms, the cash is the counter's.
    expect(await cash.aboardCentimes(db, c.courierId)).toBe(0);
    expect(await cashAt(db, a1)).toBe("COUNTER");
    expect((await custody.uncollected(db, r1))[0].pendingCollectionId).toBe(collection.id);
    // The same Idempotency-Key again: the same collection, nothing taken twice.
    const again = await custody.recordCollection(db, c, {
      id: custody.handOffIdOf(c.keyId, "collection", "k1"),
      relayCode: r1,
      denominations: { "2000": 1 },
      closingIds: null,
      occurredAt: new Date()
    });
    expect(again.id).toBe(collection.id);
    expect(
      await refusal(
        custody.recordCollection(db, c, { ...again, id: randomUUID(), relayCode: r1, denominations: { "5": 1 }, closingIds: null })
      )
    ).toBe("NOTHING_TO_COLLECT");
    expect(await refusal(custody.confirmCollection(db, agentOf(r2), collection.id, { "2000": 1 }))).toBe("CASH_HAND_OFF_NOT_FOUND");

    const confirmed = await custody.confirmCollection(db, agentOf(r1), collection.id, { "2000": 1, "1000": 1, "500": 1, "200": 1 });
    expect(confirmed.confirmedAt).not.toBeNull();
    expect(await custody.uncollected(db, r1)).toEqual([]);
    expect(await cash.aboardCentimes(db, c.courierId)).toBe(370050);
    expect([await cashAt(db, a1), await cashAt(db, a2), await cashAt(db, b1)]).toEqual(["COURIER", "COURIER", "COUNTER"]);

    // r2: a collection the agent will not confirm is cancelled; its closing waits for the next one.
    const abandoned = await custody.recordCollection(db, c, {
      id: randomUUID(),
      relayCode: r2,
      denominations: { "1000": 1 },
      closingIds: null,
      occurredAt: new Date()
    });
    expect(await refusal(custody.cancelCollection(db, { relayCode: r1 }, abandoned.id))).toBe("CASH_HAND_OFF_NOT_FOUND");
    expect((await custody.cancelCollection(db, { relayCode: r2 }, abandoned.id)).cancelledAt).not.toBeNull();
    expect(await refusal(custody.confirmCollection(db, agentOf(r2), abandoned.id, { "1000": 1 }))).toBe("CONFLICT");
    // A confirmed collection's cash has left: no cancelling it.
    expect(await refusal(custody.cancelCollection(db, { relayCode: r1 }, confirmed.id))).toBe("CONFLICT");
    expect((await custody.uncollected(db, r2)).map(k => k.pendingCollectionId)).toEqual([null]);
    await expectClean(db);

    // r2: the courier finds the closing's count, the agent 50 DZD more: recorded with who counted what.
    const atR2 = await custody.recordCollection(db, c, {
      id: randomUUID(),
      relayCode: r2,
      denominations: { "2000": 1, "500": 1, "200": 2 },
      closingIds: (await custody.uncollected(db, r2)).map(k => k.id),
      occurredAt: new Date()
    });
    await custody.confirmCollection(db, agentOf(r2), atR2.id, { "2000": 1, "500": 1, "200": 2, "50": 1 });
    const { records } = await cash.listDifferences(db, 0, 10);
    const atR2Difference = records.find(d => d.handOffId === atR2.id)!;
    expect(atR2Difference).toMatchObject({ stage: "COLLECTION", relayCode: r2, expectedCentimes: 300000, previousCountCentimes: 290000 });
    expect(atR2Difference.counts.map(x => [x.by, x.centimes])).toEqual([
      ["courier", 290000],
      ["agent", 295000]
    ]);
    expect(records.some(d => d.handOffId === collection.id)).toBe(true);
    await expectClean(db);

    const deposit = await custody.recordDeposit(db, c, {
      id: randomUUID(),
      denominations: { "2000": 3, "1000": 1, "500": 2, "200": 3 },
      occurredAt: new Date()
    });
    expect(deposit.collectionIds.sort()).toEqual([collection.id, atR2.id].sort());
    // Aboard until the hub confirms; another hub does not see it.
    expect(await cash.aboardCentimes(db, c.courierId)).toBe(670050);
    expect(await refusal(custody.confirmDeposit(db, { keyId: randomUUID(), hubId: OTHER_HUB }, deposit.id, { "2000": 1 }))).toBe(
      "CASH_HAND_OFF_NOT_FOUND"
    );
    expect(await proposalsOf(db, ORG_A)).toEqual([]);
    await custody.confirmDeposit(db, { keyId: randomUUID(), hubId: HUB }, deposit.id, { "2000": 3, "1000": 1, "500": 2, "200": 3 });
    expect(await cash.aboardCentimes(db, c.courierId)).toBe(0);
    expect([await cashAt(db, a1), await cashAt(db, b1)]).toEqual(["CARRIER", "CARRIER"]);
    expect(await refusal(custody.recordDeposit(db, c, { id: randomUUID(), denominations: { "5": 1 }, occurredAt: new Date() }))).toBe(
      "NOTHING_TO_DEPOSIT"
    );
    const totals = await expectClean(db);
    expect(totals.depositedCentimes).toBe(totals.awaitingRemittanceCentimes);

    // Proposed per parcel from the deposit; the card payment is not cash a hub counted.
    const [proposal] = await proposalsOf(db, ORG_A);
    expect(proposal.parcels.map(p => p.parcelId).sort()).toEqual([a1, a2].sort());
    expect(proposal.totalCentimes).toBe(370050);
    const remittance = await approveProposal(deps(db), {
      organizationId: ORG_A,
      proposalId: proposal.id,
      reference: "VIR-1",
      paidOn: null
    });
    expect(remittance.totalCentimes).toBe(370050);
    expect([await cashAt(db, a1), await cashAt(db, b1)]).toEqual(["PAID", "CARRIER"]);
    expect(
      await refusal(approveProposal(deps(db), { organizationId: ORG_A, proposalId: proposal.id, reference: "VIR-2", paidOn: null }))
    ).toBe("REMITTANCE_PROPOSAL_NOT_FOUND");
    // Organisation B's proposal is B's only.
    expect((await proposalsOf(db, ORG_B)).flatMap(p => p.parcels.map(x => x.parcelId))).toEqual([b1]);
    const after = await expectClean(db);
    expect(after.remittedCentimes).toBeGreaterThanOrEqual(370050);

    // One centime off in a deposit's books is named, and the sums no longer close.
    await db.query("UPDATE parcels.cash_deposits SET expected_centimes = expected_centimes + 1 WHERE id = $1", [deposit.id]);
    const { violations } = await checkCashInvariant(db);
    expect(violations).toEqual([
      expect.stringContaining(`deposit ${deposit.id} carries 670051`),
      "collected = deposited + aboard: 670050 ≠ 670051",
      "deposited = remitted + awaiting: 670051 ≠ 670050"
    ]);
    await db.query("UPDATE parcels.cash_deposits SET expected_centimes = expected_centimes - 1 WHERE id = $1", [deposit.id]);
  });

  test("closings counted by denomination: a CLOSING difference when short, the relay points' cash in one read for a run", async () => {
    const [r1, r2, empty] = [await relay(db), await relay(db), await relay(db)];
    await handedOver(db, r1, ORG_A, 2500);
    await handedOver(db, r2, ORG_B, 1000);
    const short = await closeTill(db, agentOf(r1), { countedDzd: null, denominations: { "2000": 1, "200": 2 } });
    expect(short).toMatchObject({ expectedDzd: 2500, countedDzd: 2400, differenceDzd: -100, denominations: { "2000": 1, "200": 2 } });
    const right = await closeTill(db, agentOf(r2), { countedDzd: 1000, denominations: { "500": 2 } });
    expect(right.differenceDzd).toBe(0);
    // A total beside the notes must be their sum; a count is a total or notes.
    expect(await refusal(closeTill(db, agentOf(r2), { countedDzd: 10, denominations: { "5": 1 } }))).toBe("VALIDATION_FAILED");
    expect(await refusal(closeTill(db, agentOf(r2), { countedDzd: null, denominations: null }))).toBe("VALIDATION_FAILED");
    const differences = (await cash.listDifferences(db, 0, 100)).records.filter(d => [short.id, right.id].includes(d.handOffId));
    expect(differences).toEqual([
      expect.objectContaining({
        stage: "CLOSING",
        relayCode: r1,
        hubId: null,
        courierId: null,
        expectedCentimes: 250000,
        counts: [expect.objectContaining({ by: "agent", centimes: 240000, denominations: { "2000": 1, "200": 2 } })]
      })
    ]);
    expect(await custody.cashAtRelays(db, [r2, empty, r1])).toEqual(
      [
        { relayCode: r1, countedCentimes: 240000, denominations: { "2000": 1, "200": 2 } },
        { relayCode: r2, countedCentimes: 100000, denominations: { "500": 2 } }
      ].sort((a, b) => a.relayCode.localeCompare(b.relayCode))
    );
    await expectClean(db);
  });
}

describe("cash custody on PGlite", () => {
  chainOnOneConnection(async () => {
    const db = await openPglite(`memory://${randomUUID()}`);
    return { db, close: () => db.close() };
  });
});

/** PostgreSQL when it answers (under CI=true, availableServers fails the run when it does not), as testEngines does. */
const onPostgres = (name: string, body: () => void) => {
  if (availableServers().has("postgres")) describe(name, body);
};

onPostgres("cash custody on PostgreSQL", () => {
  chainOnOneConnection(async () => {
    const test = await createTestDatabase();
    const db = openPostgres(test.url, 8);
    return { db, close: async () => (await db.close(), await test.drop()) };
  });
});

onPostgres("cash custody on PostgreSQL, everything at once", () => {
  let db: Database;
  let drop: () => Promise<void>;
  beforeAll(async () => {
    const test = await createTestDatabase();
    drop = test.drop;
    db = openPostgres(test.url, 8);
    await migrateSchema(db, "parcels");
  });
  afterAll(async () => {
    await db.close();
    await drop();
  });

  test("concurrent collections, confirmations, deposits and remittances keep the invariant and pay each parcel once", async () => {
    const relays = await Promise.all([1, 2, 3, 4, 5, 6].map(() => relay(db)));
    const parcelIds: string[] = [];
    for (const [i, code] of relays.entries()) {
      parcelIds.push(
        await handedOver(db, code, ORG_A, 1000 + i),
        await handedOver(db, code, ORG_B, 2000 + i),
        await handedOver(db, code, ORG_A, 333.33)
      );
    }
    // Closings and new hand-overs at once: each hand-over in one closing or still in the till.
    await Promise.all(
      relays.flatMap(code => [closeTill(db, agentOf(code), { countedDzd: 0, denominations: null }), handedOver(db, code, ORG_A, 10)])
    );
    await expectClean(db);

    // Two couriers at every relay at once, one sending its request twice with one key.
    const [c1, c2] = [courier(), courier()];
    const attempts = await Promise.allSettled(
      relays.flatMap(code => [
        custody.recordCollection(db, c1, {
          id: custody.handOffIdOf(c1.keyId, "collection", code),
          relayCode: code,
          denominations: { "1000": 3 },
          closingIds: null,
          occurredAt: new Date()
        }),
        custody.recordCollection(db, c1, {
          id: custody.handOffIdOf(c1.keyId, "collection", code),
          relayCode: code,
          denominations: { "1000": 3 },
          closingIds: null,
          occurredAt: new Date()
        }),
        custody.recordCollection(db, c2, {
          id: randomUUID(),
          relayCode: code,
          denominations: { "2000": 1 },
          closingIds: null,
          occurredAt: new Date()
        })
      ])
    );
    const refused = attempts.flatMap(a => (a.status === "rejected" ? [errorCodeOf(a.reason) ?? String(a.reason)] : []));
    expect(new Set(refused)).toEqual(new Set(refused.length > 0 ? ["NOTHING_TO_COLLECT"] : []));
    const collections = [...new Map(attempts.flatMap(a => (a.status === "fulfilled" ? [[a.value.id, a.value] as const] : []))).values()];
    // One collection per relay, whoever won it, each closing taken once.
    expect(collections.map(c => c.relayCode).sort()).toEqual([...relays].sort());

    // Agents confirm (one twice, at once, with different counts: the first count stays) while couriers try to deposit.
    const confirmations = collections.flatMap(c => [
      custody.confirmCollection(db, agentOf(c.relayCode), c.id, { "1000": 3 }),
      custody.confirmCollection(db, agentOf(c.relayCode), c.id, { "500": 1 })
    ]);
    const earlyDeposits = [c1, c2].map(c =>
      custody.recordDeposit(db, c, { id: randomUUID(), denominations: { "1000": 1 }, occurredAt: new Date() })
    );
    await Promise.allSettled([...confirmations, ...earlyDeposits]);
    const differenceRows = await db.query<{ n: string }>(
      "SELECT count(*) AS n FROM parcels.cash_differences GROUP BY hand_off_id HAVING count(*) > 1"
    );
    expect(differenceRows).toEqual([]);
    await expectClean(db);

    // Every courier hands in what is left, twice at once with two keys: one deposit takes each collection.
    await Promise.allSettled(
      [c1, c2].flatMap(c =>
        [1, 2].map(() => custody.recordDeposit(db, c, { id: randomUUID(), denominations: { "1000": 9 }, occurredAt: new Date() }))
      )
    );
    const deposits = await db.query<{ id: string }>("SELECT id FROM parcels.cash_deposits");
    await Promise.all(
      deposits.flatMap(d => [1, 2].map(() => custody.confirmDeposit(db, { keyId: randomUUID(), hubId: HUB }, d.id, { "1000": 9 })))
    );
    expect(await cash.aboardCentimes(db, c1.courierId)).toBe(0);
    expect(await cash.aboardCentimes(db, c2.courierId)).toBe(0);
    const beforeRemittance = await expectClean(db);
    expect(beforeRemittance.collectedCentimes).toBe(beforeRemittance.depositedCentimes);

    // Each proposal approved twice at once, and an operator's typed remittance of everything collected at the same time.
    const proposals = [...(await proposalsOf(db, ORG_A)), ...(await proposalsOf(db, ORG_B))];
    expect(proposals.length).toBeGreaterThan(0);
    const results = await Promise.allSettled([
      ...proposals.flatMap(p =>
        [1, 2].map(n =>
          approveProposal(deps(db), { organizationId: p.organizationId, proposalId: p.id, reference: `P-${n}`, paidOn: null })
        )
      ),
      createRemittance(deps(db), { organizationId: ORG_A, mode: "live", parcelIds: null, reference: "TYPED", paidOn: null })
    ]);
    for (const r of results) {
      if (r.status === "rejected")
        expect(["COD_NOT_REMITTABLE", "NOTHING_TO_REMIT", "REMITTANCE_PROPOSAL_NOT_FOUND"]).toContain(errorCodeOf(r.reason));
    }
    const deposited = proposals.flatMap(p => p.parcels.map(x => x.parcelId));
    const paid = await db.query<{ parcel_id: string; n: string }>(
      "SELECT parcel_id, count(*) AS n FROM parcels.cod_remittance_parcels WHERE parcel_id = ANY($1::uuid[]) GROUP BY parcel_id",
      [deposited]
    );
    // Organisation B had no typed remittance: each of its deposited parcels paid once, by its proposal.
    expect(paid.filter(p => p.n !== "1")).toEqual([]);
    expect(paid.map(p => p.parcel_id).sort()).toEqual([...deposited].sort());
    const totals = await expectClean(db);
    expect(totals.awaitingRemittanceCentimes).toBe(0);
    expect(parcelIds.length).toBe(18);
  });
});
