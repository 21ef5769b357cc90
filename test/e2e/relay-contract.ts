import { randomBytes } from "node:crypto";
import { http, HttpResult } from "../helpers/http";
import type { SystemUnderTest } from "./gateway-contract";
import { eventually, expectError, Merchant, merchants, PARCEL } from "./merchant-helpers";

/**
 * Issue 18, the relay side: a relay point's counter app on the relay API with its agent key. The
 * day at the counter (docs/relay-points/guide.md, step by step) runs against every way of starting
 * the system; the rules and races run on both database engines (test/integration/relay-operations).
 */

type Agent = (method: string, path: string, body?: unknown) => Promise<HttpResult>;

export function relayAgent(baseUrl: string, key: string): Agent {
  return (method, path, body) => http(baseUrl, method, `/api/relay/v1${path}`, { headers: { Authorization: `ApiKey ${key}` }, body });
}

export function relayHelpers(system: () => SystemUnderTest) {
  const m = merchants(system);
  const bo = () => m.bo();
  return {
    m,
    bo,
    /** A relay point of its own (a fresh code), with these settings. */
    async relayPoint(
      settings: { capacity?: number; holdingDays?: number | null; commune?: string; wilaya?: string } = {}
    ): Promise<string> {
      const code = `DZ-99-R${randomBytes(4).toString("hex").toUpperCase()}`;
      const res = await bo().call("POST", "/relay-points", { code, name: `Counter ${code}`, city: "Alger", ...settings });
      expect(res.status).toBe(201);
      return code;
    },
    async agentKey(code: string): Promise<{ id: string; key: string }> {
      const res = await bo().call("POST", `/relay-points/${code}/agent-keys`, { name: "counter tablet" });
      expect(res.status).toBe(201);
      return res.body;
    },
    async agent(code: string): Promise<Agent> {
      return relayAgent(system().baseUrl, (await this.agentKey(code)).key);
    },
    /** A live parcel on its way to `code` (IN_TRANSIT). */
    async inTransit(
      merchant: Merchant,
      code: string,
      extra: Record<string, unknown> = {}
    ): Promise<{ id: string; trackingNumber: string }> {
      const res = await merchant.live("POST", "/parcels", { ...PARCEL, destinationRelayCode: code, ...extra });
      expect(res.status).toBe(201);
      await m.move(res.body.id, "READY_FOR_PICKUP", "PICKED_UP", "IN_TRANSIT");
      return res.body;
    },
    async statusOf(merchant: Merchant, id: string): Promise<{ status: string; codStatus: string | null }> {
      return (await merchant.live("GET", `/parcels/${id}`)).body;
    }
  };
}

/** Acceptance 1, the relay side: agent key → incoming list → arrival → hand-over with PIN and exact COD → till → closing 0; a refusal. */
export function dayAtTheCounterContract(system: () => SystemUnderTest): void {
  const h = relayHelpers(system);

  test("a day at the counter: key, incoming, arrival with SMS and PIN, hand-over with the exact cash, till, closing, a refusal", async () => {
    const merchant = await h.m.create("Counter Day SARL", 50_000);
    const code = await h.relayPoint({ capacity: 10 });
    const created = await h.bo().call("POST", `/relay-points/${code}/agent-keys`, { name: "Counter 1" });
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({ relayCode: code, keyPrefix: created.body.key.slice(0, 17), revokedAt: null });
    expect(created.body.key).toMatch(/^rp_agent_[A-Za-z0-9]{40}$/);
    const agent = relayAgent(system().baseUrl, created.body.key);

    const me = await agent("GET", "/me");
    expect(me.status).toBe(200);
    expect(me.body).toEqual({
      relayCode: code,
      name: `Counter ${code}`,
      nameAr: null,
      wilaya: null,
      wilayaName: null,
      wilayaNameAr: null,
      capacity: 10,
      onShelf: 0,
      holdingDays: 7,
      pickupPassKey: expect.stringMatching(/^[A-Za-z0-9+/]{43}=$/)
    });

    const cod = await h.inTransit(merchant, code, { codAmountDzd: 1500 });
    const refused = await h.inTransit(merchant, code, { recipientName: "karim", recipientPhone: "0661 00 00 07" });
    const incoming = await agent("GET", "/parcels?status=IN_TRANSIT");
    expect(incoming.status).toBe(200);
    expect(incoming.body.items.map((p: { trackingNumber: string }) => p.trackingNumber)).toEqual([
      cod.trackingNumber,
      refused.trackingNumber
    ]);
    expect(incoming.body.items[0]).toEqual({
      trackingNumber: cod.trackingNumber,
      status: "IN_TRANSIT",
      weightG: 1200,
      arrivedAt: null,
      pickupDeadline: null,
      codToCollectDzd: 1500,
      recipientHint: "A. ••56",
      passVersion: 1
    });
    expect(incoming.text).not.toContain("Benali");
    expect(incoming.text).not.toContain(merchant.orgId);

    // Scanned in (case does not matter): AT_RELAY, the SMS with the PIN, then RELAY_NOTIFIED.
    const arrival = await agent("POST", "/arrivals", { trackingNumber: cod.trackingNumber.toLowerCase() });
    expect(arrival.status).toBe(200);
    expect(arrival.body).toMatchObject({ trackingNumber: cod.trackingNumber, status: "AT_RELAY", arrivedAt: expect.any(String) });
    const pin = await system().sms.pinOf(cod.trackingNumber);
    expect(
      (
        await eventually(
          () => h.statusOf(merchant, cod.id),
          p => p.status === "RELAY_NOTIFIED"
        )
      ).status
    ).toBe("RELAY_NOTIFIED");
    expect((await agent("POST", "/arrivals", { trackingNumber: refused.trackingNumber })).status).toBe(200);
    expect((await agent("GET", "/me")).body.onShelf).toBe(2);

    // Handed over against the PIN and exactly the COD; the cash is in the till.
    const handover = await agent("POST", "/handovers", { trackingNumber: cod.trackingNumber, pin, codCollectedDzd: 1500 });
    expect(handover.status).toBe(200);
    expect(handover.body).toMatchObject({ status: "DELIVERED", codToCollectDzd: null });
    expect(await h.statusOf(merchant, cod.id)).toMatchObject({ status: "DELIVERED", codStatus: "COLLECTED" });
    const till = await agent("GET", "/cash");
    expect(till.body).toMatchObject({ count: 1, amountDzd: 1500, items: [{ trackingNumber: cod.trackingNumber, amountDzd: 1500 }] });

    // The other is refused: RETURN_PENDING with the reason, waiting on the shelf for the courier.
    const refusal = await agent("POST", "/refusals", { trackingNumber: refused.trackingNumber, reason: "Refusé par le destinataire" });
    expect(refusal.status).toBe(200);
    expect(refusal.body.status).toBe("RETURN_PENDING");
    const events = (await merchant.live("GET", `/parcels/${refused.id}/events`)).body.items;
    expect(events[events.length - 1]).toMatchObject({ status: "RETURN_PENDING", reason: "Refusé par le destinataire", source: "operator" });

    const closing = await agent("POST", "/cash/closings", { countedDzd: 1500 });
    expect(closing.status).toBe(201);
    expect(closing.body).toMatchObject({ expectedDzd: 1500, countedDzd: 1500, differenceDzd: 0, count: 1 });
    expect((await agent("GET", "/cash")).body).toMatchObject({ count: 0, amountDzd: 0, items: [], openSince: closing.body.closedAt });
    const closings = await h.bo().call("GET", `/relay-points/${code}/cash-closings`);
    expect(closings.body).toMatchObject({ totalElements: 1, items: [closing.body] });

    // A refusal charges the return fee: RETURN_FEE_PERCENT (50) % of the price, once, in the ledger.
    const refusedView = (await merchant.live("GET", `/parcels/${refused.id}`)).body;
    expect(refusedView.returnFeeDzd).toBeCloseTo(refusedView.pricePaidDzd / 2, 2);
    const feesOf = async (parcelId: string) =>
      (
        (await merchant.live("GET", "/wallet/entries?size=100")).body.items as {
          type: string;
          parcelId: string | null;
          amountDzd: number;
        }[]
      ).filter(e => e.type === "RETURN_FEE" && e.parcelId === parcelId);
    expect((await feesOf(refused.id)).map(e => Math.abs(e.amountDzd))).toEqual([refusedView.returnFeeDzd]);

    // A third parcel is never collected: its deadline (set on arrival) moved to the past, it goes back
    // on its own — RETURN_PENDING/PICKUP_EXPIRED, its return fee charged, the merchant's event sent.
    const expiring = await h.inTransit(merchant, code);
    const arrived = await agent("POST", "/arrivals", { trackingNumber: expiring.trackingNumber });
    expect(arrived.body.pickupDeadline).toEqual(expect.any(String));
    const moved = await h.bo().call("PUT", `/parcels/${expiring.id}/pickup-deadline`, { pickupDeadline: "2020-01-01T00:00:00Z" });
    expect(moved.status).toBe(200);
    const expired = await eventually(
      () => merchant.live("GET", `/parcels/${expiring.id}`).then(r => r.body),
      p => p.status === "RETURN_PENDING" && p.returnFeeDzd !== null,
      200
    );
    expect(expired).toMatchObject({ status: "RETURN_PENDING", codStatus: null });
    expect(expired.returnFeeDzd).toBeCloseTo(expired.pricePaidDzd / 2, 2);
    const expiredEvents = (await merchant.live("GET", `/parcels/${expiring.id}/events`)).body.items;
    expect(expiredEvents[expiredEvents.length - 1]).toMatchObject({ status: "RETURN_PENDING", reason: "PICKUP_EXPIRED" });
    expect((await feesOf(expiring.id)).map(e => Math.abs(e.amountDzd))).toEqual([expired.returnFeeDzd]);
    const sent = await eventually(
      () => merchant.live("GET", `/events?parcelId=${expiring.id}`).then(r => r.body.items as { data: { parcel: { status: string } } }[]),
      items => items.some(e => e.data.parcel.status === "RETURN_PENDING")
    );
    expect(sent.some(e => e.data.parcel.status === "RETURN_PENDING")).toBe(true);

    // The courier takes the returns: the shelf is empty.
    expect(
      (await agent("POST", "/return-dispatches", { trackingNumbers: [refused.trackingNumber, expiring.trackingNumber] })).body
    ).toEqual({ dispatched: 2 });
    expect((await agent("GET", "/me")).body.onShelf).toBe(0);
  });
}

/** Every rule of the relay API, and its races (run against the real PostgreSQL and PGlite). */
export function relayRulesContract(system: () => SystemUnderTest): void {
  const h = relayHelpers(system);
  let merchant: Merchant;

  beforeAll(async () => {
    merchant = await h.m.create("Relay Rules SARL", 500_000, 5_000);
  });

  test("agent keys: shown once, listed without secrets, a partner key is 401 on the relay API and an agent key on the partner API", async () => {
    const code = await h.relayPoint();
    const { id, key } = await h.agentKey(code);
    const listed = await h.bo().call("GET", `/relay-points/${code}/agent-keys`);
    expect(listed.body.map((k: { id: string }) => k.id)).toEqual([id]);
    expect(listed.text).not.toContain(key);
    expectError(await h.bo().call("POST", "/relay-points/DZ-99-NOWHERE-X/agent-keys", {}), 404, "RELAY_POINT_NOT_FOUND");

    const partnerKey = (await h.bo().createKey(merchant.orgId)).key;
    expectError(await relayAgent(system().baseUrl, partnerKey)("GET", "/me"), 401, "UNAUTHENTICATED");
    const onPartner = await http(system().baseUrl, "GET", "/api/partner/v1/health", { headers: { Authorization: `ApiKey ${key}` } });
    expectError(onPartner, 401, "UNAUTHENTICATED");
    const viaHeader = await http(system().baseUrl, "GET", "/api/relay/v1/me", { headers: { "X-API-Key": key } });
    expect(viaHeader.status).toBe(200);
    expect(viaHeader.headers.get("x-ratelimit-limit")).toBe("120");
    expectError(await http(system().baseUrl, "GET", "/api/relay/v1/me"), 401, "UNAUTHENTICATED");
  });

  test("a revoked agent key stops at once", async () => {
    const code = await h.relayPoint();
    const { id, key } = await h.agentKey(code);
    const agent = relayAgent(system().baseUrl, key);
    expect((await agent("GET", "/me")).status).toBe(200);
    expect((await h.bo().call("DELETE", `/relay-points/${code}/agent-keys/${id}`)).status).toBe(204);
    expectError(await agent("GET", "/me"), 401, "UNAUTHENTICATED");
    expectError(
      await h.bo().call("DELETE", `/relay-points/${code}/agent-keys/${"0".repeat(8)}-0000-4000-8000-${"0".repeat(12)}`),
      404,
      "AGENT_KEY_NOT_FOUND"
    );
  });

  test("/me names the point's wilaya in both scripts: Bou Saâda (68), whatever number its code carries", async () => {
    const own = await h.relayPoint({ commune: "2820" });
    expect((await (await h.agent(own))("GET", "/me")).body).toMatchObject({
      relayCode: own,
      wilaya: "68",
      wilayaName: "Bou Saâda",
      wilayaNameAr: "بوسعادة"
    });
  });

  test("capacity and holding days: in the back-office body and list, the partner search and /me", async () => {
    const own = await h.relayPoint({ capacity: 3, holdingDays: 4 });
    const listed = (await h.bo().call("GET", "/relay-points")).body.find((p: { code: string }) => p.code === own);
    expect(listed).toMatchObject({ capacity: 3, holdingDays: 4 });
    const found = await merchant.live("GET", `/relay-points?q=${own}`);
    expect(found.body.items).toEqual([expect.objectContaining({ code: own, capacity: 3, holdingDays: 4 })]);
    expect((await (await h.agent(own))("GET", "/me")).body).toMatchObject({ capacity: 3, holdingDays: 4, onShelf: 0 });
    const shipped = (await merchant.live("GET", "/relay-points?q=DZ-16-ALGER-CENTRE")).body.items[0];
    expect(shipped).toMatchObject({ capacity: 150, holdingDays: 7 });
    expectError(
      await h.bo().call("POST", "/relay-points", { code: own, name: "x", city: "Alger", capacity: -1 }),
      400,
      "VALIDATION_FAILED",
      "capacity"
    );
  });

  test("arrivals: unknown 404, another relay's 409 WRONG_RELAY, not in transit 409 INVALID_TRANSITION; a re-scan is one too, and sends nothing twice", async () => {
    const here = await h.relayPoint();
    const elsewhere = await h.relayPoint();
    const agent = await h.agent(here);
    expectError(await agent("POST", "/arrivals", { trackingNumber: "RP000000000DZ" }), 404, "PARCEL_NOT_FOUND");
    expectError(await agent("POST", "/arrivals", {}), 400, "VALIDATION_FAILED", "trackingNumber");
    const theirs = await h.inTransit(merchant, elsewhere);
    expectError(await agent("POST", "/arrivals", { trackingNumber: theirs.trackingNumber }), 409, "WRONG_RELAY");
    const early = (await merchant.live("POST", "/parcels", { ...PARCEL, destinationRelayCode: here })).body;
    expectError(await agent("POST", "/arrivals", { trackingNumber: early.trackingNumber }), 409, "INVALID_TRANSITION");
    const sandbox = (await merchant.sandbox("POST", "/parcels", { ...PARCEL, destinationRelayCode: here })).body;
    expectError(await agent("POST", "/arrivals", { trackingNumber: sandbox.trackingNumber }), 404, "PARCEL_NOT_FOUND");

    const parcel = await h.inTransit(merchant, here);
    const first = await agent("POST", "/arrivals", { trackingNumber: parcel.trackingNumber });
    expect(first.status).toBe(200);
    await system().sms.pinOf(parcel.trackingNumber);
    await eventually(
      () => h.statusOf(merchant, parcel.id),
      p => p.status === "RELAY_NOTIFIED"
    );
    // Issue 43: a second scan is said to be one (the docs promise INVALID_TRANSITION); a lost answer's retry, with its key, gets the first.
    const again = await agent("POST", "/arrivals", { trackingNumber: ` ${parcel.trackingNumber.toLowerCase()} ` });
    expectError(again, 409, "INVALID_TRANSITION");
    expect(again.body.message).toContain("already on this shelf");
    const statuses = (await merchant.live("GET", `/parcels/${parcel.id}/events`)).body.items.map((e: { status: string }) => e.status);
    expect(statuses.filter((s: string) => s === "AT_RELAY" || s === "RELAY_NOTIFIED")).toEqual(["AT_RELAY", "RELAY_NOTIFIED"]);
    expect(system().sms.messagesFor(parcel.trackingNumber)).toHaveLength(1);
  });

  test("an agent sees and acts on its own relay point's parcels only", async () => {
    const mine = await h.relayPoint();
    const other = await h.relayPoint();
    const [agent, stranger] = [await h.agent(mine), await h.agent(other)];
    const parcel = await h.inTransit(merchant, mine);
    expect((await agent("POST", "/arrivals", { trackingNumber: parcel.trackingNumber })).status).toBe(200);
    const pin = await system().sms.pinOf(parcel.trackingNumber);
    expect((await stranger("GET", "/parcels")).body.totalElements).toBe(0);
    expect((await agent("GET", "/parcels")).body.items.map((p: { trackingNumber: string }) => p.trackingNumber)).toEqual([
      parcel.trackingNumber
    ]);
    expectError(await stranger("POST", "/handovers", { trackingNumber: parcel.trackingNumber, pin }), 404, "PARCEL_NOT_FOUND");
    expectError(await stranger("POST", "/refusals", { trackingNumber: parcel.trackingNumber, reason: "x" }), 404, "PARCEL_NOT_FOUND");
    expectError(await stranger("POST", "/return-dispatches", { trackingNumbers: [parcel.trackingNumber] }), 409, "RETURN_NOT_DISPATCHABLE");
    expect((await h.statusOf(merchant, parcel.id)).status).not.toBe("DELIVERED");
  });

  test("hand-over: the exact COD checked before the PIN (a mismatch changes nothing), then the PIN rules of the back-office", async () => {
    const code = await h.relayPoint();
    const agent = await h.agent(code);
    const parcel = await h.inTransit(merchant, code, { codAmountDzd: 2499.99 });
    await agent("POST", "/arrivals", { trackingNumber: parcel.trackingNumber });
    const pin = await system().sms.pinOf(parcel.trackingNumber);
    const wrong = pin === "000000" ? "111111" : "000000";
    const hand = (body: Record<string, unknown>) => agent("POST", "/handovers", { trackingNumber: parcel.trackingNumber, ...body });

    expectError(await hand({ pin }), 422, "COD_AMOUNT_MISMATCH", "codCollectedDzd");
    expectError(await hand({ pin, codCollectedDzd: 2499.98 }), 422, "COD_AMOUNT_MISMATCH");
    for (let i = 0; i < 6; i++) expectError(await hand({ pin: wrong, codCollectedDzd: 2500 }), 422, "COD_AMOUNT_MISMATCH");
    expect((await h.statusOf(merchant, parcel.id)).codStatus).toBe("PENDING");
    expect((await agent("GET", "/cash")).body.count).toBe(0);

    expectError(await hand({ codCollectedDzd: 2499.99 }), 400, "PIN_REQUIRED", "pin");
    const incorrect = await hand({ pin: wrong, codCollectedDzd: 2499.99 });
    expectError(incorrect, 409, "PIN_INCORRECT");
    // The six mismatches above counted no wrong PIN: four tries are left after this first one.
    expect(incorrect.body.message).toContain("4 attempts left");
    for (let i = 0; i < 3; i++) expectError(await hand({ pin: wrong, codCollectedDzd: 2499.99 }), 409, "PIN_INCORRECT");
    expectError(await hand({ pin: wrong, codCollectedDzd: 2499.99 }), 423, "PIN_LOCKED");
    expectError(await hand({ pin, codCollectedDzd: 2499.99 }), 423, "PIN_LOCKED");
    expect((await h.bo().call("POST", `/parcels/${parcel.id}/pickup-pin/reset`)).status).toBe(200);
    const newPin = await system().sms.pinOf(parcel.trackingNumber, 2);
    const done = await hand({ pin: newPin, codCollectedDzd: 2499.99 });
    expect(done.status).toBe(200);
    expect(done.text).not.toContain(newPin);
    expect(await h.statusOf(merchant, parcel.id)).toMatchObject({ status: "DELIVERED", codStatus: "COLLECTED" });
    expect((await agent("GET", "/cash")).body).toMatchObject({ count: 1, amountDzd: 2499.99 });
    expectError(await hand({ pin: newPin, codCollectedDzd: 2499.99 }), 409, "INVALID_TRANSITION");

    // Without COD: no cash, or 0; anything else is a mismatch.
    const plain = await h.inTransit(merchant, code);
    await agent("POST", "/arrivals", { trackingNumber: plain.trackingNumber });
    const plainPin = await system().sms.pinOf(plain.trackingNumber);
    expectError(
      await agent("POST", "/handovers", { trackingNumber: plain.trackingNumber, pin: plainPin, codCollectedDzd: 10 }),
      422,
      "COD_AMOUNT_MISMATCH"
    );
    expect((await agent("POST", "/handovers", { trackingNumber: plain.trackingNumber, pin: plainPin, codCollectedDzd: 0 })).status).toBe(
      200
    );
    expect((await agent("GET", "/cash")).body.count).toBe(1);
  });

  test("a refusal: RETURN_PENDING with its reason, COD NOT_COLLECTED; only from the shelf", async () => {
    const code = await h.relayPoint();
    const agent = await h.agent(code);
    const parcel = await h.inTransit(merchant, code, { codAmountDzd: 800 });
    expectError(await agent("POST", "/refusals", { trackingNumber: parcel.trackingNumber, reason: "x" }), 409, "INVALID_TRANSITION");
    await agent("POST", "/arrivals", { trackingNumber: parcel.trackingNumber });
    expectError(await agent("POST", "/refusals", { trackingNumber: parcel.trackingNumber }), 400, "VALIDATION_FAILED", "reason");
    const res = await agent("POST", "/refusals", { trackingNumber: parcel.trackingNumber, reason: "Ne veut plus du colis" });
    expect(res.body).toMatchObject({ status: "RETURN_PENDING", codToCollectDzd: null });
    expect(await h.statusOf(merchant, parcel.id)).toMatchObject({ status: "RETURN_PENDING", codStatus: "NOT_COLLECTED" });
    expect(
      (await agent("GET", "/parcels?status=RETURN_PENDING")).body.items.map((p: { trackingNumber: string }) => p.trackingNumber)
    ).toEqual([parcel.trackingNumber]);
  });

  test("return dispatches are all or nothing, the bad numbers named; the shelf empties", async () => {
    const code = await h.relayPoint();
    const agent = await h.agent(code);
    const returns = [await h.inTransit(merchant, code), await h.inTransit(merchant, code)];
    const staying = await h.inTransit(merchant, code);
    for (const p of [...returns, staying])
      expect((await agent("POST", "/arrivals", { trackingNumber: p.trackingNumber })).status).toBe(200);
    for (const p of returns) await agent("POST", "/refusals", { trackingNumber: p.trackingNumber, reason: "refusé" });
    expect((await agent("GET", "/me")).body.onShelf).toBe(3);

    const bad = await agent("POST", "/return-dispatches", {
      trackingNumbers: [returns[0].trackingNumber, returns[1].trackingNumber, staying.trackingNumber, "RP999999999DZ"]
    });
    expectError(bad, 409, "RETURN_NOT_DISPATCHABLE");
    expect(bad.body.details.map((d: { field: string }) => d.field)).toEqual(["trackingNumbers.2", "trackingNumbers.3"]);
    expect((await agent("GET", "/me")).body.onShelf).toBe(3);
    expect((await agent("GET", "/parcels?status=RETURN_PENDING")).body.totalElements).toBe(2);

    const ok = await agent("POST", "/return-dispatches", { trackingNumbers: returns.map(p => p.trackingNumber.toLowerCase()) });
    expect(ok.body).toEqual({ dispatched: 2 });
    expect((await agent("GET", "/me")).body.onShelf).toBe(1);
    expect((await agent("GET", "/parcels?status=RETURN_PENDING")).body.totalElements).toBe(0);
    expect((await agent("POST", "/return-dispatches", { trackingNumbers: [returns[0].trackingNumber] })).body).toEqual({ dispatched: 1 });
  });

  test("concurrent arrivals on a shelf with one place left: one wins, the other is 409 RELAY_FULL", async () => {
    for (let round = 0; round < 3; round++) {
      const code = await h.relayPoint({ capacity: 2 });
      const agent = await h.agent(code);
      const first = await h.inTransit(merchant, code);
      expect((await agent("POST", "/arrivals", { trackingNumber: first.trackingNumber })).status).toBe(200);
      const racing = [await h.inTransit(merchant, code), await h.inTransit(merchant, code)];
      const answers = await Promise.all(racing.map(p => agent("POST", "/arrivals", { trackingNumber: p.trackingNumber })));
      expect(answers.map(a => a.status).sort()).toEqual([200, 409]);
      expectError(
        answers.find(a => a.status === 409)!,
        409,
        "RELAY_FULL"
      );
      expect((await agent("GET", "/me")).body).toMatchObject({ onShelf: 2, capacity: 2 });
    }
  });

  test("concurrent closings never count a hand-over twice, even with hand-overs under way", async () => {
    const code = await h.relayPoint();
    const agent = await h.agent(code);
    const amounts = [1000, 250.5, 99.99, 1234.56];
    const ready: Array<{ trackingNumber: string; pin: string; amount: number }> = [];
    for (const amount of amounts) {
      const parcel = await h.inTransit(merchant, code, { codAmountDzd: amount });
      await agent("POST", "/arrivals", { trackingNumber: parcel.trackingNumber });
      ready.push({ trackingNumber: parcel.trackingNumber, pin: await system().sms.pinOf(parcel.trackingNumber), amount });
    }
    const [early, late] = [ready.slice(0, 2), ready.slice(2)];
    for (const p of early) await agent("POST", "/handovers", { trackingNumber: p.trackingNumber, pin: p.pin, codCollectedDzd: p.amount });
    const results = await Promise.all([
      agent("POST", "/cash/closings", { countedDzd: 0 }),
      ...late.map(p => agent("POST", "/handovers", { trackingNumber: p.trackingNumber, pin: p.pin, codCollectedDzd: p.amount })),
      agent("POST", "/cash/closings", { countedDzd: 0 }),
      agent("POST", "/cash/closings", { countedDzd: 0 })
    ]);
    expect(results.map(r => r.status).sort()).toEqual([200, 200, 201, 201, 201]);
    const last = await agent("POST", "/cash/closings", { countedDzd: 0 });
    const closings = [...results.filter(r => r.status === 201), last].map(r => r.body);
    const cents = (dzd: number) => Math.round(dzd * 100);
    expect(closings.reduce((sum, c) => sum + c.count, 0)).toBe(amounts.length);
    expect(closings.reduce((sum, c) => sum + cents(c.expectedDzd), 0)).toBe(amounts.reduce((sum, a) => sum + cents(a), 0));
    for (const c of closings) expect(cents(c.differenceDzd) + cents(c.expectedDzd)).toBe(0);
    const listed = await h.bo().call("GET", `/relay-points/${code}/cash-closings?size=100`);
    expect(listed.body.totalElements).toBe(closings.length);
    expect((await agent("GET", "/cash")).body).toMatchObject({ count: 0, amountDzd: 0 });
  });
}
