import { Client } from "pg";
import { backoffice, http, HttpResult, partner } from "../helpers/http";
import type { SystemUnderTest } from "./gateway-contract";

const VALID = {
  recipientName: "Amina Benali",
  recipientPhone: "+213 555 12 34 56",
  weightG: 1200,
  destinationRelayCode: "DZ-16-ALGER-CENTRE"
};
/** Price of VALID in resources/tariff.json: the 501–2000 g tier. */
const VALID_PRICE = 450;

function expectError(res: HttpResult, status: number, code: string, field?: string) {
  expect({ status: res.status, code: res.body?.code }).toEqual({ status, code });
  expect(res.body).toEqual(expect.objectContaining({ status, message: expect.any(String) }));
  if (field) expect(res.body.details.map((d: { field: string }) => d.field)).toContain(field);
}

interface Merchant {
  orgId: string;
  live: ReturnType<typeof partner>;
  sandbox: ReturnType<typeof partner>;
  liveKey: string;
}

/** The parcels and wallet contract (SPEC §4.2–4.7), run against any started system. */
export function parcelsContract(system: () => SystemUnderTest & { databaseUrl?: string }): void {
  const bo = () => backoffice(system().baseUrl, system().backofficeToken);

  async function merchant(name: string, liveDzd: number, sandboxDzd = 0, scopes?: string[]): Promise<Merchant> {
    const org = await bo().createOrganization(name);
    const liveKey = (await bo().createKey(org.id, { rateLimitPerMinute: 100_000, scopes })).key;
    const sandboxKey = (await bo().createKey(org.id, { mode: "sandbox", rateLimitPerMinute: 100_000 })).key;
    if (liveDzd > 0) await bo().call("POST", `/organizations/${org.id}/wallet/top-ups`, { amountDzd: liveDzd });
    if (sandboxDzd > 0) await bo().call("POST", `/organizations/${org.id}/wallet/top-ups`, { amountDzd: sandboxDzd, mode: "sandbox" });
    return { orgId: org.id, live: partner(system().baseUrl, liveKey), sandbox: partner(system().baseUrl, sandboxKey), liveKey };
  }

  async function balance(orgId: string, mode = "live"): Promise<number> {
    const res = await bo().call("GET", `/organizations/${orgId}/wallet?mode=${mode}`);
    expect(res.status).toBe(200);
    return res.body.balanceDzd;
  }

  let m: Merchant;
  beforeAll(async () => {
    m = await merchant("Bounds SARL", 1_000_000, 10_000);
    // Relay codes at both ends of the SPEC's length bounds, so that valid shapes can succeed.
    for (const code of ["DZ-ABC", "DZ-" + "A".repeat(30)]) {
      const res = await bo().call("POST", "/relay-points", { code, name: "Point test", city: "Alger" });
      expect(res.status).toBe(201);
    }
    await bo().call("POST", "/relay-points", { code: "DZ-CLOSED-POINT", name: "Fermé", city: "Oran", active: false });
  });

  describe("create: every bound on both sides", () => {
    const cases: Array<[string, Record<string, unknown>, string | null]> = [
      ["weight 0", { weightG: 0 }, "weightG"],
      ["weight 1", { weightG: 1 }, null],
      ["weight 30000", { weightG: 30000 }, null],
      ["weight 30001", { weightG: 30001 }, "weightG"],
      ["weight 1.5", { weightG: 1.5 }, "weightG"],
      ["weight as a string", { weightG: "100" }, "weightG"],
      ["name of 100 characters", { recipientName: "N".repeat(100) }, null],
      ["name of 101 characters", { recipientName: "N".repeat(101) }, "recipientName"],
      ["blank name", { recipientName: "   " }, "recipientName"],
      ["phone of 7 digits", { recipientPhone: "0555123" }, "recipientPhone"],
      ["phone of 8 digits", { recipientPhone: "05551234" }, null],
      ["phone of 20 characters", { recipientPhone: "0555 12 34 56 78 901" }, null],
      ["phone of 21 characters", { recipientPhone: "0555 12 34 56 78 9012" }, "recipientPhone"],
      ["phone with a leading +", { recipientPhone: "+21355512345" }, null],
      ["phone with letters", { recipientPhone: "0555-12-34-56" }, "recipientPhone"],
      ["relay suffix of 2", { destinationRelayCode: "DZ-AB" }, "destinationRelayCode"],
      ["relay suffix of 3", { destinationRelayCode: "DZ-ABC" }, null],
      ["relay suffix of 30", { destinationRelayCode: "DZ-" + "A".repeat(30) }, null],
      ["relay suffix of 31", { destinationRelayCode: "DZ-" + "A".repeat(31) }, "destinationRelayCode"],
      ["relay in lower case", { destinationRelayCode: "dz-16-alger-centre" }, "destinationRelayCode"],
      ["dimension 0", { lengthCm: 0 }, "lengthCm"],
      ["dimensions 1 and 300", { lengthCm: 1, widthCm: 300, heightCm: 20 }, null],
      ["dimension 301", { heightCm: 301 }, "heightCm"],
      ["dimension 2.5", { widthCm: 2.5 }, "widthCm"],
      ["declared value 0", { declaredValueDzd: 0 }, null],
      ["declared value -0.01", { declaredValueDzd: -0.01 }, "declaredValueDzd"],
      ["declared value 10 000 000", { declaredValueDzd: 10_000_000 }, null],
      ["declared value 10 000 000.01", { declaredValueDzd: 10_000_000.01 }, "declaredValueDzd"],
      ["declared value with 3 decimals", { declaredValueDzd: 12.345 }, "declaredValueDzd"],
      ["COD 19.99", { codAmountDzd: 19.99 }, null],
      ["COD null", { codAmountDzd: null }, null],
      ["COD -1", { codAmountDzd: -1 }, "codAmountDzd"],
      ["COD as a string", { codAmountDzd: "1500" }, "codAmountDzd"],
      ["an unknown field", { colour: "red" }, "colour"]
    ];
    test.each(cases)("%s", async (_label, change, badField) => {
      const res = await m.live("POST", "/parcels", { ...VALID, ...change });
      if (badField === null) {
        expect(res.status).toBe(201);
      } else {
        expectError(res, 400, "VALIDATION_FAILED", badField);
      }
    });

    test.each(["recipientName", "recipientPhone", "weightG", "destinationRelayCode"])("missing %s", async field => {
      const body: Record<string, unknown> = { ...VALID };
      delete body[field];
      expectError(await m.live("POST", "/parcels", body), 400, "VALIDATION_FAILED", field);
    });

    test("all problems are reported at once", async () => {
      const res = await m.live("POST", "/parcels", { recipientName: "", recipientPhone: "1", weightG: 0, destinationRelayCode: "X" });
      expect(res.body.details.map((d: { field: string }) => d.field).sort()).toEqual([
        "destinationRelayCode",
        "recipientName",
        "recipientPhone",
        "weightG"
      ]);
    });

    test("unknown or inactive relay point → 400 RELAY_NOT_FOUND", async () => {
      expectError(await m.live("POST", "/parcels", { ...VALID, destinationRelayCode: "DZ-99-NOWHERE" }), 400, "RELAY_NOT_FOUND");
      expectError(await m.live("POST", "/parcels", { ...VALID, destinationRelayCode: "DZ-CLOSED-POINT" }), 400, "RELAY_NOT_FOUND");
    });

    test("a body that is not an object is refused", async () => {
      const res = await http(system().baseUrl, "POST", "/api/partner/v1/parcels", {
        headers: { Authorization: `ApiKey ${m.liveKey}`, "Content-Type": "application/json" },
        rawBody: "[1,2]"
      });
      expect(res.status).toBe(400);
    });
  });

  test("201: the parcel view, a Location to it, an S10 tracking number, and no recipient data", async () => {
    const before = await balance(m.orgId);
    const res = await m.live("POST", "/parcels", { ...VALID, codAmountDzd: 1500, declaredValueDzd: 2000 });
    expect(res.status).toBe(201);
    expect(Object.keys(res.body).sort()).toEqual([
      "codAmountDzd",
      "codCashAt",
      "codStatus",
      "createdAt",
      "custody",
      "destinationRelayCode",
      "direction",
      "id",
      "insuredValueDzd",
      "labelUrl",
      "pickupDeadline",
      "pricePaidDzd",
      "returnFeeDzd",
      "returnOf",
      "status",
      "trackingNumber",
      "updatedAt"
    ]);
    expect(res.body).toMatchObject({ status: "CREATED", destinationRelayCode: VALID.destinationRelayCode, codAmountDzd: 1500 });
    // Issue 44: a new parcel is with its merchant, since its creation.
    expect(res.body.custody).toEqual({ holder: "merchant", since: res.body.createdAt, name: null, wilaya: null });
    // A merchant's own parcel goes out; a customer's return (issue 21) would say RETURN and name its parcel.
    expect(res.body).toMatchObject({ direction: "OUTBOUND", returnOf: null });
    // Not at a relay point yet, never returned.
    expect(res.body).toMatchObject({ pickupDeadline: null, returnFeeDzd: null });
    expect(res.body.trackingNumber).toMatch(/^RP\d{9}DZ$/);
    expect(res.headers.get("location")).toBe(`${res.headers.get("location")!.split("/api/")[0]}/api/partner/v1/parcels/${res.body.id}`);
    expect(res.text).not.toContain("Amina");
    expect(res.text).not.toContain("555 12");
    // Price = tier + COD fee (1 %, at least 50 DZD); insurance is free up to 5 000 DZD declared.
    expect(res.body.pricePaidDzd).toBe(VALID_PRICE + 50);
    expect(await balance(m.orgId)).toBe(before - res.body.pricePaidDzd);

    const again = await m.live("GET", `/parcels/${res.body.id}`);
    expect(again.status).toBe(200);
    expect({ ...again.body, labelUrl: null }).toEqual({ ...res.body, labelUrl: null });
    const byTracking = await m.live("GET", `/parcels/by-tracking/${res.body.trackingNumber}`);
    expect(byTracking.body.id).toBe(res.body.id);
  });

  test("the back-office's 201s carry a Location to what they made (a top-up: the wallet; a key: the organisation's keys)", async () => {
    const org = await bo().createOrganization("Location SARL");
    const topUp = await bo().call("POST", `/organizations/${org.id}/wallet/top-ups`, { amountDzd: 100 });
    expect(topUp.status).toBe(201);
    expect(topUp.headers.get("location")).toMatch(new RegExp(`/api/backoffice/v1/organizations/${org.id}/wallet$`));
    const key = await bo().call("POST", `/organizations/${org.id}/api-keys`, { mode: "live" });
    expect(key.status).toBe(201);
    expect(key.headers.get("location")).toMatch(new RegExp(`/api/backoffice/v1/organizations/${org.id}/api-keys$`));
    expect((await bo().call("GET", new URL(key.headers.get("location")!).pathname.replace("/api/backoffice/v1", ""))).status).toBe(200);
  });

  test("402 INSUFFICIENT_BALANCE, and nothing is created or debited", async () => {
    const poor = await merchant("Petit Budget", 100);
    expectError(await poor.live("POST", "/parcels", VALID), 402, "INSUFFICIENT_BALANCE");
    expect(await balance(poor.orgId)).toBe(100);
    expect((await poor.live("GET", "/parcels")).body.totalElements).toBe(0);
  });

  test("scopes: parcels:write to create and cancel, parcels:read to read", async () => {
    const readOnly = await merchant("Lecture Seule", 10_000, 0, ["parcels:read"]);
    expectError(await readOnly.live("POST", "/parcels", VALID), 403, "SCOPE_MISSING");
    expect((await readOnly.live("GET", "/parcels")).status).toBe(200);
    const writeOnly = await merchant("Ecriture Seule", 10_000, 0, ["parcels:write"]);
    expect((await writeOnly.live("POST", "/parcels", VALID)).status).toBe(201);
    expectError(await writeOnly.live("GET", "/parcels"), 403, "SCOPE_MISSING");
  });

  test("malformed ids and query values are 400, never 500", async () => {
    expectError(await m.live("GET", "/parcels/not-a-uuid"), 400, "VALIDATION_FAILED", "id");
    expectError(await m.live("POST", "/parcels/123/cancel"), 400, "VALIDATION_FAILED", "id");
    expectError(await m.live("GET", "/parcels?page=-1"), 400, "VALIDATION_FAILED", "page");
    expectError(await m.live("GET", "/parcels?page=abc"), 400, "VALIDATION_FAILED", "page");
    expectError(await m.live("GET", "/parcels?size=0"), 400, "VALIDATION_FAILED", "size");
    expectError(await m.live("GET", "/parcels?size=101"), 400, "VALIDATION_FAILED", "size");
    expectError(await m.live("GET", "/parcels?size=1.5"), 400, "VALIDATION_FAILED", "size");
    expectError(await m.live("GET", "/parcels?status=SHIPPED"), 400, "VALIDATION_FAILED", "status");
    expectError(await m.live("GET", "/parcels/7c0e2f7a-9a53-4a43-8d5e-3b7f0d1c2e4a"), 404, "PARCEL_NOT_FOUND");
    expectError(await m.live("GET", "/parcels/by-tracking/RP000000000DZ"), 404, "PARCEL_NOT_FOUND");
  });

  describe("Idempotency-Key", () => {
    test("same key and body twice → the same parcel and one debit", async () => {
      const before = await balance(m.orgId);
      const key = { "Idempotency-Key": `order-${Date.now()}` };
      const first = await m.live("POST", "/parcels", VALID, key);
      const second = await m.live("POST", "/parcels", { ...VALID }, key);
      expect(first.status).toBe(201);
      expect(second.status).toBe(201);
      expect(second.body.id).toBe(first.body.id);
      expect(await balance(m.orgId)).toBe(before - VALID_PRICE);
    });

    test("same key, other body → 422 IDEMPOTENCY_KEY_REUSED", async () => {
      const key = { "Idempotency-Key": `order-b-${Date.now()}` };
      expect((await m.live("POST", "/parcels", VALID, key)).status).toBe(201);
      expectError(await m.live("POST", "/parcels", { ...VALID, weightG: 999 }, key), 422, "IDEMPOTENCY_KEY_REUSED");
    });

    test("no key → two parcels, two debits", async () => {
      const before = await balance(m.orgId);
      const [a, b] = [await m.live("POST", "/parcels", VALID), await m.live("POST", "/parcels", VALID)];
      expect(a.body.id).not.toBe(b.body.id);
      expect(await balance(m.orgId)).toBe(before - 2 * VALID_PRICE);
    });

    test("the same key at the same moment still gives one parcel", async () => {
      const before = await balance(m.orgId);
      const key = { "Idempotency-Key": `order-c-${Date.now()}` };
      const results = await Promise.all(Array.from({ length: 5 }, () => m.live("POST", "/parcels", VALID, key)));
      const created = results.filter(r => r.status === 201);
      expect(created.length).toBeGreaterThan(0);
      expect(new Set(created.map(r => r.body.id)).size).toBe(1);
      for (const r of results.filter(r => r.status !== 201)) expectError(r, 409, "IDEMPOTENCY_KEY_IN_USE");
      expect(await balance(m.orgId)).toBe(before - VALID_PRICE);
    });
  });

  test("isolation: another organisation's parcel is 404 everywhere; live and sandbox never mix", async () => {
    const other = await merchant("Concurrent SARL", 10_000, 10_000);
    const mine = (await m.live("POST", "/parcels", VALID)).body;
    const mineSandbox = (await m.sandbox("POST", "/parcels", VALID)).body;
    for (const [caller, parcel] of [
      [other.live, mine],
      [other.sandbox, mineSandbox],
      [m.sandbox, mine],
      [m.live, mineSandbox]
    ] as const) {
      expectError(await caller("GET", `/parcels/${parcel.id}`), 404, "PARCEL_NOT_FOUND");
      expectError(await caller("GET", `/parcels/by-tracking/${parcel.trackingNumber}`), 404, "PARCEL_NOT_FOUND");
      expectError(await caller("POST", `/parcels/${parcel.id}/cancel`), 404, "PARCEL_NOT_FOUND");
      const list = await caller("GET", "/parcels?size=100");
      expect(list.body.items.map((p: { id: string }) => p.id)).not.toContain(parcel.id);
    }
    expect((await m.live("GET", `/parcels/${mine.id}`)).status).toBe(200);
    expect((await m.sandbox("GET", `/parcels/${mineSandbox.id}`)).status).toBe(200);
  });

  test("sandbox parcels are paid from the sandbox wallet", async () => {
    const s = await merchant("Bac à sable", 1_000, 5_000);
    expect((await s.sandbox("POST", "/parcels", VALID)).status).toBe(201);
    expect(await balance(s.orgId, "sandbox")).toBe(5_000 - VALID_PRICE);
    expect(await balance(s.orgId, "live")).toBe(1_000);
  });

  test("cancel: 200 CANCELLED and the exact price back, once, even when called twice at once", async () => {
    const c = await merchant("Annulations", 2_000);
    const parcel = (await c.live("POST", "/parcels", { ...VALID, codAmountDzd: 5000 })).body;
    expect(await balance(c.orgId)).toBe(2_000 - parcel.pricePaidDzd);
    const [a, b] = await Promise.all([
      c.live("POST", `/parcels/${parcel.id}/cancel`, { reason: "client changed mind" }),
      c.live("POST", `/parcels/${parcel.id}/cancel`)
    ]);
    expect([a.status, b.status].sort()).toEqual([200, 409]);
    const ok = a.status === 200 ? a : b;
    expect(ok.body.status).toBe("CANCELLED");
    expectError(a.status === 409 ? a : b, 409, "PARCEL_NOT_CANCELLABLE");
    expect(await balance(c.orgId)).toBe(2_000);
    const ledger = (await bo().call("GET", `/organizations/${c.orgId}/wallet`)).body.entries;
    expect(ledger.filter((e: { kind: string }) => e.kind === "refund")).toEqual([
      expect.objectContaining({ kind: "refund", amountDzd: parcel.pricePaidDzd, parcelId: parcel.id })
    ]);
  });

  test("cancel works from READY_FOR_PICKUP, and 409 once picked up", async () => {
    const p1 = (await m.live("POST", "/parcels", VALID)).body;
    expect((await bo().call("POST", `/parcels/${p1.id}/transitions`, { toStatus: "READY_FOR_PICKUP" })).status).toBe(200);
    expect((await m.live("POST", `/parcels/${p1.id}/cancel`)).body.status).toBe("CANCELLED");
    const p2 = (await m.live("POST", "/parcels", VALID)).body;
    await bo().call("POST", `/parcels/${p2.id}/transitions`, { toStatus: "READY_FOR_PICKUP" });
    await bo().call("POST", `/parcels/${p2.id}/transitions`, { toStatus: "PICKED_UP" });
    expectError(await m.live("POST", `/parcels/${p2.id}/cancel`), 409, "PARCEL_NOT_CANCELLABLE");
  });

  test("operator transitions follow the graph; anything else is 409, an unknown status 400", async () => {
    const p = (await m.live("POST", "/parcels", VALID)).body;
    const move = (toStatus: string, pin?: string) => bo().call("POST", `/parcels/${p.id}/transitions`, { toStatus, reason: "scan", pin });
    expectError(await move("DELIVERED"), 409, "INVALID_TRANSITION");
    expectError(await move("TELEPORTED"), 400, "INVALID_STATUS");
    for (const status of ["READY_FOR_PICKUP", "PICKED_UP", "IN_TRANSIT", "AT_RELAY", "DELIVERED"]) {
      const res = await move(status, status === "DELIVERED" ? await system().sms.pinOf(p.trackingNumber) : undefined);
      expect(res.status).toBe(200);
      expect(res.body.status).toBe(status);
    }
    expectError(await move("RETURN_PENDING"), 409, "INVALID_TRANSITION");
    expectError(
      await bo().call("POST", `/parcels/7c0e2f7a-9a53-4a43-8d5e-3b7f0d1c2e4a/transitions`, { toStatus: "LOST" }),
      404,
      "PARCEL_NOT_FOUND"
    );
  });

  describe("sandbox trigger-event", () => {
    test("moves a sandbox parcel to any status: 202 with previous and new status", async () => {
      const p = (await m.sandbox("POST", "/parcels", VALID)).body;
      const res = await m.sandbox("POST", `/sandbox/parcels/${p.id}/trigger-event`, { toStatus: "DELIVERED", reason: "test run" });
      expect(res.status).toBe(202);
      expect(res.body).toEqual({
        parcelId: p.id,
        trackingNumber: p.trackingNumber,
        previousStatus: "CREATED",
        newStatus: "DELIVERED",
        triggeredAt: expect.stringMatching(/Z$/)
      });
      expect((await m.sandbox("GET", `/parcels/${p.id}`)).body.status).toBe("DELIVERED");
    });

    test("403 for a live key, a live parcel or another organisation's parcel; 404 when unknown; 400 for a bad status", async () => {
      const live = (await m.live("POST", "/parcels", VALID)).body;
      const sandbox = (await m.sandbox("POST", "/parcels", VALID)).body;
      const other = await merchant("Autre Bac", 0, 5_000);
      expectError(await m.live("POST", `/sandbox/parcels/${live.id}/trigger-event`, { toStatus: "LOST" }), 403, "SANDBOX_KEY_REQUIRED");
      expectError(await m.sandbox("POST", `/sandbox/parcels/${live.id}/trigger-event`, { toStatus: "LOST" }), 403, "NOT_SANDBOX_PARCEL");
      expectError(await other.sandbox("POST", `/sandbox/parcels/${sandbox.id}/trigger-event`, { toStatus: "LOST" }), 403, "FORBIDDEN");
      expectError(
        await m.sandbox("POST", `/sandbox/parcels/7c0e2f7a-9a53-4a43-8d5e-3b7f0d1c2e4a/trigger-event`, { toStatus: "LOST" }),
        404,
        "PARCEL_NOT_FOUND"
      );
      expectError(await m.sandbox("POST", `/sandbox/parcels/${sandbox.id}/trigger-event`, { toStatus: "FLYING" }), 400, "INVALID_STATUS");
      expect((await m.sandbox("GET", `/parcels/${sandbox.id}`)).body.status).toBe("CREATED");
    });
  });

  test("money conservation: 200 concurrent creates against a wallet that pays exactly 150", async () => {
    const rich = await merchant("Cent Cinquante", 150 * VALID_PRICE);
    const results = await Promise.all(Array.from({ length: 200 }, () => rich.live("POST", "/parcels", VALID)));
    const statuses = results.map(r => r.status);
    expect(statuses.filter(s => s === 201)).toHaveLength(150);
    expect(statuses.filter(s => s === 402)).toHaveLength(50);
    expect(await balance(rich.orgId)).toBe(0);
    expect((await rich.live("GET", "/parcels?size=1")).body.totalElements).toBe(150);
  });

  test("a list of 250 parcels pages correctly at sizes 1, 20 and 100, newest first, with the status filter", async () => {
    const lister = await merchant("Grande Liste", 250 * VALID_PRICE);
    const created: string[] = [];
    for (let i = 0; i < 250; i += 25) {
      const batch = await Promise.all(Array.from({ length: 25 }, () => lister.live("POST", "/parcels", VALID)));
      for (const r of batch) {
        expect(r.status).toBe(201);
        created.push(r.body.id);
      }
    }
    const cancelled = created.slice(0, 10);
    for (const id of cancelled) expect((await lister.live("POST", `/parcels/${id}/cancel`)).status).toBe(200);

    for (const size of [1, 20, 100]) {
      const pages = Math.ceil(250 / size);
      const seen: Array<{ id: string; createdAt: string }> = [];
      for (let page = 0; page < pages; page++) {
        const res = await lister.live("GET", `/parcels?page=${page}&size=${size}`);
        expect(res.status).toBe(200);
        expect(res.body).toMatchObject({ page, size, totalElements: 250, totalPages: pages });
        expect(res.body.items).toHaveLength(page === pages - 1 ? 250 - size * (pages - 1) : size);
        seen.push(...res.body.items);
      }
      expect(new Set(seen.map(p => p.id)).size).toBe(250);
      expect(new Set(seen.map(p => p.id))).toEqual(new Set(created));
      for (let i = 1; i < seen.length; i++) expect(seen[i - 1].createdAt >= seen[i].createdAt).toBe(true);
      const beyond = await lister.live("GET", `/parcels?page=${pages}&size=${size}`);
      expect(beyond.body.items).toEqual([]);
    }

    const onlyCancelled = await lister.live("GET", "/parcels?status=CANCELLED&size=100");
    expect(onlyCancelled.body.totalElements).toBe(10);
    expect(new Set(onlyCancelled.body.items.map((p: { id: string }) => p.id))).toEqual(new Set(cancelled));
    const created20 = await lister.live("GET", "/parcels?status=CREATED&size=20&page=11");
    expect(created20.body).toMatchObject({ totalElements: 240, totalPages: 12 });
    expect(created20.body.items).toHaveLength(20);
    expect((await lister.live("GET", "/parcels?status=RELAY_NOTIFIED")).body.totalElements).toBe(0);
  }, 120_000);

  test("the recipient's name and phone are encrypted at rest", async () => {
    const url = system().databaseUrl;
    if (!url) return; // the embedded database belongs to the running process; checked in distributed mode
    const parcel = (await m.live("POST", "/parcels", { ...VALID, recipientName: "Yacine Khelifi", recipientPhone: "0661 98 76 54" })).body;
    const client = new Client({ connectionString: url });
    await client.connect();
    try {
      const { rows } = await client.query("SELECT * FROM parcels.parcels WHERE id = $1", [parcel.id]);
      const stored = JSON.stringify(rows);
      expect(rows).toHaveLength(1);
      expect(stored).not.toContain("Yacine");
      expect(stored).not.toContain("0661 98");
      expect(rows[0].recipient_name_enc).toMatch(/^v1:/);
    } finally {
      await client.end();
    }
  });
}
