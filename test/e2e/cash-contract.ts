import { randomUUID } from "node:crypto";
import type { SystemUnderTest } from "./gateway-contract";
import { http } from "../helpers/http";
import { eventually, expectError, Merchant } from "./merchant-helpers";
import { relayHelpers } from "./relay-contract";

/**
 * Issue 45 B through the APIs only: a relay's cash closed, collected by a courier and confirmed by
 * the agent, handed in at the hub and confirmed there (with a difference the operator sees), then
 * remitted from a proposal; the merchant reads where its cash is at each step (`codCashAt`).
 */
export function cashContract(system: () => SystemUnderTest): void {
  const h = relayHelpers(system);
  const staffApi =
    (api: "courier" | "hub", key: string) =>
    (method: string, path: string, body?: unknown, headers: Record<string, string> = {}) =>
      http(system().baseUrl, method, `/api/${api}/v1${path}`, { headers: { Authorization: `ApiKey ${key}`, ...headers }, body });

  /** A hub with a courier, and a staff key for each. */
  async function hubAndCourier() {
    const bo = h.bo();
    const hub = await bo.call("POST", "/hubs", {
      code: `HUB-16-${randomUUID().slice(0, 6).toUpperCase()}`,
      wilaya: "16",
      name: "Tri",
      address: "ZI"
    });
    const courier = await bo.call("POST", "/couriers", {
      firstName: "Amine",
      lastName: "Saidi",
      phone: "+213 661 23 45 68",
      homeHubId: hub.body.id
    });
    const courierKey = await bo.call("POST", "/staff-keys", { role: "courier", subjectId: courier.body.id, name: "phone" });
    const hubKey = await bo.call("POST", "/staff-keys", { role: "hub", subjectId: hub.body.id, name: "cash desk" });
    expect([hub.status, courier.status, courierKey.status, hubKey.status]).toEqual([201, 201, 201, 201]);
    return {
      hubId: hub.body.id as string,
      courierApi: staffApi("courier", courierKey.body.key),
      hubApi: staffApi("hub", hubKey.body.key),
      courierOnHubApi: staffApi("hub", courierKey.body.key)
    };
  }

  /** A COD parcel handed over at the counter against its PIN and its cash. */
  async function delivered(merchant: Merchant, code: string, agent: Awaited<ReturnType<typeof h.agent>>, codAmountDzd: number) {
    const parcel = await h.inTransit(merchant, code, { codAmountDzd });
    expect((await agent("POST", "/arrivals", { trackingNumber: parcel.trackingNumber })).status).toBe(200);
    const pin = await system().sms.pinOf(parcel.trackingNumber);
    await eventually(
      () => h.statusOf(merchant, parcel.id),
      p => p.status === "RELAY_NOTIFIED"
    );
    const handover = await agent("POST", "/handovers", { trackingNumber: parcel.trackingNumber, pin, codCollectedDzd: codAmountDzd });
    expect(handover.status).toBe(200);
    return parcel.id;
  }

  test("a relay's cash: closed, collected and confirmed, handed in and confirmed with a difference, remitted from a proposal", async () => {
    const merchant = await h.m.create(`Cash ${randomUUID().slice(0, 8)}`, 50_000);
    // In wilaya 16, the couriers' hubs': a courier collects only in its hub's wilaya (decision 0066).
    const code = await h.relayPoint({ wilaya: "16" });
    const agent = await h.agent(code);
    const otherAgent = await h.agent(await h.relayPoint({ wilaya: "16" }));
    const { courierApi, hubApi, courierOnHubApi } = await hubAndCourier();
    const other = await hubAndCourier();
    const ids = [await delivered(merchant, code, agent, 1500), await delivered(merchant, code, agent, 2500)];
    const cashAt = async () => Promise.all(ids.map(async id => (await merchant.live("GET", `/parcels/${id}`)).body.codCashAt));
    expect(await cashAt()).toEqual(["COUNTER", "COUNTER"]);

    expect((await agent("POST", "/cash/closings", { countedDzd: 4000 })).status).toBe(201);
    // Oran's relay point is not in the area of Algiers' couriers, whatever it holds; an unknown one is not found.
    const oran = await h.relayPoint({ wilaya: "31" });
    expect((await (await h.agent(oran))("POST", "/cash/closings", { countedDzd: 0 })).status).toBe(201);
    expectError(
      await courierApi("POST", `/relays/${oran}/cash-collections`, { denominations: { "500": 1 } }),
      403,
      "RELAY_OUTSIDE_COURIER_AREA"
    );
    expectError(
      await courierApi("POST", "/relays/DZ-16-NOWHERE-X/cash-collections", { denominations: { "500": 1 } }),
      404,
      "RELAY_POINT_NOT_FOUND"
    );
    const uncollected = await agent("GET", "/cash/uncollected");
    expect(uncollected.status).toBe(200);
    expect(uncollected.body).toMatchObject({ countedDzd: 4000, expectedDzd: 4000, pendingCollections: [] });

    // A collection the agent will not confirm is cancelled: the closing waits for the next one.
    const abandoned = await courierApi("POST", `/relays/${code}/cash-collections`, { denominations: { "500": 1 } });
    expect(abandoned.status).toBe(201);
    const cancelled = await agent("POST", `/cash/collections/${abandoned.body.id}/cancel`);
    expect(cancelled.status).toBe(200);
    expect(cancelled.body).toMatchObject({ status: "CANCELLED", closingIds: [] });

    // The same Idempotency-Key twice at once: one collection. Until the agent confirms, the cash is the counter's.
    const key = randomUUID();
    const [first, second] = await Promise.all(
      [1, 2].map(() => courierApi("POST", `/relays/${code}/cash-collections`, { denominations: { "2000": 2 } }, { "Idempotency-Key": key }))
    );
    expect([first.status, second.status]).toEqual([201, 201]);
    expect(second.body.id).toBe(first.body.id);
    expect(first.body).toMatchObject({
      relayCode: code,
      expectedDzd: 4000,
      status: "AT_COUNTER",
      counts: [{ by: "courier", countedDzd: 4000 }]
    });
    expect((await agent("GET", "/cash/uncollected")).body.pendingCollections.map((c: { id: string }) => c.id)).toEqual([first.body.id]);
    expect((await courierApi("GET", "/cash")).body).toEqual({ aboardDzd: 0 });
    expectError(await courierApi("POST", `/relays/${code}/cash-collections`, { denominations: { "2000": 2 } }), 409, "NOTHING_TO_COLLECT");
    expectError(await courierApi("POST", `/relays/${code}/cash-collections`, { denominations: { "3": 1 } }), 400, "VALIDATION_FAILED");
    // Another counter does not see it; another courier does not read it.
    expectError(
      await otherAgent("POST", `/cash/collections/${first.body.id}/confirm`, { denominations: { "2000": 2 } }),
      404,
      "CASH_HAND_OFF_NOT_FOUND"
    );
    expectError(await other.courierApi("GET", `/cash-collections/${first.body.id}`), 404, "CASH_HAND_OFF_NOT_FOUND");

    const confirmed = await agent("POST", `/cash/collections/${first.body.id}/confirm`, { denominations: { "2000": 1, "1000": 2 } });
    expect(confirmed.status).toBe(200);
    expect(confirmed.body).toMatchObject({ status: "COLLECTED", counts: [{ by: "courier" }, { by: "agent", countedDzd: 4000 }] });
    expect((await agent("GET", "/cash/uncollected")).body).toMatchObject({ countedDzd: 0, closings: [] });
    expect((await courierApi("GET", "/cash")).body).toEqual({ aboardDzd: 4000 });
    expect(await cashAt()).toEqual(["COURIER", "COURIER"]);

    // At the hub: aboard until the hub confirms; the hub counts 1 000 less, recorded with who counted what.
    const deposit = await courierApi("POST", "/cash-deposits", { denominations: { "2000": 2 } }, { "Idempotency-Key": randomUUID() });
    expect(deposit.status).toBe(201);
    expect(deposit.body).toMatchObject({ status: "ABOARD", expectedDzd: 4000, collectionIds: [first.body.id] });
    expect((await courierApi("GET", "/cash")).body).toEqual({ aboardDzd: 4000 });
    // The hub lists what waits for its count (newest first, paged); another hub never sees it, a courier's key is no hub's.
    const waiting = await hubApi("GET", "/cash-deposits?page=0&size=20");
    expect(waiting.status).toBe(200);
    expect(waiting.body).toMatchObject({ page: 0, size: 20, totalElements: 1, totalPages: 1 });
    expect(waiting.body.items).toEqual([
      expect.objectContaining({
        id: deposit.body.id,
        courierId: deposit.body.courierId,
        status: "ABOARD",
        expectedDzd: 4000,
        occurredAt: deposit.body.occurredAt,
        counts: [expect.objectContaining({ by: "courier", countedDzd: 4000, denominations: { "2000": 2 } })]
      })
    ]);
    expect((await other.hubApi("GET", "/cash-deposits")).body).toMatchObject({ items: [], totalElements: 0 });
    expectError(await courierOnHubApi("GET", "/cash-deposits"), 401, "UNAUTHENTICATED");
    expectError(await hubApi("GET", "/cash-deposits?size=0"), 400, "VALIDATION_FAILED", "size");
    expectError(
      await other.hubApi("POST", `/cash-deposits/${deposit.body.id}/confirm`, { denominations: {} }),
      404,
      "CASH_HAND_OFF_NOT_FOUND"
    );
    const atHub = await hubApi("POST", `/cash-deposits/${deposit.body.id}/confirm`, { denominations: { "2000": 1, "1000": 1 } });
    expect(atHub.status).toBe(200);
    expect(atHub.body.status).toBe("DEPOSITED");
    expect((await hubApi("GET", "/cash-deposits")).body).toMatchObject({ items: [], totalElements: 0 });
    expect((await courierApi("GET", "/cash")).body).toEqual({ aboardDzd: 0 });
    expect(await cashAt()).toEqual(["CARRIER", "CARRIER"]);
    const differences = await h.bo().call("GET", "/cash/differences?size=100");
    expect(differences.status).toBe(200);
    expect(differences.body.items.find((d: { handOffId: string }) => d.handOffId === deposit.body.id)).toMatchObject({
      stage: "DEPOSIT",
      expectedDzd: 4000,
      previousCountDzd: 4000,
      counts: [
        { by: "courier", countedDzd: 4000, denominations: { "2000": 2 } },
        { by: "hub", countedDzd: 3000, denominations: { "2000": 1, "1000": 1 } }
      ]
    });

    // Proposed from the hub's cash, per parcel; approved without an amount; paid once.
    const proposals = await h.bo().call("GET", `/organizations/${merchant.orgId}/cod/remittance-proposals`);
    expect(proposals.status).toBe(200);
    expect(proposals.body.items).toHaveLength(1);
    expect(proposals.body.items[0]).toMatchObject({ mode: "live", depositId: deposit.body.id, parcelCount: 2, totalDzd: 4000 });
    const approve = (reference: string) =>
      h.bo().call("POST", `/organizations/${merchant.orgId}/cod/remittance-proposals/${proposals.body.items[0].id}/approve`, { reference });
    const remitted = await approve("VIR-CASH-1");
    expect(remitted.status).toBe(201);
    expect(remitted.body).toMatchObject({ parcelCount: 2, totalDzd: 4000, reference: "VIR-CASH-1" });
    expectError(await approve("VIR-CASH-2"), 404, "REMITTANCE_PROPOSAL_NOT_FOUND");
    expect(await cashAt()).toEqual(["PAID", "PAID"]);
    expect((await merchant.live("GET", `/parcels/${ids[0]}`)).body.codStatus).toBe("REMITTED");

    // The additive webhooks, one per parcel and hand-off, in the parcel's sequence between cod.collected and cod.remitted.
    type Item = { type: string; sequence: number; data: { previousCodStatus: string; parcel: { id: string; codCashAt: string } } };
    const feedOf = async (type: string) =>
      (
        await eventually(
          () => merchant.live("GET", `/events?type=${type}&size=100`),
          r => r.body.items?.length === 2
        )
      ).body.items as Item[];
    const courierEvents = await feedOf("cod.cash_collected_by_courier");
    const depositEvents = await feedOf("cod.cash_deposited");
    const remittedEvents = await feedOf("cod.remitted");
    expect(courierEvents.map(e => [e.data.parcel.id, e.data.previousCodStatus, e.data.parcel.codCashAt]).sort()).toEqual(
      ids.map(id => [id, "COLLECTED", "COURIER"]).sort()
    );
    expect(depositEvents.map(e => [e.data.parcel.id, e.data.parcel.codCashAt]).sort()).toEqual(ids.map(id => [id, "CARRIER"]).sort());
    for (const id of ids) {
      const sequenceOf = (events: Item[]) => events.find(e => e.data.parcel.id === id)!.sequence;
      expect(sequenceOf(depositEvents)).toBe(sequenceOf(courierEvents) + 1);
      expect(sequenceOf(remittedEvents)).toBe(sequenceOf(depositEvents) + 1);
    }
  });

  test("a closing counted by denomination: kept with the closing, summed for the courier, a difference recorded with who counted what", async () => {
    const merchant = await h.m.create(`Cash ${randomUUID().slice(0, 8)}`, 50_000);
    const code = await h.relayPoint();
    const agent = await h.agent(code);
    await delivered(merchant, code, agent, 2500);

    // Bad counts are refused; a count that is not the books never is.
    expectError(await agent("POST", "/cash/closings", {}), 400, "VALIDATION_FAILED");
    expectError(await agent("POST", "/cash/closings", { denominations: { "3": 1 } }), 400, "VALIDATION_FAILED");
    const disagreeing = await agent("POST", "/cash/closings", { countedDzd: 2500, denominations: { "2000": 1 } });
    expectError(disagreeing, 400, "VALIDATION_FAILED");
    expect(disagreeing.body.details).toEqual([expect.objectContaining({ field: "countedDzd" })]);

    // 2 450 in the drawer for 2 500 in the books: closed as counted, and a CLOSING difference.
    const closing = await agent("POST", "/cash/closings", { denominations: { "2000": 1, "200": 2, "50": 1 } });
    expect(closing.status).toBe(201);
    expect(closing.body).toMatchObject({
      expectedDzd: 2500,
      countedDzd: 2450,
      differenceDzd: -50,
      denominations: { "2000": 1, "200": 2, "50": 1 }
    });
    const differences = await h.bo().call("GET", "/cash/differences?size=100");
    expect(differences.body.items.find((d: { handOffId: string }) => d.handOffId === closing.body.id)).toMatchObject({
      stage: "CLOSING",
      relayCode: code,
      hubId: null,
      courierId: null,
      expectedDzd: 2500,
      counts: [{ by: "agent", countedDzd: 2450, denominations: { "2000": 1, "200": 2, "50": 1 } }]
    });

    // A second closing counted by denomination and agreeing with its books (nothing came in: 0): no difference.
    const empty = await agent("POST", "/cash/closings", { countedDzd: 0, denominations: {} });
    expect(empty.status).toBe(201);
    const after = await h.bo().call("GET", "/cash/differences?size=100");
    expect(after.body.items.some((d: { handOffId: string }) => d.handOffId === empty.body.id)).toBe(false);

    // The counter and the courier see the closings' notes and coins added up.
    const uncollected = await agent("GET", "/cash/uncollected");
    expect(uncollected.body).toMatchObject({ countedDzd: 2450, expectedDzd: 2500, denominations: { "2000": 1, "200": 2, "50": 1 } });
    expect(uncollected.body.closings.map((c: { denominations: unknown }) => c.denominations)).toEqual([
      { "2000": 1, "200": 2, "50": 1 },
      {}
    ]);
    // One closing counted as a total only: the notes of the whole are unknown.
    expect((await agent("POST", "/cash/closings", { countedDzd: 0 })).body.denominations).toBeNull();
    expect((await agent("GET", "/cash/uncollected")).body.denominations).toBeNull();
  });
}
