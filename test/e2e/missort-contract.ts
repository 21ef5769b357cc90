import { randomUUID } from "node:crypto";
import type { SystemUnderTest } from "./gateway-contract";
import { http } from "../helpers/http";
import { eventually, expectError, Merchant, merchants, PARCEL } from "./merchant-helpers";
import { relayAgent } from "./relay-contract";
import { pickupWindow, PICKUP_ADDRESS } from "./network-contract";

/**
 * Issue 44 C and acceptance 2, decision 0058, through the APIs only: a parcel from Alger (16) to
 * Oran (31) scanned in at a hub of Blida (09) is mis-sorted — the hub's answer sends it on to
 * wilaya 31, the back-office lists one exception however often it is scanned, and the merchant
 * gets one parcel.missorted; brought to a relay point of Oran it is not addressed to, it is
 * mis-sorted again (WRONG_RELAY), then arrives at its own.
 */
export function missortContract(system: () => SystemUnderTest): void {
  const m = merchants(system);
  let merchant: Merchant;

  beforeAll(async () => {
    merchant = await m.create(`Missort ${randomUUID().slice(0, 8)}`, 50_000);
  }, 60_000);

  const staffApi =
    (api: "courier" | "hub", key: string) =>
    (method: string, path: string, body?: unknown, headers: Record<string, string> = {}) =>
      http(system().baseUrl, method, `/api/${api}/v1${path}`, { headers: { Authorization: `ApiKey ${key}`, ...headers }, body });

  const hubOf = async (wilaya: string) => {
    const bo = m.bo();
    const hub = await bo.call("POST", "/hubs", {
      code: `HUB-${wilaya}-${randomUUID().slice(0, 6).toUpperCase()}`,
      wilaya,
      name: `Hub ${wilaya}`,
      address: "Zone industrielle"
    });
    expect(hub.status).toBe(201);
    const key = await bo.call("POST", "/staff-keys", { role: "hub", subjectId: hub.body.id, name: "sort station" });
    expect(key.status).toBe(201);
    return { hub: hub.body as { id: string; code: string }, api: staffApi("hub", key.body.key) };
  };

  const relayIn = async (commune: string) => {
    const code = `DZ-31-M${randomUUID().slice(0, 8).toUpperCase()}`;
    const bo = m.bo();
    expect((await bo.call("POST", "/relay-points", { code, name: `Counter ${code}`, city: "Oran", commune })).status).toBe(201);
    const key = await bo.call("POST", `/relay-points/${code}/agent-keys`, { name: "counter tablet" });
    expect(key.status).toBe(201);
    return { code, agent: relayAgent(system().baseUrl, key.body.key) };
  };

  const exceptionsOf = async (parcelId: string) => {
    const page = await m.bo().call("GET", "/exceptions?size=100");
    expect(page.status).toBe(200);
    return page.body.items.filter((e: { parcelId: string }) => e.parcelId === parcelId);
  };

  test("a hub off the route: MISSORTED, sent on to the destination's wilaya, one exception and one parcel.missorted; a wrong relay too", async () => {
    const own = await relayIn("3101");
    const wrong = await relayIn("3101");
    const [alger, blida, oran] = [await hubOf("16"), await hubOf("09"), await hubOf("31")];
    const courier = await m.bo().call("POST", "/couriers", {
      firstName: "Yacine",
      lastName: "Haddad",
      phone: "+213 661 23 45 67",
      homeHubId: alger.hub.id
    });
    const courierKey = await m.bo().call("POST", "/staff-keys", { role: "courier", subjectId: courier.body.id, name: "phone" });
    const courierApi = staffApi("courier", courierKey.body.key);

    const parcel = (await merchant.live("POST", "/parcels", { ...PARCEL, destinationRelayCode: own.code })).body;
    const booked = await merchant.live("POST", "/pickups", {
      address: PICKUP_ADDRESS,
      ...pickupWindow(),
      day: undefined,
      parcelIds: [parcel.id]
    });
    expect(booked.status).toBe(201);
    const collected = await courierApi("POST", `/pickups/${booked.body.id}/scans`, { trackingNumber: parcel.trackingNumber });
    expect(collected.body.outcome).toBe("COLLECTED");
    expect((await courierApi("POST", `/pickups/${booked.body.id}/close`)).status).toBe(200);

    // The origin's hub is on the route: the parcel goes to wilaya 31.
    const first = await alger.api("POST", "/scans/in", { trackingNumber: parcel.trackingNumber });
    expect(first.body).toEqual(expect.objectContaining({ outcome: "SORTED", status: "IN_TRANSIT", sort: `VERS WILAYA 31 — ${own.code}` }));
    expect((await alger.api("POST", "/scans/out", { trackingNumber: parcel.trackingNumber })).body.outcome).toBe("DISPATCHED");

    // Blida is neither Alger nor Oran: a mis-sort, sent concurrently with one key, and again with another.
    const key = randomUUID();
    const answers = await Promise.all(
      [1, 2, 3].map(() => blida.api("POST", "/scans/in", { trackingNumber: parcel.trackingNumber }, { "Idempotency-Key": key }))
    );
    for (const a of answers) {
      expect(a.status).toBe(200);
      expect(a.body).toEqual(
        expect.objectContaining({
          outcome: "MISSORTED",
          status: "IN_TRANSIT",
          sort: `ERREUR DE TRI — renvoyer vers WILAYA 31 — ${own.code}`
        })
      );
    }
    expect(
      (await blida.api("POST", "/scans/in", { trackingNumber: parcel.trackingNumber }, { "Idempotency-Key": randomUUID() })).body.outcome
    ).toBe("MISSORTED");
    expect(await exceptionsOf(parcel.id)).toEqual([
      expect.objectContaining({
        kind: "MISSORT",
        reason: "OFF_ROUTE_HUB",
        trackingNumber: parcel.trackingNumber,
        foundAt: blida.hub.code,
        foundInWilaya: "09",
        rerouteToWilaya: "31",
        rerouteToRelayCode: own.code
      })
    ]);

    // Oran's hub is the destination's: its bin; then a relay point of Oran it is not addressed to.
    const atOran = await oran.api("POST", "/scans/in", { trackingNumber: parcel.trackingNumber });
    expect(atOran.body).toEqual(expect.objectContaining({ outcome: "ALREADY", sort: `BAC ${own.code} — tournée wilaya 31` }));
    expect((await oran.api("POST", "/scans/out", { trackingNumber: parcel.trackingNumber })).body.outcome).toBe("DISPATCHED");
    expectError(await wrong.agent("POST", "/arrivals", { trackingNumber: parcel.trackingNumber }), 409, "WRONG_RELAY");
    expectError(await wrong.agent("POST", "/arrivals", { trackingNumber: parcel.trackingNumber }), 409, "WRONG_RELAY");
    const both = await exceptionsOf(parcel.id);
    expect(both.map((e: { reason: string; foundAt: string }) => `${e.reason} ${e.foundAt}`).sort()).toEqual(
      [`OFF_ROUTE_HUB ${blida.hub.code}`, `WRONG_RELAY ${wrong.code}`].sort()
    );
    expect((await own.agent("POST", "/arrivals", { trackingNumber: parcel.trackingNumber })).status).toBe(200);

    // One parcel.missorted per exception, in the parcel's sequence, and nothing else changed its status.
    const feed = await eventually(
      () => merchant.live("GET", "/events?type=parcel.missorted&limit=100"),
      res => res.body.items.filter((e: { data: { parcel: { id: string } } }) => e.data.parcel.id === parcel.id).length >= 2
    );
    const mine = feed.body.items.filter((e: { data: { parcel: { id: string } } }) => e.data.parcel.id === parcel.id);
    expect(mine.map((e: { data: { missort: { reason: string } } }) => e.data.missort.reason)).toEqual(["OFF_ROUTE_HUB", "WRONG_RELAY"]);
    expect(mine[0].data).toEqual(
      expect.objectContaining({
        previousStatus: "IN_TRANSIT",
        missort: { reason: "OFF_ROUTE_HUB", foundInWilaya: "09", rerouteToWilaya: "31", rerouteToRelayCode: own.code }
      })
    );
    const all = await merchant.live("GET", "/events?limit=100");
    const sequences = all.body.items
      .filter((e: { data: { parcel?: { id: string } } }) => e.data.parcel?.id === parcel.id)
      .map((e: { sequence: number }) => e.sequence);
    expect(sequences).toEqual(sequences.map((_s: number, i: number) => i + 1));

    // The recipient's page tells the middle mile (decision 0058): each hub's wilaya, the mis-sort, on its way.
    const page = await http(system().baseUrl, "GET", `/track/${parcel.trackingNumber}?lang=fr`);
    expect(page.status).toBe(200);
    const text = String(page.body);
    for (const line of [
      "Au centre de tri, wilaya d’<bdi>Alger</bdi>",
      "Passé par erreur par la wilaya de <bdi>Blida</bdi>, renvoyé vers votre point relais",
      "Au centre de tri, wilaya d’<bdi>Oran</bdi>",
      "En route vers votre point relais",
      "Arrivé par erreur à un autre point relais, renvoyé vers le vôtre"
    ])
      expect(text).toContain(line);
  });

  test("the exceptions queue is the back-office's: a partner key cannot read it; bad paging is a 400", async () => {
    const res = await http(system().baseUrl, "GET", "/api/backoffice/v1/exceptions", { headers: { Authorization: "Bearer nope" } });
    expect(res.status).toBe(401);
    expectError(await m.bo().call("GET", "/exceptions?size=0"), 400, "VALIDATION_FAILED");
  });
}
