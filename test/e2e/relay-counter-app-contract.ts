import { pbkdf2Sync, randomUUID } from "node:crypto";
import { http, HttpResult } from "../helpers/http";
import type { SystemUnderTest } from "./gateway-contract";
import { eventually, expectError, freshAddress, Merchant } from "./merchant-helpers";
import { expectDrawnCode, expectGuessesLimited, expectIdempotentExchange, pairingsFrom, typedByHand } from "./pairing-code-checks";
import { relayAgent, relayHelpers } from "./relay-contract";

/**
 * Issue 27 part A: the relay API ready for a phone on a bad network — pairing by a one-time code,
 * one parcel by its number, the shelf by the recipient's hint, the day's operations, and every
 * POST idempotent. Run on both database engines (test/integration/relay-counter-api.test.ts).
 */

/** SQL on the system's database, for what no API does (a code's 15 minutes passing). */
export type Sql = (text: string, params?: unknown[]) => Promise<unknown>;

export function pairingContract(system: () => SystemUnderTest, sql: () => Sql): void {
  const h = relayHelpers(system);
  const pair = pairingsFrom(system)("relay");

  test("pairing: a one-time code from the back-office becomes this device's agent key, listed and revoked like the others", async () => {
    const code = await h.relayPoint();
    const drawn = await h.bo().call("POST", `/relay-points/${code}/pairing-codes`, { deviceName: "Comptoir" });
    expectDrawnCode(drawn, "counter");

    const paired = await pair({ code: typedByHand(drawn.body.code), deviceName: "Samsung A05" });
    expect(paired.status).toBe(201);
    expect(paired.body).toEqual({
      key: expect.stringMatching(/^rp_agent_[A-Za-z0-9]{40}$/),
      id: expect.any(String),
      name: "Samsung A05",
      relayCode: code,
      relayName: `Counter ${code}`
    });
    const agent = relayAgent(system().baseUrl, paired.body.key);
    expect((await agent("GET", "/me")).body.relayCode).toBe(code);

    // Used: the same 404 as an unknown code.
    expectError(await pair({ code: drawn.body.code, deviceName: "another" }), 404, "PAIRING_CODE_NOT_FOUND");
    expectError(await pair({ code: "ABCDEFGH" }), 404, "PAIRING_CODE_NOT_FOUND");

    const listed = await h.bo().call("GET", `/relay-points/${code}/agent-keys`);
    expect(listed.body).toEqual([expect.objectContaining({ id: paired.body.id, name: "Samsung A05", revokedAt: null })]);
    expect(listed.text).not.toContain(paired.body.key);
    expect((await h.bo().call("DELETE", `/relay-points/${code}/agent-keys/${paired.body.id}`)).status).toBe(204);
    expectError(await agent("GET", "/me"), 401, "UNAUTHENTICATED");

    // Without a name from the phone, the back-office's.
    const second = await h.bo().call("POST", `/relay-points/${code}/pairing-codes`, { deviceName: "Caisse 2" });
    expect((await pair({ code: second.body.code })).body.name).toBe("Caisse 2");
    expectError(await h.bo().call("POST", "/relay-points/DZ-99-NOWHERE-X/pairing-codes", {}), 404, "RELAY_POINT_NOT_FOUND");
  });

  test("pairing: concurrent exchanges of one code give exactly one key; with one Idempotency-Key, a lost answer comes back", async () => {
    const code = await h.relayPoint();
    const drawn = await h.bo().call("POST", `/relay-points/${code}/pairing-codes`, {});
    const answers = await Promise.all([1, 2, 3].map(n => pair({ code: drawn.body.code, deviceName: `phone ${n}` })));
    expect(answers.map(a => a.status).sort()).toEqual([201, 404, 404]);
    expect((await h.bo().call("GET", `/relay-points/${code}/agent-keys`)).body).toHaveLength(1);

    const again = await h.bo().call("POST", `/relay-points/${code}/pairing-codes`, {});
    await expectIdempotentExchange(pair, again.body.code);
    expect((await h.bo().call("GET", `/relay-points/${code}/agent-keys`)).body).toHaveLength(2);
  });

  test("pairing: a code past its 15 minutes is 410 PAIRING_CODE_EXPIRED; guesses are limited per client address", async () => {
    const code = await h.relayPoint();
    const drawn = await h.bo().call("POST", `/relay-points/${code}/pairing-codes`, {});
    await sql()("UPDATE auth.pairing_codes SET expires_at = now() - interval '1 second' WHERE relay_code = $1", [code]);
    expectError(await pair({ code: drawn.body.code }), 410, "PAIRING_CODE_EXPIRED");
    await expectGuessesLimited(pair);
  });
}

/** A relay point, its agent, and parcels arrived on its shelf (their PINs read from the SMS). */
async function shelfWith(
  h: ReturnType<typeof relayHelpers>,
  system: () => SystemUnderTest,
  merchant: Merchant,
  recipients: Record<string, unknown>[]
): Promise<{ code: string; agent: ReturnType<typeof relayAgent>; parcels: { id: string; trackingNumber: string; pin: string }[] }> {
  const code = await h.relayPoint();
  const agent = await h.agent(code);
  const parcels = [];
  for (const recipient of recipients) {
    const parcel = await h.inTransit(merchant, code, recipient);
    expect((await agent("POST", "/arrivals", { trackingNumber: parcel.trackingNumber })).status).toBe(200);
    parcels.push({ ...parcel, pin: await system().sms.pinOf(parcel.trackingNumber) });
  }
  return { code, agent, parcels };
}

export function counterReadsContract(system: () => SystemUnderTest): void {
  const h = relayHelpers(system);
  let merchant: Merchant;
  beforeAll(async () => {
    merchant = await h.m.create("Counter Reads SARL", 200_000);
  });
  const numbers = (res: HttpResult) => res.body.items.map((p: { trackingNumber: string }) => p.trackingNumber);

  test("one parcel by its number, typed or scanned; 404 for another relay point's", async () => {
    const { agent, parcels } = await shelfWith(h, system, merchant, [{}]);
    const [parcel] = parcels;
    const typed = ` ${parcel.trackingNumber.slice(0, 5).toLowerCase()}-${parcel.trackingNumber.slice(5)} `;
    const read = await agent("GET", `/parcels/${encodeURIComponent(typed)}`);
    expect(read.status).toBe(200);
    expect(read.body).toMatchObject({
      trackingNumber: parcel.trackingNumber,
      status: expect.stringMatching(/^(AT_RELAY|RELAY_NOTIFIED)$/),
      recipientHint: "A. ••56"
    });
    expect(read.text).not.toContain("Benali");

    const other = await shelfWith(h, system, merchant, [{}]);
    expectError(await agent("GET", `/parcels/${other.parcels[0].trackingNumber}`), 404, "PARCEL_NOT_FOUND");
    expectError(await agent("GET", "/parcels/RP000000000DZ"), 404, "PARCEL_NOT_FOUND");
  });

  test("the shelf searched by the recipient's hint: phone digits, initial, or both", async () => {
    const { agent, parcels } = await shelfWith(h, system, merchant, [
      { recipientName: "Amina Benali", recipientPhone: "+213 555 12 34 56" },
      { recipientName: "amel Haddad", recipientPhone: "0661 22 33 56" },
      { recipientName: "Karim Saïdi", recipientPhone: "0770 11 22 56" },
      { recipientName: "عمر بلقاسم", recipientPhone: "0550 98 76 54" }
    ]);
    const [amina, amel, karim, omar] = parcels.map(p => p.trackingNumber);
    expect(numbers(await agent("GET", "/parcels?hint=56"))).toEqual([amina, amel, karim]);
    expect(numbers(await agent("GET", "/parcels?hint=3456"))).toEqual([amina]);
    expect(numbers(await agent("GET", "/parcels?hint=a"))).toEqual([amina, amel]);
    expect(numbers(await agent("GET", "/parcels?hint=A56"))).toEqual([amina, amel]);
    expect(numbers(await agent("GET", `/parcels?hint=${encodeURIComponent("ع54")}`))).toEqual([omar]);
    const paged = await agent("GET", "/parcels?hint=56&size=2&page=1");
    expect({ items: numbers(paged), total: paged.body.totalElements }).toEqual({ items: [karim], total: 3 });
    expect(numbers(await agent("GET", "/parcels?hint=99"))).toEqual([]);
    expectError(await agent("GET", "/parcels?hint=AB"), 400, "VALIDATION_FAILED", "hint");
  });

  test("the day's operations: hand-overs and refusals done here since a time, by the time of each; bad queries are 400", async () => {
    const { agent, parcels } = await shelfWith(h, system, merchant, [{ codAmountDzd: 1500 }, {}, {}]);
    const [cod, prepaid, refused] = parcels;
    const since = new Date(Date.now() - 1000).toISOString();
    expect((await agent("POST", "/handovers", { trackingNumber: prepaid.trackingNumber, pin: prepaid.pin })).status).toBe(200);
    expect((await agent("POST", "/handovers", { trackingNumber: cod.trackingNumber, pin: cod.pin, codCollectedDzd: 1500 })).status).toBe(
      200
    );
    expect((await agent("POST", "/refusals", { trackingNumber: refused.trackingNumber, reason: "Refusé" })).status).toBe(200);

    const delivered = await agent("GET", `/parcels?status=DELIVERED&since=${encodeURIComponent(since)}`);
    expect(delivered.status).toBe(200);
    expect(numbers(delivered)).toEqual([prepaid.trackingNumber, cod.trackingNumber]);
    expect(delivered.body.items[1]).toMatchObject({ status: "DELIVERED", codToCollectDzd: null });
    expect(numbers(await agent("GET", `/parcels?status=RETURN_PENDING&since=${encodeURIComponent(since)}`))).toEqual([
      refused.trackingNumber
    ]);
    const later = new Date(Date.now() + 60_000).toISOString();
    expect(numbers(await agent("GET", `/parcels?status=DELIVERED&since=${encodeURIComponent(later)}`))).toEqual([]);
    expectError(await agent("GET", "/parcels?status=DELIVERED"), 400, "VALIDATION_FAILED", "since");
    expectError(await agent("GET", `/parcels?status=AT_RELAY&since=${encodeURIComponent(since)}`), 400, "VALIDATION_FAILED", "status");
    expectError(await agent("GET", "/parcels?status=DELIVERED&since=2026-02-30T00:00:00Z"), 400, "VALIDATION_FAILED", "since");
  });
}

/** Acceptance 3: every relay POST takes an Idempotency-Key, with the partner API's semantics, under concurrency. */
export function idempotencyContract(system: () => SystemUnderTest): void {
  const h = relayHelpers(system);
  let merchant: Merchant;
  beforeAll(async () => {
    merchant = await h.m.create("Idempotent Counter SARL", 200_000);
  });
  const send = (key: string, path: string, body: unknown, agentKey: string) =>
    http(system().baseUrl, "POST", `/api/relay/v1${path}`, {
      body,
      headers: { Authorization: `ApiKey ${agentKey}`, "Idempotency-Key": key }
    });

  /** Sent five times at once with one key: one 2xx first answer, the others that same answer or 409 CONFLICT (still running). */
  async function sentConcurrently(path: string, body: unknown, agentKey: string, status: number): Promise<HttpResult> {
    const key = randomUUID();
    const answers = await Promise.all([1, 2, 3, 4, 5].map(() => send(key, path, body, agentKey)));
    const firsts = answers.filter(a => a.status === status);
    expect(firsts.length).toBeGreaterThanOrEqual(1);
    for (const other of answers) {
      if (other.status === status) expect(other.body).toEqual(firsts[0].body);
      else expectError(other, 409, "IDEMPOTENCY_KEY_IN_USE");
    }
    const again = await send(key, path, body, agentKey);
    expect({ status: again.status, body: again.body }).toEqual({ status, body: firsts[0].body });
    return again;
  }

  test("a hand-over, a refusal and a closing sent at once with one key: one effect, and the first answer again", async () => {
    const code = await h.relayPoint();
    const { key } = await h.agentKey(code);
    const agent = relayAgent(system().baseUrl, key);
    const cod = await h.inTransit(merchant, code, { codAmountDzd: 1500 });
    const refused = await h.inTransit(merchant, code);
    for (const parcel of [cod, refused])
      expect((await agent("POST", "/arrivals", { trackingNumber: parcel.trackingNumber })).status).toBe(200);
    const pin = await system().sms.pinOf(cod.trackingNumber);

    const handover = await sentConcurrently("/handovers", { trackingNumber: cod.trackingNumber, pin, codCollectedDzd: 1500 }, key, 200);
    expect(handover.body.status).toBe("DELIVERED");
    await sentConcurrently("/refusals", { trackingNumber: refused.trackingNumber, reason: "Refusé" }, key, 200);
    const till = await agent("GET", "/cash");
    expect(till.body).toMatchObject({ count: 1, amountDzd: 1500 });
    const closing = await sentConcurrently("/cash/closings", { countedDzd: 1500 }, key, 201);
    expect(closing.body).toMatchObject({ expectedDzd: 1500, count: 1 });

    const closings = await h.bo().call("GET", `/relay-points/${code}/cash-closings`);
    expect(closings.body.totalElements).toBe(1);
    for (const parcel of [cod, refused]) {
      const events = (await merchant.live("GET", `/parcels/${parcel.id}/events`)).body.items as { status: string }[];
      const last = parcel === cod ? "DELIVERED" : "RETURN_PENDING";
      expect(events.filter(e => e.status === last)).toHaveLength(1);
    }
  });

  test("same key, other body: 422 IDEMPOTENCY_KEY_REUSED; a refusal is answered again without a second count; keys are per relay point", async () => {
    const code = await h.relayPoint();
    const { key: agentKey } = await h.agentKey(code);
    const parcel = await h.inTransit(merchant, code);
    const arrivalKey = randomUUID();
    expect((await send(arrivalKey, "/arrivals", { trackingNumber: parcel.trackingNumber }, agentKey)).status).toBe(200);
    const pin = await system().sms.pinOf(parcel.trackingNumber);
    expectError(
      await send(arrivalKey, "/refusals", { trackingNumber: parcel.trackingNumber, reason: "x" }, agentKey),
      422,
      "IDEMPOTENCY_KEY_REUSED"
    );

    const wrongPin = pin === "000000" ? "111111" : "000000";
    const wrongKey = randomUUID();
    const wrong = await send(wrongKey, "/handovers", { trackingNumber: parcel.trackingNumber, pin: wrongPin }, agentKey);
    expectError(wrong, 409, "PIN_INCORRECT");
    expect(wrong.body.message).toContain("4 attempts left");
    const wrongAgain = await send(wrongKey, "/handovers", { trackingNumber: parcel.trackingNumber, pin: wrongPin }, agentKey);
    expect({ status: wrongAgain.status, code: wrongAgain.body.code, message: wrongAgain.body.message }).toEqual({
      status: 409,
      code: "PIN_INCORRECT",
      message: wrong.body.message
    });
    const third = await send(randomUUID(), "/handovers", { trackingNumber: parcel.trackingNumber, pin: wrongPin }, agentKey);
    expect(third.body.message).toContain("3 attempts left");

    // Another relay point may use the same key for its own operation.
    const other = await h.relayPoint();
    const { key: otherAgent } = await h.agentKey(other);
    const otherParcel = await h.inTransit(merchant, other);
    expect((await send(arrivalKey, "/arrivals", { trackingNumber: otherParcel.trackingNumber }, otherAgent)).body.trackingNumber).toBe(
      otherParcel.trackingNumber
    );
    expectError(
      await send("bad key with spaces", "/arrivals", { trackingNumber: parcel.trackingNumber }, agentKey),
      400,
      "VALIDATION_FAILED",
      "Idempotency-Key"
    );
  });
}

/** occurredAt: when the agent scanned, for operations queued offline; the history, the till and the deadline use it. */
export function occurredAtContract(system: () => SystemUnderTest, sql: () => Sql): void {
  const h = relayHelpers(system);
  let merchant: Merchant;
  beforeAll(async () => {
    merchant = await h.m.create("Offline Counter SARL", 200_000);
  });
  const hoursAgo = (hours: number) => new Date(Date.now() - hours * 3_600_000).toISOString();
  /** The parcel's story so far moved `hours` back, as if the couriers had brought it then. */
  const storyBack = (parcelId: string, hours: number) =>
    sql()(`UPDATE parcels.status_history SET created_at = created_at - make_interval(hours => $2) WHERE parcel_id = $1`, [parcelId, hours]);
  /** A device paired `hours` ago: its key made then (set before its first call, which the gateway then caches). */
  const pairedAgo = async (code: string, hours: number) => {
    const made = await h.agentKey(code);
    await sql()(`UPDATE auth.agent_keys SET created_at = created_at - make_interval(hours => $2) WHERE id = $1`, [made.id, hours]);
    return relayAgent(system().baseUrl, made.key);
  };
  const reasonOf = (res: HttpResult) => (res.body.details as { field: string; message: string }[])[0];

  test("an arrival and a hand-over sent later carry the scan's time: history, arrival, deadline, till and the day's list", async () => {
    const code = await h.relayPoint({ holdingDays: 5 });
    const agent = await pairedAgo(code, 24);
    const parcel = await h.inTransit(merchant, code, { codAmountDzd: 900 });
    await storyBack(parcel.id, 4);
    // Synced late, the arrival gets the deadline its real time gives: five days from the scan, not from the sync.
    const scannedIn = hoursAgo(3);
    const arrival = await agent("POST", "/arrivals", { trackingNumber: parcel.trackingNumber, occurredAt: scannedIn });
    expect(arrival.status).toBe(200);
    expect(arrival.body.arrivedAt).toBe(scannedIn);
    expect(arrival.body.pickupDeadline).toBe(new Date(Date.parse(scannedIn) + 5 * 86_400_000).toISOString());
    const pin = await system().sms.pinOf(parcel.trackingNumber);
    // The pick-up SMS went out at the sync (RELAY_NOTIFIED now), and nothing is handed over before it: as
    // if the phone had been online then, its SMS is sent half an hour after the scan.
    const notified = await eventually(
      async () => (await agent("GET", `/parcels/${parcel.trackingNumber}`)).body.status,
      status => status === "RELAY_NOTIFIED"
    );
    expect(notified).toBe("RELAY_NOTIFIED");
    await sql()(`UPDATE parcels.status_history SET created_at = $2 WHERE parcel_id = $1 AND to_status = 'RELAY_NOTIFIED'`, [
      parcel.id,
      hoursAgo(2.5)
    ]);

    const handedOver = hoursAgo(1);
    const since = hoursAgo(2);
    const handover = await agent("POST", "/handovers", {
      trackingNumber: parcel.trackingNumber,
      pin,
      codCollectedDzd: 900,
      occurredAt: handedOver
    });
    expect(handover.status).toBe(200);
    expect((await agent("GET", "/cash")).body.items).toEqual([
      { trackingNumber: parcel.trackingNumber, amountDzd: 900, deliveredAt: handedOver, tender: "cash" }
    ]);
    const events = (await merchant.live("GET", `/parcels/${parcel.id}/events`)).body.items as { status: string; occurredAt: string }[];
    expect(events.find(e => e.status === "AT_RELAY")?.occurredAt).toBe(scannedIn);
    expect(events.find(e => e.status === "DELIVERED")?.occurredAt).toBe(handedOver);
    const today = await agent("GET", `/parcels?status=DELIVERED&since=${encodeURIComponent(since)}`);
    expect(today.body.items.map((p: { trackingNumber: string }) => p.trackingNumber)).toEqual([parcel.trackingNumber]);
    const tooLate = await agent("GET", `/parcels?status=DELIVERED&since=${encodeURIComponent(hoursAgo(0.5))}`);
    expect(tooLate.body.items).toEqual([]);
  });

  test("an arrival, hand-over or refusal dated before the parcel's previous event is 400 with that reason, and nothing happens", async () => {
    const code = await h.relayPoint({ holdingDays: 5 });
    const agent = await pairedAgo(code, 48);
    const parcel = await h.inTransit(merchant, code);
    await storyBack(parcel.id, 1);
    // 71 hours back is within the clock's 72, but the parcel left the hub an hour ago: it cannot have arrived then.
    const early = await agent("POST", "/arrivals", { trackingNumber: parcel.trackingNumber, occurredAt: hoursAgo(71) });
    expectError(early, 400, "OCCURRED_AT_OUT_OF_RANGE", "occurredAt");
    expect(reasonOf(early).message).toMatch(/^is before the parcel's previous event \(.+\)$/);
    expect((await agent("GET", `/parcels/${parcel.trackingNumber}`)).body).toMatchObject({ status: "IN_TRANSIT", pickupDeadline: null });

    const arrivedAt = hoursAgo(0.5);
    expect((await agent("POST", "/arrivals", { trackingNumber: parcel.trackingNumber, occurredAt: arrivedAt })).status).toBe(200);
    const pin = await system().sms.pinOf(parcel.trackingNumber);
    const beforeArrival = new Date(Date.parse(arrivedAt) - 60_000).toISOString();
    for (const [path, body] of [
      ["/handovers", { trackingNumber: parcel.trackingNumber, pin, occurredAt: beforeArrival }],
      ["/refusals", { trackingNumber: parcel.trackingNumber, reason: "refusé", occurredAt: beforeArrival }]
    ] as const) {
      const refused = await agent("POST", path, body);
      expectError(refused, 400, "OCCURRED_AT_OUT_OF_RANGE", "occurredAt");
      expect(reasonOf(refused).message).toMatch(/previous event/);
    }
    const after = (await agent("GET", `/parcels/${parcel.trackingNumber}`)).body;
    expect(["AT_RELAY", "RELAY_NOTIFIED"]).toContain(after.status);
    expect(after.pickupDeadline).toBe(new Date(Date.parse(arrivedAt) + 5 * 86_400_000).toISOString());
    // The refused hand-over cost no PIN try: the right PIN still hands it over, now.
    expect((await agent("POST", "/handovers", { trackingNumber: parcel.trackingNumber, pin })).status).toBe(200);
  });

  test("an operation dated before its device was paired is 400 with that reason", async () => {
    const code = await h.relayPoint();
    const agent = await pairedAgo(code, 1);
    const parcel = await h.inTransit(merchant, code);
    await storyBack(parcel.id, 10);
    const refused = await agent("POST", "/arrivals", { trackingNumber: parcel.trackingNumber, occurredAt: hoursAgo(2) });
    expectError(refused, 400, "OCCURRED_AT_OUT_OF_RANGE", "occurredAt");
    expect(reasonOf(refused).message).toMatch(/^is before this device was paired \(.+\)$/);
    expect((await agent("GET", `/parcels/${parcel.trackingNumber}`)).body.status).toBe("IN_TRANSIT");
    expect((await agent("POST", "/arrivals", { trackingNumber: parcel.trackingNumber, occurredAt: hoursAgo(0.5) })).status).toBe(200);
  });

  test("occurredAt in the future or more than 72 hours back is 400 OCCURRED_AT_OUT_OF_RANGE, and nothing happens", async () => {
    const code = await h.relayPoint();
    const agent = await h.agent(code);
    const parcel = await h.inTransit(merchant, code);
    const ahead = new Date(Date.now() + 60_000).toISOString();
    expectError(
      await agent("POST", "/arrivals", { trackingNumber: parcel.trackingNumber, occurredAt: ahead }),
      400,
      "OCCURRED_AT_OUT_OF_RANGE",
      "occurredAt"
    );
    expectError(
      await agent("POST", "/arrivals", { trackingNumber: parcel.trackingNumber, occurredAt: hoursAgo(73) }),
      400,
      "OCCURRED_AT_OUT_OF_RANGE"
    );
    expectError(
      await agent("POST", "/refusals", { trackingNumber: parcel.trackingNumber, reason: "x", occurredAt: hoursAgo(80) }),
      400,
      "OCCURRED_AT_OUT_OF_RANGE"
    );
    expectError(await agent("POST", "/drop-offs", { returnCode: "ABCDEFGH", occurredAt: ahead }), 400, "OCCURRED_AT_OUT_OF_RANGE");
    expectError(
      await agent("POST", "/arrivals", { trackingNumber: parcel.trackingNumber, occurredAt: "yesterday" }),
      400,
      "VALIDATION_FAILED",
      "occurredAt"
    );
    expect((await agent("GET", `/parcels/${parcel.trackingNumber}`)).body.status).toBe("IN_TRANSIT");
    // A few seconds of a phone's clock drift are no error.
    const drift = new Date(Date.now() + 3_000).toISOString();
    expect((await agent("POST", "/arrivals", { trackingNumber: parcel.trackingNumber, occurredAt: drift })).status).toBe(200);
  });
}

/** Offline hand-overs: verifiers for the shelf, and the server's own judgement of what was queued. */
export function offlineHandoverContract(system: () => SystemUnderTest): void {
  const h = relayHelpers(system);
  let merchant: Merchant;
  beforeAll(async () => {
    merchant = await h.m.create("Offline Handover SARL", 200_000);
  });
  type Verifier = { trackingNumber: string; codToCollectDzd: number | null; pinVersion: number; verifier: Record<string, any> };

  /** The recipient opens the pick-up SMS's link: the tracking page with the pickup pass; its text (the QR's) read from the page. */
  const passOf = async (trackingNumber: string): Promise<string> => {
    const link = await system().sms.passLinkOf(trackingNumber);
    const page = await fetch(system().baseUrl + link, { headers: { "X-Forwarded-For": freshAddress() } });
    expect(page.status).toBe(200);
    const pass = /data-pass="(RP1\.[A-Z0-9.]+)"/.exec(await page.text());
    if (!pass) throw new Error(`no pass on the page of ${trackingNumber}`);
    return pass[1];
  };

  test("verifiers only where the operator's limits allow an offline PIN: no COD, nothing declared above the limit, nothing locked", async () => {
    const { agent, parcels } = await shelfWith(h, system, merchant, [{ codAmountDzd: 700 }, {}, { declaredValueDzd: 20_000 }, {}]);
    const [cod, plain, valuable, locked] = parcels;
    for (let i = 0; i < 5; i++)
      await agent("POST", "/handovers", { trackingNumber: locked.trackingNumber, pin: locked.pin === "000000" ? "000001" : "000000" });
    const incoming = await h.inTransit(merchant, (await agent("GET", "/me")).body.relayCode);
    const res = await agent("GET", "/offline-verifiers");
    expect(res.status).toBe(200);
    const items = res.body.items as Verifier[];
    expect(items.map(i => i.trackingNumber)).toEqual([plain.trackingNumber]);
    for (const absent of [cod, valuable, locked, incoming]) expect(items.map(i => i.trackingNumber)).not.toContain(absent.trackingNumber);
    expect(res.body.pinHandoversLeftToday).toBe(3);
    const [item] = items;
    expect(Object.keys(item.verifier).sort()).toEqual(["alg", "hash", "iterations", "salt"]);
    const { salt, iterations, hash } = item.verifier;
    expect(pbkdf2Sync(plain.pin, Buffer.from(salt, "base64"), iterations, 32, "sha256").toString("base64")).toBe(hash);
    const wrong = plain.pin === "000000" ? "000001" : "000000";
    expect(pbkdf2Sync(wrong, Buffer.from(salt, "base64"), iterations, 32, "sha256").toString("base64")).not.toBe(hash);
    expect(item.codToCollectDzd).toBeNull();
    // The same verifier on the next fetch (the app may keep it).
    expect((await agent("GET", "/offline-verifiers")).body.items).toEqual(items);
  });

  test("a queued hand-over is accepted under the server's rules, or refused with PIN_RESET, PARCEL_EXPIRED or PARCEL_REDIRECTED", async () => {
    const { code, agent, parcels } = await shelfWith(h, system, merchant, [{}, {}, {}]);
    const [prepaid, reset, expiring] = parcels;
    const verifiers = new Map(((await agent("GET", "/offline-verifiers")).body.items as Verifier[]).map(v => [v.trackingNumber, v]));
    const offline = (parcel: { trackingNumber: string; pin: string }, extra: Record<string, unknown> = {}) =>
      agent("POST", "/handovers", {
        trackingNumber: parcel.trackingNumber,
        pin: parcel.pin,
        offline: true,
        pinVersion: verifiers.get(parcel.trackingNumber)?.pinVersion ?? 1,
        ...extra
      });

    expectError(await offline(prepaid, { codCollectedDzd: 0, tender: "card", tenderReference: "T-1" }), 400, "VALIDATION_FAILED", "tender");
    expect((await offline(prepaid)).body.status).toBe("DELIVERED");

    const parcelOf = async (trackingNumber: string) =>
      (await merchant.live("GET", `/parcels/by-tracking/${trackingNumber}`)).body as { id: string };
    expect((await h.bo().call("POST", `/parcels/${(await parcelOf(reset.trackingNumber)).id}/pickup-pin/reset`)).status).toBe(200);
    expectError(await offline(reset), 409, "PIN_RESET");

    const expiringId = (await parcelOf(expiring.trackingNumber)).id;
    await h.bo().call("PUT", `/parcels/${expiringId}/pickup-deadline`, { pickupDeadline: "2020-01-01T00:00:00Z" });
    await eventually(
      () => h.statusOf(merchant, expiringId),
      p => p.status === "RETURN_PENDING",
      200
    );
    expectError(await offline(expiring), 409, "PARCEL_EXPIRED");

    // Redirected before it arrived, while the phone thought it was coming here.
    const moved = await h.inTransit(merchant, code);
    const elsewhere = await h.relayPoint();
    expect((await merchant.live("POST", `/parcels/${moved.id}/redirect`, { destinationRelayCode: elsewhere })).status).toBe(200);
    expectError(await offline({ trackingNumber: moved.trackingNumber, pin: "123456" }), 409, "PARCEL_REDIRECTED");
  });

  test("offline with the PIN, the server holds the operator's limits: no COD, a few per device and day; with the pickup pass, a COD parcel goes", async () => {
    const { agent, parcels } = await shelfWith(h, system, merchant, [{ codAmountDzd: 700 }, {}, {}, {}, {}]);
    const [cod, ...prepaid] = parcels;
    const offlinePin = (parcel: { trackingNumber: string; pin: string }, extra: Record<string, unknown> = {}) =>
      agent("POST", "/handovers", { trackingNumber: parcel.trackingNumber, pin: parcel.pin, offline: true, pinVersion: 1, ...extra });
    const versions = new Map(
      ((await agent("GET", "/offline-verifiers")).body.items as Verifier[]).map(v => [v.trackingNumber, v.pinVersion])
    );
    const withVersion = (parcel: { trackingNumber: string }) => ({ pinVersion: versions.get(parcel.trackingNumber) });

    const refused = await offlinePin(cod, { codCollectedDzd: 700, pinVersion: 1 });
    expectError(refused, 409, "OFFLINE_PIN_REFUSED");
    expect(refused.body.message).toMatch(/cash to collect/);
    for (const parcel of prepaid.slice(0, 3)) expect((await offlinePin(parcel, withVersion(parcel))).body.status).toBe("DELIVERED");
    expect((await agent("GET", "/offline-verifiers")).body.pinHandoversLeftToday).toBe(0);
    const fourth = await offlinePin(prepaid[3], withVersion(prepaid[3]));
    expectError(fourth, 409, "OFFLINE_PIN_REFUSED");
    expect(fourth.body.message).toMatch(/OFFLINE_PIN_HANDOVERS_PER_DEVICE_PER_DAY/);
    // Online, the PIN goes as ever.
    expect((await agent("POST", "/handovers", { trackingNumber: prepaid[3].trackingNumber, pin: prepaid[3].pin })).status).toBe(200);

    // Each offline PIN hand-over is confirmed to its recipient by SMS, with the link to say "not me".
    const confirmation = await eventually(
      async () =>
        system()
          .sms.messagesFor(prepaid[0].trackingNumber)
          .find(text => text.includes("Pas vous ?")),
      text => text !== undefined
    );
    expect(confirmation).toMatch(
      new RegExp(
        `colis ${prepaid[0].trackingNumber} remis le \\d\\d/\\d\\d à \\d\\d:\\d\\d chez .+\\. Pas vous \\? https?://\\S+/t/[0-9A-Za-z]{13}$`
      )
    );
    // The online hand-over gets none.
    expect(
      system()
        .sms.messagesFor(prepaid[3].trackingNumber)
        .some(text => text.includes("Pas vous ?"))
    ).toBe(false);
    const address = freshAddress();
    const page = await fetch(system().baseUrl + /https?:\/\/[^/]+(\/t\/\S+)$/.exec(confirmation!)![1], {
      headers: { "X-Forwarded-For": address }
    });
    const html = await page.text();
    const form =
      /<form method="post" action="([^"]+\/dispute)">[\s\S]*?name="formToken" value="([^"]+)"[\s\S]*?name="pass" value="([0-9A-Za-z]+)"/.exec(
        html
      );
    expect(form).not.toBeNull();
    const posted = await fetch(system().baseUrl + form![1], {
      method: "POST",
      headers: { "Content-Type": "application/x-www-form-urlencoded", Origin: system().baseUrl, "X-Forwarded-For": address },
      body: new URLSearchParams({ formToken: form![2], pass: form![3] }).toString()
    });
    expect(posted.status).toBe(200);
    expect(await posted.text()).toContain("Merci, c&#39;est noté");
    const disputes = (await h.bo().call("GET", "/handover-disputes")).body.items as { trackingNumber: string; relayCode: string }[];
    expect(disputes.filter(d => d.trackingNumber === prepaid[0].trackingNumber)).toEqual([
      expect.objectContaining({ relayCode: (await agent("GET", "/me")).body.relayCode })
    ]);
    // Issue 44 D: and it is in the operators' investigations queue, once.
    const investigations = (await h.bo().call("GET", "/investigations?size=100")).body.items as {
      trackingNumber: string;
      reason: string;
    }[];
    expect(investigations.filter(i => i.trackingNumber === prepaid[0].trackingNumber).map(i => i.reason)).toEqual(["HANDOVER_DISPUTED"]);

    // The COD parcel with the recipient's pass, checked offline by the phone, then by the server: no PIN, no limit.
    const pass = await passOf(cod.trackingNumber);
    const handed = await agent("POST", "/handovers", { trackingNumber: cod.trackingNumber, pass, codCollectedDzd: 700, offline: true });
    expect(handed.status).toBe(200);
    expect(handed.body).toMatchObject({ status: "DELIVERED", codToCollectDzd: null });
    expect((await agent("GET", "/cash")).body.items.map((i: { trackingNumber: string }) => i.trackingNumber)).toContain(cod.trackingNumber);
  });

  test("the pickup pass: shown only from the SMS link, verified by the server; a new PIN voids it; another parcel's or a forged one is refused", async () => {
    const { code, agent, parcels } = await shelfWith(h, system, merchant, [{}, {}]);
    const [first, second] = parcels;
    const me = (await agent("GET", "/me")).body;
    expect(me.pickupPassKey).toMatch(/^[A-Za-z0-9+/]{43}=$/);
    const pass = await passOf(first.trackingNumber);
    expect(pass).toMatch(new RegExp(`^RP1\\.${first.trackingNumber}\\.1\\.[A-Z2-7]{103}$`));
    expect((await agent("GET", `/parcels/${first.trackingNumber}`)).body.passVersion).toBe(1);

    // The number alone, or a wrong key, shows the public page: no pass.
    for (const path of [`/track/${first.trackingNumber}`, `/track/${first.trackingNumber}?pass=AAAAAAAAAAAAA`]) {
      const page = await fetch(system().baseUrl + path, { headers: { "X-Forwarded-For": freshAddress() } });
      expect(page.status).toBe(200);
      expect(await page.text()).not.toContain("data-pass");
    }

    // Another parcel's pass, a forged signature, a pass of this parcel at another relay point: refused, no PIN try counted.
    const forged = pass.slice(0, -4) + (pass.endsWith("AAAA") ? "BBBB" : "AAAA");
    for (const wrong of [await passOf(second.trackingNumber), forged, "RP1.NOT-A-PASS"]) {
      expectError(
        await agent("POST", "/handovers", { trackingNumber: first.trackingNumber, pass: wrong }),
        409,
        "PICKUP_PASS_INVALID",
        "pass"
      );
    }
    const elsewhere = await h.agent(await h.relayPoint());
    expectError(await elsewhere("POST", "/handovers", { trackingNumber: first.trackingNumber, pass }), 404, "PARCEL_NOT_FOUND");

    // A new PIN (the recipient's "send me the code again", or an operator's reset) voids the pass shown before.
    const parcelId = ((await merchant.live("GET", `/parcels/by-tracking/${first.trackingNumber}`)).body as { id: string }).id;
    expect((await h.bo().call("POST", `/parcels/${parcelId}/pickup-pin/reset`)).status).toBe(200);
    expectError(await agent("POST", "/handovers", { trackingNumber: first.trackingNumber, pass, offline: true }), 409, "PICKUP_PASS_VOID");
    expect((await agent("GET", `/parcels/${first.trackingNumber}`)).body.passVersion).toBe(2);
    const renewed = await passOf(first.trackingNumber);
    expect(renewed).not.toBe(pass);
    expect(renewed).toMatch(new RegExp(`^RP1\\.${first.trackingNumber}\\.2\\.`));
    expect((await agent("POST", "/handovers", { trackingNumber: first.trackingNumber, pass: renewed })).body.status).toBe("DELIVERED");
    expect(code).toBe(me.relayCode);
  });

  test("wrong PINs typed offline are counted at the sync: they lock like the server's own, and more than five on a parcel flag it", async () => {
    const { agent, parcels } = await shelfWith(h, system, merchant, [{}, {}]);
    const [fewTries, manyTries] = parcels;
    const versions = new Map(
      ((await agent("GET", "/offline-verifiers")).body.items as Verifier[]).map(v => [v.trackingNumber, v.pinVersion])
    );
    const offline = (parcel: { trackingNumber: string; pin: string }, offlineWrongTries: number) =>
      agent("POST", "/handovers", {
        trackingNumber: parcel.trackingNumber,
        pin: parcel.pin,
        offline: true,
        pinVersion: versions.get(parcel.trackingNumber),
        offlineWrongTries
      });
    // Four wrong on the phone, then the right one: handed over, not flagged.
    expect((await offline(fewTries, 4)).status).toBe(200);
    // Six wrong on phones whose own lock was cleared: the parcel is locked at the sync, and flagged.
    expectError(await offline(manyTries, 6), 423, "PIN_LOCKED");
    const flagged = await h.bo().call("GET", "/offline-pin-flags");
    expect(flagged.status).toBe(200);
    const numbers = (flagged.body.items as { trackingNumber: string; offlineWrongTries: number }[]).map(i => i.trackingNumber);
    expect(numbers).toContain(manyTries.trackingNumber);
    expect(numbers).not.toContain(fewTries.trackingNumber);
    expect(flagged.body.items.find((i: { trackingNumber: string }) => i.trackingNumber === manyTries.trackingNumber)).toMatchObject({
      relayCode: (await agent("GET", "/me")).body.relayCode,
      offlineWrongTries: 6
    });
  });

  test("online, a card or QR payment is recorded beside cash: the till shows each tender, a closing counts the cash", async () => {
    const { agent, parcels } = await shelfWith(h, system, merchant, [{ codAmountDzd: 1000 }, { codAmountDzd: 400 }]);
    const [card, cash] = parcels;
    expectError(
      await agent("POST", "/handovers", { trackingNumber: card.trackingNumber, pin: card.pin, codCollectedDzd: 1000, tender: "card" }),
      400,
      "VALIDATION_FAILED",
      "tenderReference"
    );
    const paid = { trackingNumber: card.trackingNumber, pin: card.pin, codCollectedDzd: 1000, tender: "card", tenderReference: "TPE-889" };
    expect((await agent("POST", "/handovers", paid)).status).toBe(200);
    expect((await agent("POST", "/handovers", { trackingNumber: cash.trackingNumber, pin: cash.pin, codCollectedDzd: 400 })).status).toBe(
      200
    );
    const till = await agent("GET", "/cash");
    expect(till.body).toMatchObject({ count: 2, amountDzd: 400, byTender: { cash: 400, card: 1000, qr: 0 } });
    const closing = await agent("POST", "/cash/closings", { countedDzd: 400 });
    expect(closing.body).toMatchObject({ expectedDzd: 400, countedDzd: 400, differenceDzd: 0, count: 2 });
    expect((await agent("GET", "/cash")).body).toMatchObject({ count: 0, byTender: { cash: 0, card: 0, qr: 0 } });
  });
}

/** A one-tap reminder to a late collector: the holding period's reminder SMS, once a day per parcel. */
export function reminderContract(system: () => SystemUnderTest): void {
  const h = relayHelpers(system);
  test("a reminder from the counter sends the reminder SMS once; a second within 24 hours is 409; off the shelf is refused", async () => {
    const merchant = await h.m.create("Reminder SARL", 50_000);
    const { agent, parcels } = await shelfWith(h, system, merchant, [{}]);
    const [parcel] = parcels;
    const sent = await agent("POST", `/parcels/${parcel.trackingNumber}/reminders`);
    expect(sent.status).toBe(202);
    await eventually(
      async () => system().sms.messagesFor(parcel.trackingNumber).length,
      n => n >= 2
    );
    expect(system().sms.messagesFor(parcel.trackingNumber)).toHaveLength(2);
    const again = await agent("POST", `/parcels/${parcel.trackingNumber}/reminders`);
    expectError(again, 409, "CONFLICT");
    const other = await shelfWith(h, system, merchant, [{}]);
    expectError(await agent("POST", `/parcels/${other.parcels[0].trackingNumber}/reminders`), 404, "PARCEL_NOT_FOUND");
  });
}
