import { randomBytes, randomUUID } from "node:crypto";
import type { SystemUnderTest } from "./gateway-contract";
import { http, HttpResult } from "../helpers/http";
import { eventually, expectError, Merchant, merchants, PARCEL } from "./merchant-helpers";
import { relayAgent } from "./relay-contract";
// A cycle with network-contract.ts, which calls this contract: only functions are imported, used once tests run.
import { PICKUP_ADDRESS, pickupWindow } from "./network-contract";

/**
 * Issue 44 C, the last leg (decision 0057): a courier's run as ordered stops that an operator
 * adjusts; the courier loads a relay point's parcels (parcel.out_for_delivery), proves its visit
 * with the counter's signed pass, and the agent's arrival closes the hand-off in the custody trail.
 */

type Api = (method: string, path: string, body?: unknown, headers?: Record<string, string>) => Promise<HttpResult>;
interface Stop {
  kind: string;
  pickupId: string | null;
  relayCode: string | null;
  hubId: string | null;
  parcelCount: number;
  otherCount: number;
  deliver: string[];
  collectReturns: string[];
  instruction: string;
  cashToCollect: number;
  cashByDenomination: Record<string, number> | null;
}

export function networkRunsContract(system: () => SystemUnderTest): void {
  const m = merchants(system);
  let merchant: Merchant;

  beforeAll(async () => {
    merchant = await m.create(`Runs ${randomUUID().slice(0, 8)}`, 100_000, 50_000);
  }, 60_000);

  const staffApi =
    (api: "courier" | "hub", key: string): Api =>
    (method, path, body, headers = {}) =>
      http(system().baseUrl, method, `/api/${api}/v1${path}`, { headers: { Authorization: `ApiKey ${key}`, ...headers }, body });

  /** A hub of wilaya 16, its courier and a relay point of wilaya 16 with its counter. */
  async function network() {
    const bo = m.bo();
    const suffix = randomBytes(3).toString("hex").toUpperCase();
    const hub = (await bo.call("POST", "/hubs", { code: `HUB-16-R${suffix}`, wilaya: "16", name: "Bab Ezzouar", address: "ZI" })).body;
    const courier = (
      await bo.call("POST", "/couriers", { firstName: "Yacine", lastName: "H", phone: "+213 661 23 45 67", homeHubId: hub.id })
    ).body;
    const courierKey = (await bo.call("POST", "/staff-keys", { role: "courier", subjectId: courier.id, name: "phone" })).body;
    const hubKey = (await bo.call("POST", "/staff-keys", { role: "hub", subjectId: hub.id, name: "station" })).body;
    const code = `DZ-16-R${suffix}`;
    expect((await bo.call("POST", "/relay-points", { code, name: `Counter ${code}`, city: "Alger", wilaya: "16" })).status).toBe(201);
    const agentKey = (await bo.call("POST", `/relay-points/${code}/agent-keys`, { name: "tablet" })).body;
    return {
      hub,
      courier,
      code,
      courierApi: staffApi("courier", courierKey.key),
      hubApi: staffApi("hub", hubKey.key),
      agent: relayAgent(system().baseUrl, agentKey.key)
    };
  }

  /** Parcels for `code`, booked in a pickup for tomorrow, collected and scanned in at the hub: IN_TRANSIT, held by the hub. */
  async function sortedAtHub(n: Awaited<ReturnType<typeof network>>, count: number) {
    const parcels: Array<{ id: string; trackingNumber: string }> = [];
    for (let i = 0; i < count; i++) {
      const res = await merchant.live("POST", "/parcels", { ...PARCEL, destinationRelayCode: n.code });
      expect(res.status).toBe(201);
      parcels.push(res.body);
    }
    const window = pickupWindow();
    const pickup = (
      await merchant.live("POST", "/pickups", {
        address: PICKUP_ADDRESS,
        readyAt: window.readyAt,
        closeAt: window.closeAt,
        parcelIds: parcels.map(p => p.id)
      })
    ).body;
    return { parcels, pickup, day: window.day };
  }

  async function collectAndSort(n: Awaited<ReturnType<typeof network>>, pickupId: string, parcels: Array<{ trackingNumber: string }>) {
    for (const p of parcels) {
      const scan = await n.courierApi(
        "POST",
        `/pickups/${pickupId}/scans`,
        { trackingNumber: p.trackingNumber },
        { "Idempotency-Key": randomUUID() }
      );
      expect(scan.body.outcome).toBe("COLLECTED");
    }
    for (const p of parcels) {
      const scanIn = await n.hubApi("POST", "/scans/in", { trackingNumber: p.trackingNumber }, { "Idempotency-Key": randomUUID() });
      expect(scanIn.body.status).toBe("IN_TRANSIT");
    }
  }

  describe("runs and the last leg", () => {
    test("a run: the day's pickup, the hub, the relay point with what to do; an operator reorders it; another courier never sees it", async () => {
      const n = await network();
      const { parcels, pickup, day } = await sortedAtHub(n, 2);

      const before = await n.courierApi("GET", `/run?date=${day}`);
      expect(before.status).toBe(200);
      expect(before.body.items.map((p: { id: string }) => p.id)).toContain(pickup.id);
      const stops: Stop[] = before.body.run.stops;
      expect(before.body.run).toEqual(expect.objectContaining({ id: null, kept: false, date: day, courierId: n.courier.id }));
      const atMerchant = stops.find(s => s.pickupId === pickup.id)!;
      expect(atMerchant).toEqual(expect.objectContaining({ kind: "PICKUP", parcelCount: 2 }));
      expect(atMerchant.instruction).toContain("Collecter 2 colis");
      expect(stops.filter(s => s.kind === "HUB").map(s => s.hubId)).toEqual([n.hub.id]);

      await collectAndSort(n, pickup.id, parcels);
      const after = (await n.courierApi("GET", `/run?date=${day}`)).body.run.stops as Stop[];
      expect(after.map(s => s.kind).slice(-3)).toEqual(["HUB", "RELAY", "HUB"]);
      const relayStop = after.find(s => s.kind === "RELAY")!;
      expect(relayStop).toEqual(expect.objectContaining({ relayCode: n.code, parcelCount: 2 }));
      expect(relayStop.deliver).toEqual(parcels.map(p => p.trackingNumber).sort());
      expect(after.find(s => s.kind === "HUB")!.otherCount).toBe(2);

      // The back-office reads it (kept, with an id) and adjusts it: the relay point first, the merchant removed.
      const bo = m.bo();
      const kept = await bo.call("GET", `/runs?date=${day}&courierId=${n.courier.id}`);
      expect(kept.status).toBe(200);
      expect(kept.body).toEqual(expect.objectContaining({ kept: true, id: expect.any(String) }));
      const adjusted = await bo.call("PUT", `/runs/${kept.body.id}/stops`, {
        stops: [
          { kind: "HUB", ref: n.hub.id },
          { kind: "RELAY", ref: n.code }
        ]
      });
      expect(adjusted.status).toBe(200);
      expect(adjusted.body.stops.map((s: Stop) => `${s.kind}:${s.relayCode ?? s.hubId}`)).toEqual([`HUB:${n.hub.id}`, `RELAY:${n.code}`]);
      const seen = (await n.courierApi("GET", `/run?date=${day}`)).body.run;
      expect(seen).toEqual(expect.objectContaining({ id: kept.body.id, kept: true }));
      expect(seen.stops.map((s: Stop) => s.kind)).toEqual(["HUB", "RELAY"]);

      expectError(
        await bo.call("PUT", `/runs/${kept.body.id}/stops`, { stops: [{ kind: "RELAY", ref: "nowhere" }] }),
        400,
        "VALIDATION_FAILED",
        "stops.0.ref"
      );
      expectError(await bo.call("PUT", `/runs/${randomUUID()}/stops`, { stops: [] }), 404, "NOT_FOUND");
      expectError(await bo.call("GET", `/runs?date=${day}`), 400, "VALIDATION_FAILED", "courierId");

      // Another courier (another hub) reads its own run only: none of these stops.
      const other = await network();
      const theirs = (await other.courierApi("GET", `/run?date=${day}`)).body.run;
      expect(theirs.courierId).toBe(other.courier.id);
      expect(theirs.stops.map((s: Stop) => s.relayCode)).not.toContain(n.code);

      // The operator gives the run to the other courier: it is theirs now; one courier has one run a day.
      const given = await bo.call("PUT", `/runs/${kept.body.id}/stops`, {
        courierId: other.courier.id,
        stops: [{ kind: "RELAY", ref: n.code }]
      });
      expect(given.status).toBe(200);
      expect((await other.courierApi("GET", `/run?date=${day}`)).body.run).toEqual(
        expect.objectContaining({ id: kept.body.id, courierId: other.courier.id })
      );
      expect((await n.courierApi("GET", `/run?date=${day}`)).body.run.id).toBeNull();
      const theirsKept = await bo.call("GET", `/runs?date=${day}&courierId=${n.courier.id}`);
      expectError(await bo.call("PUT", `/runs/${theirsKept.body.id}/stops`, { courierId: other.courier.id, stops: [] }), 409, "CONFLICT");
    });

    test("load → parcel.out_for_delivery once; the counter's pass proves the visit (forged or another relay's: 400); the arrival closes the hand-off", async () => {
      const n = await network();
      const { parcels, pickup } = await sortedAtHub(n, 2);
      await collectAndSort(n, pickup.id, parcels);
      const [first, second] = parcels;

      const key = randomUUID();
      const loads = await Promise.all(
        [1, 2, 3].map(() =>
          n.courierApi("POST", `/relays/${n.code}/load`, { trackingNumber: first.trackingNumber }, { "Idempotency-Key": key })
        )
      );
      for (const l of loads)
        expect({ status: l.status, outcome: l.body.outcome, parcel: l.body.status }).toEqual({
          status: 200,
          outcome: "LOADED",
          parcel: "IN_TRANSIT"
        });
      // The hub's own scan out of the second parcel, for a relay point of its wilaya, is the same hand-off.
      expect(
        (await n.hubApi("POST", "/scans/out", { trackingNumber: second.trackingNumber }, { "Idempotency-Key": randomUUID() })).status
      ).toBe(200);
      // The events feed fills as the outbox is relayed: read until the event is there, then count it.
      const typesOf = (id: string, type: string) =>
        eventually(
          async () => ((await merchant.live("GET", `/events?parcelId=${id}&size=100`)).body.items as { type: string }[]).map(e => e.type),
          types => types.includes(type)
        );
      expect((await typesOf(first.id, "parcel.out_for_delivery")).filter(t => t === "parcel.out_for_delivery")).toHaveLength(1);
      expect((await typesOf(second.id, "parcel.out_for_delivery")).filter(t => t === "parcel.out_for_delivery")).toHaveLength(1);
      expect((await merchant.live("GET", `/parcels/${first.id}`)).body.status).toBe("IN_TRANSIT");

      const elsewhere = await network();
      expectError(
        await n.courierApi(
          "POST",
          `/relays/${elsewhere.code}/load`,
          { trackingNumber: first.trackingNumber },
          { "Idempotency-Key": randomUUID() }
        ),
        409,
        "WRONG_RELAY"
      );

      // Bad input: a 400 in the error shape, naming the field.
      const bad = { "Idempotency-Key": randomUUID() };
      expectError(
        await n.courierApi("POST", `/relays/${n.code}/load`, { trackingNumber: "not a label" }, bad),
        400,
        "VALIDATION_FAILED",
        "trackingNumber"
      );
      expectError(
        await n.courierApi("POST", `/relays/not-a-code/load`, { trackingNumber: first.trackingNumber }, bad),
        400,
        "VALIDATION_FAILED",
        "code"
      );
      expectError(await n.courierApi("POST", `/relays/${n.code}/arrive`, {}, bad), 400, "VALIDATION_FAILED", "pass");
      expectError(await n.courierApi("POST", `/relays/${n.code}/arrive`, { pass: "RC1.garbage" }, bad), 400, "VALIDATION_FAILED", "pass");

      const pass = await n.agent("POST", "/courier-pass");
      expect(pass.status).toBe(200);
      expect(pass.body).toEqual(
        expect.objectContaining({ relayCode: n.code, pass: expect.stringMatching(/^RC1\./), qrSvg: expect.stringContaining("<svg") })
      );
      const forged = pass.body.pass.slice(0, -1) + (pass.body.pass.endsWith("A") ? "B" : "A");
      expectError(
        await n.courierApi("POST", `/relays/${n.code}/arrive`, { pass: forged }, { "Idempotency-Key": randomUUID() }),
        400,
        "VALIDATION_FAILED",
        "pass"
      );
      const theirPass = (await elsewhere.agent("POST", "/courier-pass")).body.pass;
      expectError(
        await n.courierApi("POST", `/relays/${n.code}/arrive`, { pass: theirPass }, { "Idempotency-Key": randomUUID() }),
        400,
        "VALIDATION_FAILED",
        "pass"
      );
      // One key sent concurrently records one visit.
      const arriveKey = { "Idempotency-Key": randomUUID() };
      const visits = await Promise.all(
        [1, 2].map(() => n.courierApi("POST", `/relays/${n.code}/arrive`, { pass: pass.body.pass }, arriveKey))
      );
      const arrived = visits[0];
      expect(visits.map(v => v.status)).toEqual([200, 200]);
      expect(visits[1].body.visitId).toBe(arrived.body.visitId);
      expect(arrived.body).toEqual(expect.objectContaining({ relayCode: n.code, deliver: [first.trackingNumber], collectReturns: [] }));

      expect((await n.agent("POST", "/arrivals", { trackingNumber: first.trackingNumber })).status).toBe(200);
      expect((await merchant.live("GET", `/parcels/${first.id}`)).body.status).toBe("AT_RELAY");
      const trail = (await m.bo().call("GET", `/parcels/${first.id}/custody`)).body.trail as Array<Record<string, string>>;
      expect(trail.map(e => `${e.givenBy}→${e.holder}`)).toEqual(["merchant→courier", "courier→hub", "hub→courier", "courier→relay"]);
      expect(trail[2]).toEqual(expect.objectContaining({ holderId: n.courier.id, scan: "courier.load" }));
      expect(trail[3]).toEqual(expect.objectContaining({ holderId: n.code, givenById: n.courier.id, scan: "relay.arrival" }));
      const types = await typesOf(first.id, "parcel.at_relay");
      expect(types.indexOf("parcel.out_for_delivery")).toBeLessThan(types.indexOf("parcel.at_relay"));
    });

    test("a run's relay stop shows the till's cash closed and not yet collected, by denomination, until the agent confirms its collection", async () => {
      const n = await network();
      const { parcels, pickup } = await sortedAtHub(n, 1);
      await collectAndSort(n, pickup.id, parcels);
      const relayStop = async () => {
        const run = await n.courierApi("GET", "/run");
        expect(run.status).toBe(200);
        const stops = run.body.run.stops as Stop[];
        for (const other of stops.filter(st => st.kind !== "RELAY"))
          expect([other.cashToCollect, other.cashByDenomination]).toEqual([0, null]);
        return stops.find(st => st.kind === "RELAY" && st.relayCode === n.code)!;
      };
      expect(await relayStop()).toEqual(expect.objectContaining({ cashToCollect: 0, cashByDenomination: null }));

      // Two closings counted by denomination: added up, face by face.
      for (const denominations of [
        { "2000": 1, "500": 1 },
        { "1000": 1, "500": 2 }
      ]) {
        expect((await n.agent("POST", "/cash/closings", { denominations })).status).toBe(201);
      }
      const counted = await relayStop();
      expect(counted).toEqual(expect.objectContaining({ cashToCollect: 4500, cashByDenomination: { "2000": 1, "1000": 1, "500": 3 } }));
      expect(counted.instruction).toContain("prendre 4500 DA");
      // A closing counted as a total only: the amount grows, the notes are no longer known.
      expect((await n.agent("POST", "/cash/closings", { countedDzd: 100 })).status).toBe(201);
      expect(await relayStop()).toEqual(expect.objectContaining({ cashToCollect: 4600, cashByDenomination: null }));

      // Recorded by the courier, the cash is still the counter's; once the agent confirms, there is none to collect.
      const collection = await n.courierApi(
        "POST",
        `/relays/${n.code}/cash-collections`,
        { denominations: { "2000": 1, "1000": 1, "500": 3, "100": 1 } },
        { "Idempotency-Key": randomUUID() }
      );
      expect(collection.status).toBe(201);
      expect((await relayStop()).cashToCollect).toBe(4600);
      const confirmed = await n.agent("POST", `/cash/collections/${collection.body.id}/confirm`, {
        denominations: { "2000": 1, "1000": 1, "500": 3, "100": 1 }
      });
      expect(confirmed.status).toBe(200);
      expect(await relayStop()).toEqual(expect.objectContaining({ cashToCollect: 0, cashByDenomination: null }));
    });

    test("a relay point with only closed cash, or only a return waiting, is a stop of the computed run; another wilaya's, a sandbox return, never", async () => {
      const n = await network();
      const bo = m.bo();
      /** A relay point of `wilaya` with nothing to deliver, and its counter. */
      const counter = async (wilaya: string) => {
        const code = `DZ-${wilaya}-V${randomBytes(3).toString("hex").toUpperCase()}`;
        expect((await bo.call("POST", "/relay-points", { code, name: `Counter ${code}`, city: "Alger", wilaya })).status).toBe(201);
        return {
          code,
          agent: relayAgent(system().baseUrl, (await bo.call("POST", `/relay-points/${code}/agent-keys`, { name: "tablet" })).body.key)
        };
      };
      /** A live parcel refused at the counter: a return waiting there for a courier. */
      const refusedAt = async (at: Awaited<ReturnType<typeof counter>>) => {
        const parcel = (await merchant.live("POST", "/parcels", { ...PARCEL, destinationRelayCode: at.code })).body;
        await m.move(parcel.id, "READY_FOR_PICKUP", "PICKED_UP", "IN_TRANSIT");
        expect((await at.agent("POST", "/arrivals", { trackingNumber: parcel.trackingNumber })).status).toBe(200);
        const refusal = await at.agent("POST", "/refusals", {
          trackingNumber: parcel.trackingNumber,
          reason: "Refusé par le destinataire"
        });
        expect(refusal.status).toBe(200);
        return parcel.trackingNumber as string;
      };
      const cashOnly = await counter("16");
      const returnOnly = await counter("16");
      const sandboxOnly = await counter("16");
      const oran = await counter("31");
      expect((await cashOnly.agent("POST", "/cash/closings", { denominations: { "1000": 1, "500": 1 } })).status).toBe(201);
      const waiting = await refusedAt(returnOnly);
      expect((await oran.agent("POST", "/cash/closings", { countedDzd: 800 })).status).toBe(201);
      await refusedAt(oran);
      const sandboxParcel = (await merchant.sandbox("POST", "/parcels", { ...PARCEL, destinationRelayCode: sandboxOnly.code })).body;
      for (const toStatus of ["AT_RELAY", "RETURN_PENDING"])
        expect((await merchant.sandbox("POST", `/sandbox/parcels/${sandboxParcel.id}/trigger-event`, { toStatus })).status).toBe(202);

      const run = await n.courierApi("GET", "/run");
      expect(run.status).toBe(200);
      expect(run.body.run.kept).toBe(false);
      const stops = run.body.run.stops as Stop[];
      const relayCodes = stops.filter(st => st.kind === "RELAY").map(st => st.relayCode);
      expect(relayCodes).toEqual(expect.arrayContaining([cashOnly.code, returnOnly.code]));
      expect(relayCodes).not.toContain(oran.code);
      expect(relayCodes).not.toContain(sandboxOnly.code);
      expect(relayCodes).toEqual([...relayCodes].sort());
      expect(stops[stops.length - 1]).toEqual(expect.objectContaining({ kind: "HUB", hubId: n.hub.id }));
      const stopAt = (code: string) => stops.find(st => st.kind === "RELAY" && st.relayCode === code)!;
      expect(stopAt(cashOnly.code)).toEqual(
        expect.objectContaining({ parcelCount: 0, collectReturns: [], cashToCollect: 1500, cashByDenomination: { "1000": 1, "500": 1 } })
      );
      expect(stopAt(cashOnly.code).instruction).toContain("prendre 1500 DA");
      expect(stopAt(returnOnly.code)).toEqual(
        expect.objectContaining({ parcelCount: 0, otherCount: 1, collectReturns: [waiting], cashToCollect: 0, cashByDenomination: null })
      );
    });

    test("a return goes back: the courier takes it at the relay point, through the hub, to the merchant who confirms: RETURNED", async () => {
      const n = await network();
      const { parcels, pickup } = await sortedAtHub(n, 1);
      await collectAndSort(n, pickup.id, parcels);
      const [parcel] = parcels;
      const key = () => ({ "Idempotency-Key": randomUUID() });
      const scan = { trackingNumber: parcel.trackingNumber };
      expect((await n.courierApi("POST", `/relays/${n.code}/load`, scan, key())).status).toBe(200);
      // The operator keeps the day's run (its relay stop stays when nothing more goes there).
      expect(
        (await m.bo().call("GET", `/runs?date=${(await n.courierApi("GET", "/run")).body.run.date}&courierId=${n.courier.id}`)).status
      ).toBe(200);
      expect((await n.agent("POST", "/arrivals", scan)).status).toBe(200);
      expect((await n.agent("POST", "/refusals", { ...scan, reason: "Refusé par le destinataire" })).status).toBe(200);
      const returnsOfRun = async () => {
        const run = await n.courierApi("GET", "/run");
        expect(run.status).toBe(200);
        const stop = (run.body.run.stops as Stop[]).find(st => st.kind === "RELAY" && st.relayCode === n.code)!;
        return { collectReturns: stop.collectReturns, otherCount: stop.otherCount };
      };

      // The morning run lists it, before the courier goes; the agent's return dispatch (the bag made ready) does not take it off.
      expect(await returnsOfRun()).toEqual({ collectReturns: [parcel.trackingNumber], otherCount: 1 });
      const arrived = await n.courierApi(
        "POST",
        `/relays/${n.code}/arrive`,
        { pass: (await n.agent("POST", "/courier-pass")).body.pass },
        key()
      );
      expect(arrived.body.collectReturns).toEqual([parcel.trackingNumber]);
      expect((await n.agent("POST", "/return-dispatches", { trackingNumbers: [parcel.trackingNumber] })).status).toBe(200);
      expect(await returnsOfRun()).toEqual({ collectReturns: [parcel.trackingNumber], otherCount: 1 });
      expectError(await merchant.live("POST", `/parcels/${parcel.id}/return-receipt`), 409, "INVALID_TRANSITION");
      const taken = await n.courierApi("POST", `/relays/${n.code}/returns`, scan, key());
      expect(taken.body).toEqual(expect.objectContaining({ outcome: "RETURN_COLLECTED", status: "RETURN_PENDING" }));
      // Taken: no longer waiting there.
      expect(await returnsOfRun()).toEqual({ collectReturns: [], otherCount: 0 });
      const atHub = await n.hubApi("POST", "/scans/in", scan, key());
      expect(atHub.body).toEqual(
        expect.objectContaining({ outcome: "RETURN", status: "RETURN_PENDING", sort: expect.stringContaining("RETOUR") })
      );
      expect((await n.courierApi("POST", "/returns/out", scan, key())).body.outcome).toBe("RETURN_LOADED");

      // Another organisation, or a sandbox key, cannot confirm it; the merchant's confirmations (concurrent) make it RETURNED once.
      const stranger = await m.create(`Stranger ${randomUUID().slice(0, 8)}`, 1_000);
      expectError(await stranger.live("POST", `/parcels/${parcel.id}/return-receipt`), 404, "PARCEL_NOT_FOUND");
      expectError(await merchant.sandbox("POST", `/parcels/${parcel.id}/return-receipt`), 404, "PARCEL_NOT_FOUND");
      const confirmations = await Promise.all([1, 2, 3].map(() => merchant.live("POST", `/parcels/${parcel.id}/return-receipt`)));
      for (const c of confirmations) expect({ status: c.status, parcel: c.body.status }).toEqual({ status: 200, parcel: "RETURNED" });
      const history = (await merchant.live("GET", `/parcels/${parcel.id}/events`)).body.items.map((e: { status: string }) => e.status);
      expect(history.filter((st: string) => st === "RETURNED")).toHaveLength(1);
      const trail = (await m.bo().call("GET", `/parcels/${parcel.id}/custody`)).body.trail as Array<Record<string, string>>;
      expect(trail.slice(-4).map(e => `${e.givenBy}→${e.holder}`)).toEqual([
        "relay→courier",
        "courier→hub",
        "hub→courier",
        "courier→merchant"
      ]);
    });
  });
}
