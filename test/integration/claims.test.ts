import { randomBytes, randomUUID } from "node:crypto";
import path from "node:path";
import { acquireDatabase, releaseDatabase } from "../../lib/db/connection";
import type { Database } from "../../lib/db/database";
import { relayAgent } from "../e2e/relay-contract";
import { eventually, expectError, Merchant, merchants, PARCEL } from "../e2e/merchant-helpers";
import type { HttpResult } from "../helpers/http";
import { EngineDatabase, inProcessSystem } from "../helpers/in-process-system";
import { checkMoneyInvariant } from "../helpers/money-invariant";
import { createTestDatabase } from "../helpers/postgres";
import { ROOT, startProcess } from "../helpers/processes";
import { describeWithServers } from "../helpers/servers";

/**
 * Issue 22, claims, on each database engine: the whole system in this process, driven over HTTP
 * as merchants, operators and a relay point's counter do (every answer checked against the
 * OpenAPI document). The database is reached directly only to age a parcel's history (a parcel
 * silent for 10 days, a hand-over 8 days ago) and, on the PostgreSQL server, for the money invariant.
 */

function onEngine(databaseEnv: () => Promise<EngineDatabase>): void {
  // The holding passes this suite checks run when it calls them: the loop's own 2 s timer could
  // credit a claim the test has just flagged, between the flag and the pass it asks for.
  const sut = inProcessSystem(async () => {
    const engine = await databaseEnv();
    return { ...engine, env: { ...engine.env, HOLDING_INTERVAL_MS: "60000" } };
  });
  const m = merchants(sut.system);
  let db: Database;
  let merchant: Merchant;

  beforeAll(async () => {
    db = await acquireDatabase(sut.config());
    merchant = await m.create("Claims SARL", 200_000, 100_000);
  }, 60_000);

  afterAll(async () => {
    await releaseDatabase(sut.config());
  });

  const bo = () => m.bo();
  const claim = (who: Merchant["live"], parcelId: string, body: object) => who("POST", `/parcels/${parcelId}/claims`, body);
  const decide = (claimId: string, body: object) => bo().call("POST", `/claims/${claimId}/decision`, body);
  /** Moves a parcel's whole history `days` into the past, as if nothing had happened since. */
  const age = (parcelId: string, days: number) =>
    db.query("UPDATE parcels.status_history SET created_at = created_at - make_interval(days => $2::int) WHERE parcel_id = $1", [
      parcelId,
      days
    ]);
  const create = async (who: Merchant["live"], extra: object = {}) => {
    const res = await who("POST", "/parcels", { ...PARCEL, ...extra });
    expect(res.status).toBe(201);
    return res.body as { id: string; trackingNumber: string; pricePaidDzd: number; insuredValueDzd: number };
  };
  const sandboxTo = async (parcelId: string, ...statuses: string[]) => {
    for (const toStatus of statuses) {
      expect((await merchant.sandbox("POST", `/sandbox/parcels/${parcelId}/trigger-event`, { toStatus })).status).toBe(202);
    }
  };
  const compensations = async (who: Merchant["live"]) =>
    ((await who("GET", "/wallet/entries?size=100")).body.items as { type: string; amountDzd: number; claimId: string | null }[]).filter(
      e => e.type === "CLAIM_COMPENSATION"
    );
  const eventsOf = async (who: Merchant["live"], parcelId: string, until: (types: string[]) => boolean) =>
    await eventually(
      async () =>
        (await who("GET", `/events?parcelId=${parcelId}&limit=100`)).body.items as { type: string; data: any; reason: string | null }[],
      items => until(items.map(e => e.type))
    );

  test("refused as damaged at the relay → claim with the network's evidence → approved → wallet credited once with compensation + price", async () => {
    const code = `DZ-99-C${randomBytes(4).toString("hex").toUpperCase()}`;
    expect((await bo().call("POST", "/relay-points", { code, name: `Counter ${code}`, city: "Alger" })).status).toBe(201);
    const agent = relayAgent(
      sut.system().baseUrl,
      (await bo().call("POST", `/relay-points/${code}/agent-keys`, { name: "tablet" })).body.key
    );
    const parcel = await create(merchant.live, { destinationRelayCode: code, declaredValueDzd: 20_000 });
    await m.move(parcel.id, "READY_FOR_PICKUP", "PICKED_UP", "IN_TRANSIT");
    expect((await agent("POST", "/arrivals", { trackingNumber: parcel.trackingNumber })).status).toBe(200);
    const refusal = await agent("POST", "/refusals", { trackingNumber: parcel.trackingNumber, reason: "Colis endommagé, refusé" });
    expect(refusal.status).toBe(200);

    const opened = await claim(merchant.live, parcel.id, { type: "DAMAGED", description: "Écran cassé", amountClaimedDzd: 12_000 });
    expect(opened.status).toBe(201);
    expect(opened.headers.get("location")).toBe(`${sut.system().baseUrl}/api/partner/v1/claims/${opened.body.id}`);
    expect(opened.body).toMatchObject({
      parcelId: parcel.id,
      trackingNumber: parcel.trackingNumber,
      type: "DAMAGED",
      status: "OPEN",
      amountClaimedDzd: 12_000,
      maxCompensationDzd: 20_000,
      decidedAt: null,
      compensationDzd: null,
      paidDzd: null
    });
    const evidence = opened.body.evidence;
    expect(evidence).toMatchObject({
      refusal: { reason: "Colis endommagé, refusé", relayCode: code },
      handover: null,
      declaredValueDzd: 20_000,
      insurancePaidDzd: 150, // 1 % of the 15,000 DZD above the free allowance
      pricePaidDzd: parcel.pricePaidDzd,
      lastScan: { status: "RETURN_PENDING", relayCode: code, ageHours: 0 }
    });
    expect(evidence.statusHistory.map((s: { status: string }) => s.status)).toEqual([
      "CREATED",
      "READY_FOR_PICKUP",
      "PICKED_UP",
      "IN_TRANSIT",
      "AT_RELAY",
      ...(evidence.statusHistory.some((s: { status: string }) => s.status === "RELAY_NOTIFIED") ? ["RELAY_NOTIFIED"] : []),
      "RETURN_PENDING"
    ]);
    expect(evidence.statusHistory[0]).toMatchObject({ by: "merchant", relayCode: null });
    expect(evidence.statusHistory.find((s: { status: string }) => s.status === "AT_RELAY")).toMatchObject({
      by: "operator",
      relayCode: code
    });

    expect((await merchant.live("GET", `/claims/${opened.body.id}`)).body).toEqual(opened.body);
    expect((await merchant.live("GET", "/claims?status=OPEN")).body.items.map((c: { id: string }) => c.id)).toContain(opened.body.id);
    expect((await bo().call("GET", "/claims?status=OPEN")).body.items.map((c: { id: string }) => c.id)).toContain(opened.body.id);

    const balanceBefore = (await merchant.live("GET", "/wallet")).body.balanceDzd;
    const approved = await decide(opened.body.id, { approved: true, compensationDzd: 10_000, note: "Refus constaté au comptoir" });
    expect(approved.status).toBe(200);
    expect(approved.body).toMatchObject({
      status: "APPROVED",
      compensationDzd: 10_000,
      note: "Refus constaté au comptoir",
      paidDzd: 10_000 + parcel.pricePaidDzd,
      decidedAt: expect.any(String)
    });
    expectError(await decide(opened.body.id, { approved: false, note: "again" }), 409, "CLAIM_ALREADY_DECIDED");
    expect(await compensations(merchant.live)).toEqual([
      expect.objectContaining({ amountDzd: 10_000 + parcel.pricePaidDzd, claimId: opened.body.id })
    ]);
    expect((await merchant.live("GET", "/wallet")).body.balanceDzd).toBeCloseTo(balanceBefore + 10_000 + parcel.pricePaidDzd, 2);

    const events = await eventsOf(merchant.live, parcel.id, types => types.includes("claim.approved"));
    const claimEvents = events.filter(e => e.type.startsWith("claim."));
    expect(claimEvents.map(e => e.type)).toEqual(["claim.opened", "claim.approved"]);
    expect(claimEvents[1]).toMatchObject({
      reason: "Refus constaté au comptoir",
      data: { claim: { id: opened.body.id, status: "APPROVED" } }
    });
    expect(claimEvents[1].data.parcel.id).toBe(parcel.id);

    // Compensated once: no second claim of the parcel.
    expectError(
      await claim(merchant.live, parcel.id, { type: "MISSING_CONTENT", description: "x", amountClaimedDzd: 1 }),
      409,
      "CLAIM_NOT_ALLOWED"
    );
  });

  test("declared 10,000,000: quote, parcel and claim evidence insure 150,000 (the claim cap) and price insurance on it; the return fee is half the shipping price", async () => {
    const fields = { declaredValueDzd: 10_000_000, codAmountDzd: 3000 };
    const quote = await merchant.sandbox("POST", "/parcels/quote", { ...PARCEL, ...fields });
    expect(quote.status).toBe(200);
    const shipping = (quote.body.breakdown as { item: string; amountDzd: number }[]).find(i => i.item === "shipping")!.amountDzd;
    // (150,000 − 5,000 free) × 1 % = 1,450 DZD, where the whole 10 M declared used to cost 99,950.
    expect(quote.body.breakdown).toContainEqual({ item: "insurance", amountDzd: 1450 });
    expect(quote.body).toMatchObject({ insuredValueDzd: 150_000, returnFeeDzd: shipping / 2 });
    expect(quote.body.priceDzd).toBeGreaterThan(shipping + 1450); // the COD fee too, which the return fee leaves out

    const parcel = await create(merchant.sandbox, fields);
    expect(parcel).toMatchObject({ pricePaidDzd: quote.body.priceDzd, insuredValueDzd: 150_000 });
    await sandboxTo(parcel.id, "READY_FOR_PICKUP", "PICKED_UP", "DAMAGED");
    expectError(
      await claim(merchant.sandbox, parcel.id, { type: "DAMAGED", description: "Écrasé", amountClaimedDzd: 150_000.01 }),
      400,
      "VALIDATION_FAILED"
    );
    const opened = await claim(merchant.sandbox, parcel.id, { type: "DAMAGED", description: "Écrasé", amountClaimedDzd: 150_000 });
    expect(opened.status).toBe(201);
    expect(opened.body).toMatchObject({ maxCompensationDzd: 150_000 });
    expect(opened.body.evidence).toMatchObject({
      declaredValueDzd: 10_000_000,
      insuredValueDzd: 150_000,
      insurancePaidDzd: 1450,
      pricePaidDzd: parcel.pricePaidDzd
    });
  });

  test("LOST: refused while the parcel moved recently (the reason says when); after LOST_AFTER_DAYS silent, approval moves it to LOST", async () => {
    const parcel = await create(merchant.live);
    await m.move(parcel.id, "READY_FOR_PICKUP", "PICKED_UP", "IN_TRANSIT");
    const early = await claim(merchant.live, parcel.id, { type: "LOST", description: "Jamais arrivé", amountClaimedDzd: 3000 });
    expectError(early, 409, "CLAIM_NOT_ALLOWED");
    expect(early.body.message).toContain("10 days");
    expectError(
      await claim(merchant.live, parcel.id, { type: "DAMAGED", description: "x", amountClaimedDzd: 10 }),
      409,
      "CLAIM_NOT_ALLOWED"
    );

    await age(parcel.id, 11);
    const opened = await claim(merchant.live, parcel.id, { type: "LOST", description: "Jamais arrivé", amountClaimedDzd: 3000 });
    expect(opened.status).toBe(201);
    expect(opened.body.maxCompensationDzd).toBe(5000); // nothing declared: the free allowance
    expect(opened.body.evidence.lastScan).toMatchObject({ status: "IN_TRANSIT", relayCode: null });
    expect(opened.body.evidence.lastScan.ageHours).toBeGreaterThanOrEqual(11 * 24);
    const approved = await decide(opened.body.id, { approved: true, note: "Introuvable au dépôt" });
    expect(approved.body).toMatchObject({ status: "APPROVED", compensationDzd: 3000, paidDzd: 3000 + parcel.pricePaidDzd });
    expect((await merchant.live("GET", `/parcels/${parcel.id}`)).body.status).toBe("LOST");
    const types = (await eventsOf(merchant.live, parcel.id, t => t.includes("claim.approved"))).map(e => e.type);
    expect(types.slice(-2)).toEqual(["parcel.lost", "claim.approved"]);

    // A parcel already LOST is claimable at once.
    const lost = await create(merchant.live);
    await m.move(lost.id, "READY_FOR_PICKUP", "PICKED_UP", "LOST");
    expect((await claim(merchant.live, lost.id, { type: "LOST", description: "Perdu", amountClaimedDzd: 100 })).status).toBe(201);
  });

  test("DAMAGED / MISSING_CONTENT: a DAMAGED parcel, or delivered at most 7 days ago; not later, nor before the hand-over", async () => {
    const damaged = await create(merchant.sandbox);
    await sandboxTo(damaged.id, "READY_FOR_PICKUP", "PICKED_UP", "DAMAGED");
    expect((await claim(merchant.sandbox, damaged.id, { type: "DAMAGED", description: "Écrasé", amountClaimedDzd: 500 })).status).toBe(201);

    const created = await create(merchant.sandbox);
    expectError(
      await claim(merchant.sandbox, created.id, { type: "MISSING_CONTENT", description: "x", amountClaimedDzd: 1 }),
      409,
      "CLAIM_NOT_ALLOWED"
    );

    const delivered = await create(merchant.sandbox);
    await sandboxTo(delivered.id, "AT_RELAY", "DELIVERED");
    await age(delivered.id, 6);
    const recent = await claim(merchant.sandbox, delivered.id, {
      type: "MISSING_CONTENT",
      description: "Boîte vide",
      amountClaimedDzd: 800
    });
    expect(recent.status).toBe(201);
    expect(recent.body.evidence.handover).toMatchObject({ relayCode: PARCEL.destinationRelayCode, codCollectedDzd: null });

    const old = await create(merchant.sandbox);
    await sandboxTo(old.id, "AT_RELAY", "DELIVERED");
    await age(old.id, 8);
    const late = await claim(merchant.sandbox, old.id, { type: "DAMAGED", description: "x", amountClaimedDzd: 1 });
    expectError(late, 409, "CLAIM_NOT_ALLOWED");
    expect(late.body.message).toContain("7 days");
  });

  test("one open claim per parcel (two at once: one opens); a rejection lets another be opened; bad decisions are 400/404", async () => {
    const parcel = await create(merchant.sandbox);
    await sandboxTo(parcel.id, "READY_FOR_PICKUP", "PICKED_UP", "DAMAGED");
    const body = { type: "DAMAGED", description: "Cassé", amountClaimedDzd: 1000 };
    const racing = await Promise.all(Array.from({ length: 6 }, () => claim(merchant.sandbox, parcel.id, body)));
    expect(racing.filter(r => r.status === 201)).toHaveLength(1);
    for (const res of racing.filter(r => r.status !== 201)) expectError(res, 409, "CLAIM_ALREADY_OPEN");
    const open = racing.find(r => r.status === 201)!.body;

    expectError(await decide(open.id, { approved: false, compensationDzd: 5, note: "non" }), 400, "VALIDATION_FAILED", "compensationDzd");
    expectError(await decide(open.id, { approved: true, note: "" }), 400, "VALIDATION_FAILED", "note");
    expectError(await decide(randomUUID(), { approved: true, note: "oui" }), 404, "CLAIM_NOT_FOUND");
    const rejected = await decide(open.id, { approved: false, note: "Emballage insuffisant" });
    expect(rejected.body).toMatchObject({ status: "REJECTED", compensationDzd: null, paidDzd: null, note: "Emballage insuffisant" });
    expect((await merchant.sandbox("GET", "/claims?status=REJECTED")).body.items.map((c: { id: string }) => c.id)).toContain(open.id);
    expect((await claim(merchant.sandbox, parcel.id, body)).status).toBe(201);
    const types = (await eventsOf(merchant.sandbox, parcel.id, t => t.filter(x => x === "claim.opened").length === 2)).map(e => e.type);
    expect(types.filter(t => t.startsWith("claim."))).toEqual(["claim.opened", "claim.rejected", "claim.opened"]);
  });

  test("the cap: the declared value, at most CLAIM_CAP_DZD (150,000); more claimed or granted is 400", async () => {
    const rich = await create(merchant.sandbox, { declaredValueDzd: 400_000 });
    await sandboxTo(rich.id, "READY_FOR_PICKUP", "PICKED_UP", "DAMAGED");
    const over = await claim(merchant.sandbox, rich.id, { type: "DAMAGED", description: "x", amountClaimedDzd: 150_000.01 });
    expectError(over, 400, "VALIDATION_FAILED", "amountClaimedDzd");
    const opened = await claim(merchant.sandbox, rich.id, { type: "DAMAGED", description: "x", amountClaimedDzd: 150_000 });
    expect(opened.body.maxCompensationDzd).toBe(150_000);
    expectError(
      await decide(opened.body.id, { approved: true, compensationDzd: 150_001, note: "x" }),
      400,
      "VALIDATION_FAILED",
      "compensationDzd"
    );

    const plain = await create(merchant.sandbox);
    await sandboxTo(plain.id, "READY_FOR_PICKUP", "PICKED_UP", "DAMAGED");
    expectError(
      await claim(merchant.sandbox, plain.id, { type: "DAMAGED", description: "x", amountClaimedDzd: 5000.5 }),
      400,
      "VALIDATION_FAILED",
      "amountClaimedDzd"
    );
    for (const bad of [{ type: "STOLEN" }, { amountClaimedDzd: 0 }, { description: "" }]) {
      const res = await claim(merchant.sandbox, plain.id, { type: "DAMAGED", description: "x", amountClaimedDzd: 10, ...bad });
      expectError(res, 400, "VALIDATION_FAILED", Object.keys(bad)[0]);
    }
  });

  test("across organisations and modes: 404; a sandbox claim is paid from the sandbox wallet only, and concurrent decisions pay once", async () => {
    const other = await m.create("Other SARL", 10_000);
    const parcel = await create(merchant.sandbox);
    await sandboxTo(parcel.id, "READY_FOR_PICKUP", "PICKED_UP", "DAMAGED");
    const body = { type: "DAMAGED", description: "x", amountClaimedDzd: 700 };
    expectError(await claim(other.sandbox, parcel.id, body), 404, "PARCEL_NOT_FOUND");
    expectError(await claim(merchant.live, parcel.id, body), 404, "PARCEL_NOT_FOUND");
    const opened = await claim(merchant.sandbox, parcel.id, body);
    expect(opened.status).toBe(201);
    expectError(await other.sandbox("GET", `/claims/${opened.body.id}`), 404, "CLAIM_NOT_FOUND");
    expectError(await merchant.live("GET", `/claims/${opened.body.id}`), 404, "CLAIM_NOT_FOUND");
    expect((await other.sandbox("GET", "/claims")).body.totalElements).toBe(0);
    expect((await merchant.live("GET", "/claims?size=100")).body.items.map((c: { id: string }) => c.id)).not.toContain(opened.body.id);

    const liveBefore = await compensations(merchant.live);
    const decisions: HttpResult[] = await Promise.all(
      Array.from({ length: 8 }, (_, i) => decide(opened.body.id, { approved: true, compensationDzd: 700 - i, note: `decision ${i}` }))
    );
    expect(decisions.filter(d => d.status === 200)).toHaveLength(1);
    for (const d of decisions.filter(d => d.status !== 200)) expectError(d, 409, "CLAIM_ALREADY_DECIDED");
    const winner = decisions.find(d => d.status === 200)!.body;
    const paid = (await compensations(merchant.sandbox)).filter(e => e.claimId === opened.body.id);
    expect(paid).toEqual([expect.objectContaining({ amountDzd: winner.compensationDzd + parcel.pricePaidDzd })]);
    expect(winner.paidDzd).toBe(paid[0].amountDzd);
    expect(await compensations(merchant.live)).toEqual(liveBefore);
  });

  test("the back-office CLI lists the claims to decide, approves one and rejects another (dist/bin/backoffice.js)", async () => {
    const cli = async (...args: string[]) => {
      const run = startProcess(process.execPath, [path.join(ROOT, "dist", "bin", "backoffice.js"), ...args], {
        BACKOFFICE_URL: sut.system().baseUrl,
        BACKOFFICE_TOKEN: sut.system().backofficeToken
      });
      await new Promise(resolve => run.child.once("exit", resolve));
      expect({ args, code: run.child.exitCode }).toEqual({ args, code: 0 });
      return JSON.parse(run.output());
    };
    const opened: { id: string }[] = [];
    for (let i = 0; i < 2; i++) {
      const parcel = await create(merchant.sandbox);
      await sandboxTo(parcel.id, "READY_FOR_PICKUP", "PICKED_UP", "DAMAGED");
      opened.push((await claim(merchant.sandbox, parcel.id, { type: "DAMAGED", description: "CLI", amountClaimedDzd: 300 })).body);
    }
    const queue = await cli("claim:list", "--status", "OPEN", "--size", "100");
    expect(queue.items.map((c: { id: string }) => c.id)).toEqual(expect.arrayContaining(opened.map(c => c.id)));
    expect(await cli("claim:approve", opened[0].id, "Vu", "au", "comptoir", "--compensation", "250")).toMatchObject({
      status: "APPROVED",
      compensationDzd: 250,
      note: "Vu au comptoir"
    });
    expect(await cli("claim:reject", opened[1].id, "Hors délai")).toMatchObject({ status: "REJECTED", note: "Hors délai" });
  }, 60_000);

  test("a credit the wallet did not acknowledge is asked again by the holding pass, and paid once", async () => {
    const parcel = await create(merchant.sandbox);
    await sandboxTo(parcel.id, "READY_FOR_PICKUP", "PICKED_UP", "DAMAGED");
    const opened = (await claim(merchant.sandbox, parcel.id, { type: "DAMAGED", description: "x", amountClaimedDzd: 90 })).body;
    const approved = (await decide(opened.id, { approved: true, note: "ok" })).body;
    // As if the wallet's answer had been lost: the claim is flagged again, though the wallet credited it.
    await db.query("UPDATE parcels.claims SET credit_pending = true, paid_centimes = NULL WHERE id = $1", [opened.id]);
    expect((await merchant.sandbox("GET", `/claims/${opened.id}`)).body.paidDzd).toBeNull();
    const pass = await sut.broker().call<{ claimsCredited: number }, object>("parcels.runHoldingPass", {});
    expect(pass.claimsCredited).toBeGreaterThanOrEqual(1);
    expect((await merchant.sandbox("GET", `/claims/${opened.id}`)).body.paidDzd).toBe(approved.paidDzd);
    expect((await compensations(merchant.sandbox)).filter(e => e.claimId === opened.id)).toHaveLength(1);
  });

  test("the money invariant holds with claim compensations (PostgreSQL server)", async () => {
    // The holding pass retries any credit the wallet did not acknowledge; none is left behind.
    expect((await db.query<{ n: number }>("SELECT count(*)::int AS n FROM parcels.claims WHERE credit_pending"))[0].n).toBe(0);
    const url = sut.databaseUrl();
    if (url === null) return;
    const report = await checkMoneyInvariant(url);
    expect(report.violations).toEqual([]);
    expect(report.claimCompensations).toBeGreaterThanOrEqual(1);
  });
}

describe("claims on PGlite", () =>
  onEngine(async () => ({ env: { DATA_DIR: `memory://claims-${randomUUID()}` }, drop: async () => undefined })));

describeWithServers(["postgres"], "claims on the PostgreSQL server", () =>
  onEngine(async () => {
    const database = await createTestDatabase();
    return { env: { DATABASE_URL: database.url, DATABASE_POOL_SIZE: "8" }, url: database.url, drop: database.drop };
  })
);
