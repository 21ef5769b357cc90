import { algiersDate } from "../../lib/cod";
import { distanceKm, LatLng } from "../../lib/geo";
import type { RelayPointEntry } from "../../lib/relay-points";
import { addDays } from "../../services/parcels/calendar-date";
import { RelayPointSearchQuery, searchRelayPoints } from "../../services/parcels/relay-search";
import type { SystemUnderTest } from "./gateway-contract";
import { http } from "../helpers/http";
import { eventually, expectError, freshAddress, Merchant, merchants, PARCEL } from "./merchant-helpers";

/**
 * What merchants look at every day (issue 11, items 3 to 6), run against any started system:
 * a parcel's history, quotes, the relay-point search and the wallet, each with its fields,
 * bounds, errors, scope and isolation by organisation and mode.
 */
export function merchantContract(system: () => SystemUnderTest): void {
  const m = merchants(system);
  let shop: Merchant;
  let rival: Merchant;

  beforeAll(async () => {
    shop = await m.create("Maison du Merchant", 1_000_000, 100_000);
    rival = await m.create("Rival SARL", 100_000, 100_000);
  });

  describe("GET /parcels/{id}/events", () => {
    test("oldest first, each with its previous status, its reason and who made it", async () => {
      const parcel = (await shop.live("POST", "/parcels", PARCEL)).body;
      await m.move(parcel.id, "READY_FOR_PICKUP");
      expect((await shop.live("POST", `/parcels/${parcel.id}/cancel`, { reason: "client changed mind" })).status).toBe(200);
      const res = await shop.live("GET", `/parcels/${parcel.id}/events`);
      expect(res.status).toBe(200);
      expect(res.body).toEqual({
        items: [
          { status: "CREATED", previousStatus: null, occurredAt: expect.stringMatching(/Z$/), reason: null, source: "merchant" },
          {
            status: "READY_FOR_PICKUP",
            previousStatus: "CREATED",
            occurredAt: expect.stringMatching(/Z$/),
            reason: "scan READY_FOR_PICKUP",
            source: "operator"
          },
          {
            status: "CANCELLED",
            previousStatus: "READY_FOR_PICKUP",
            occurredAt: expect.stringMatching(/Z$/),
            reason: "client changed mind",
            source: "merchant"
          }
        ]
      });
      const times = res.body.items.map((e: { occurredAt: string }) => Date.parse(e.occurredAt));
      expect([...times].sort((a, b) => a - b)).toEqual(times);
    });

    test("the pick-up SMS moves the parcel on by itself (source system); the sandbox trigger is source sandbox", async () => {
      const parcel = (await shop.live("POST", "/parcels", PARCEL)).body;
      await m.move(parcel.id, "READY_FOR_PICKUP", "PICKED_UP", "IN_TRANSIT", "AT_RELAY");
      const events = await eventually(
        async () => (await shop.live("GET", `/parcels/${parcel.id}/events`)).body.items as { status: string; source: string }[],
        items => items.some(e => e.status === "RELAY_NOTIFIED")
      );
      expect(events.map(e => `${e.status}/${e.source}`)).toEqual([
        "CREATED/merchant",
        "READY_FOR_PICKUP/operator",
        "PICKED_UP/operator",
        "IN_TRANSIT/operator",
        "AT_RELAY/operator",
        "RELAY_NOTIFIED/system"
      ]);

      const trial = (await shop.sandbox("POST", "/parcels", PARCEL)).body;
      await shop.sandbox("POST", `/sandbox/parcels/${trial.id}/trigger-event`, { toStatus: "LOST", reason: "test run" });
      expect((await shop.sandbox("GET", `/parcels/${trial.id}/events`)).body.items.slice(1)).toEqual([
        { status: "LOST", previousStatus: "CREATED", occurredAt: expect.any(String), reason: "test run", source: "sandbox" }
      ]);
    });

    test("404 for another organisation's parcel or the other mode's; 400 for a malformed id; parcels:read needed", async () => {
      const live = (await shop.live("POST", "/parcels", PARCEL)).body;
      const sandbox = (await shop.sandbox("POST", "/parcels", PARCEL)).body;
      for (const [caller, parcel] of [
        [rival.live, live],
        [rival.sandbox, sandbox],
        [shop.sandbox, live],
        [shop.live, sandbox]
      ] as const) {
        expectError(await caller("GET", `/parcels/${parcel.id}/events`), 404, "PARCEL_NOT_FOUND");
      }
      expectError(await shop.live("GET", "/parcels/7c0e2f7a-9a53-4a43-8d5e-3b7f0d1c2e4a/events"), 404, "PARCEL_NOT_FOUND");
      expectError(await shop.live("GET", "/parcels/not-a-uuid/events"), 400, "VALIDATION_FAILED", "id");
      const writeOnly = await m.keyWith(shop.orgId, ["parcels:write"]);
      expectError(await writeOnly("GET", `/parcels/${live.id}/events`), 403, "SCOPE_MISSING");
    });
  });

  describe("POST /parcels/quote", () => {
    // Weight tiers at both ends, COD below and above the minimum fee, declared values below and above the free allowance.
    const TABLE: Array<[number, number | null, number | null]> = [
      [1, null, null],
      [500, null, null],
      [501, 0, 5000],
      [1200, 1500, null],
      [2000, 19.99, 5000.01],
      [2001, 4999.99, 12_345.67],
      [5000, 10_000, 100_000],
      [10_000, null, 9_999_999.99],
      [20_000, 10_000_000, null],
      [30_000, 250.5, 7_500]
    ];

    test.each(TABLE)("weight %p g, COD %p, declared %p: the quote is what the creation then debits", async (weightG, cod, declared) => {
      const body = { ...PARCEL, weightG, codAmountDzd: cod, declaredValueDzd: declared };
      const balance = async () => (await shop.live("GET", "/wallet")).body.balanceDzd as number;
      const before = await balance();
      const { recipientName: _name, recipientPhone: _phone, ...pricing } = body;
      const quote = await shop.live("POST", "/parcels/quote", pricing);
      expect(quote.status).toBe(200);
      expect(quote.body.currency).toBe("DZD");
      const parts = quote.body.breakdown.reduce((sum: number, p: { amountDzd: number }) => sum + Math.round(p.amountDzd * 100), 0);
      expect(parts).toBe(Math.round(quote.body.priceDzd * 100));
      // RETURN_FEE_PERCENT (50) % of the shipping price alone (issue 26: never of the COD fee or the insurance), to the centime.
      const shipping = quote.body.breakdown.find((p: { item: string }) => p.item === "shipping").amountDzd as number;
      expect(Math.round(quote.body.returnFeeDzd * 100)).toBe(Math.round(Math.round(shipping * 100) / 2));
      expect(await balance()).toBe(before);
      // The whole creation body quotes alike: the recipient is checked, then ignored.
      expect((await shop.live("POST", "/parcels/quote", body)).body).toEqual(quote.body);
      const created = await shop.live("POST", "/parcels", body);
      expect(created.status).toBe(201);
      expect(created.body.pricePaidDzd).toBe(quote.body.priceDzd);
      expect(Math.round((before - (await balance())) * 100)).toBe(Math.round(quote.body.priceDzd * 100));
    });

    test("the breakdown names the tier and each fee that applies", async () => {
      const res = await shop.live("POST", "/parcels/quote", {
        weightG: 1200,
        destinationRelayCode: "DZ-31-ORAN-CENTRE",
        declaredValueDzd: 20_000,
        codAmountDzd: 1500
      });
      expect(res.body).toEqual({
        priceDzd: 650,
        // Half the shipping price (450): the insurance and the COD fee are not taken again on a return.
        returnFeeDzd: 225,
        insuredValueDzd: 20000,
        currency: "DZD",
        breakdown: [
          { item: "shipping", amountDzd: 450 },
          { item: "insurance", amountDzd: 150 },
          { item: "cod", amountDzd: 50 }
        ]
      });
      expect((await shop.sandbox("POST", "/parcels/quote", { weightG: 1200, destinationRelayCode: "DZ-31-ORAN-CENTRE" })).body).toEqual({
        priceDzd: 450,
        returnFeeDzd: 225,
        // No declared value: the default 5 000 is insured, within the price.
        insuredValueDzd: 5000,
        currency: "DZD",
        breakdown: [{ item: "shipping", amountDzd: 450 }]
      });
    });

    test.each([
      ["weight 0", { weightG: 0 }, "weightG"],
      ["weight 30001", { weightG: 30001 }, "weightG"],
      ["weight as a string", { weightG: "1200" }, "weightG"],
      ["relay in lower case", { destinationRelayCode: "dz-16-alger-centre" }, "destinationRelayCode"],
      ["dimension 301", { heightCm: 301 }, "heightCm"],
      ["declared value -0.01", { declaredValueDzd: -0.01 }, "declaredValueDzd"],
      ["COD with 3 decimals", { codAmountDzd: 12.345 }, "codAmountDzd"],
      ["COD over 10 000 000", { codAmountDzd: 10_000_000.01 }, "codAmountDzd"],
      ["a recipient phone that is none", { recipientPhone: "1" }, "recipientPhone"],
      ["an unknown field", { colour: "red" }, "colour"]
    ])("400 as a creation: %s", async (_label, change, field) => {
      expectError(
        await shop.live("POST", "/parcels/quote", { weightG: 1200, destinationRelayCode: "DZ-16-ALGER-CENTRE", ...change }),
        400,
        "VALIDATION_FAILED",
        field
      );
    });

    test("missing fields are named all at once; an unknown or closed relay point is RELAY_NOT_FOUND; nothing is created", async () => {
      const q = await m.create("Devis Seulement", 1_000);
      const res = await q.live("POST", "/parcels/quote", {});
      expect(res.body.details.map((d: { field: string }) => d.field).sort()).toEqual(["destinationRelayCode", "weightG"]);
      expectError(await q.live("POST", "/parcels/quote", { weightG: 1200, destinationRelayCode: "DZ-99-NOWHERE" }), 400, "RELAY_NOT_FOUND");
      await m.bo().call("POST", "/relay-points", { code: "DZ-16-QUOTE-CLOSED", name: "Fermé", city: "Alger", wilaya: "16", active: false });
      expectError(
        await q.live("POST", "/parcels/quote", { weightG: 1200, destinationRelayCode: "DZ-16-QUOTE-CLOSED" }),
        400,
        "RELAY_NOT_FOUND"
      );
      expect((await q.live("GET", "/parcels")).body.totalElements).toBe(0);
      expect((await q.live("GET", "/wallet")).body.balanceDzd).toBe(1_000);
    });

    test("a read key may quote; a write-only key may not", async () => {
      const body = { weightG: 300, destinationRelayCode: "DZ-16-HYDRA" };
      expect((await (await m.keyWith(shop.orgId, ["parcels:read"]))("POST", "/parcels/quote", body)).status).toBe(200);
      expectError(await (await m.keyWith(shop.orgId, ["parcels:write"]))("POST", "/parcels/quote", body), 403, "SCOPE_MISSING");
    });
  });

  describe("GET /relay-points (partner search)", () => {
    // Three points at known distances north, east and south of a spot of the Sahara where the
    // directory has none, and a closed one nearer than all.
    const SPOT: LatLng = { latitude: 24, longitude: -3 };
    const KM_LAT = 1 / 111.195;
    const POINTS = [
      { code: "DZ-01-TEST-NORD", latitude: 24 + 1 * KM_LAT, longitude: -3, active: true },
      { code: "DZ-01-TEST-EST", latitude: 24, longitude: -3 + 3 * (KM_LAT / Math.cos((24 * Math.PI) / 180)), active: true },
      { code: "DZ-01-TEST-SUD", latitude: 24 - 8 * KM_LAT, longitude: -3, active: true },
      { code: "DZ-01-TEST-FERME", latitude: 24, longitude: -3.003, active: false }
    ];
    const HOURS = {
      sat: [{ open: "09:00", close: "12:00" }],
      sun: [{ open: "09:00", close: "12:00" }],
      mon: [],
      tue: [],
      wed: [],
      thu: [{ open: "09:00", close: "12:00" }],
      fri: []
    };
    /**
     * The search's answer without what closures add (issue 22: each point's closures and openNow, which
     * the integration suite checks against the reference), so that it compares with the reference.
     */
    const search = async (query: string) => {
      const res = await shop.live("GET", `/relay-points${query}`);
      if (res.status !== 200) return res;
      const items = (res.body.items as Array<{ closures: unknown; openNow: unknown }>).map(({ closures, openNow, ...item }) => {
        expect(Array.isArray(closures)).toBe(true);
        expect(typeof openNow).toBe("boolean");
        return item;
      });
      return { ...res, body: { ...res.body, items } };
    };
    /** The reference search (services/parcels/relay-search.ts) over the directory as the back-office lists it now. */
    const reference = async (query: Partial<RelayPointSearchQuery>) =>
      searchRelayPoints((await m.bo().call("GET", "/relay-points")).body as RelayPointEntry[], { page: 0, size: 20, ...query });

    /** The reference, each point with its shelf's settings (capacity, holding days: issue 18) as the back-office lists them. */
    const referenceWithSettings = async (query: Partial<RelayPointSearchQuery>) => {
      const listed = (await m.bo().call("GET", "/relay-points")).body as Array<{ code: string; capacity: number; holdingDays: number }>;
      const settings = new Map(listed.map(p => [p.code, { capacity: p.capacity, holdingDays: p.holdingDays }]));
      const found = await reference(query);
      return { ...found, items: found.items.map(item => ({ ...item, ...settings.get(item.code) })) };
    };

    beforeAll(async () => {
      for (const p of POINTS) {
        const res = await m.bo().call("POST", "/relay-points", {
          ...p,
          name: `Point ${p.code}`,
          city: "Adrar",
          wilaya: "1",
          address: "Route nationale 6",
          openingHours: HOURS
        });
        expect(res.status).toBe(201);
      }
    });

    test("without filters: active points only, by code, one page like the parcel page", async () => {
      const res = await search("");
      expect(res.status).toBe(200);
      expect(res.body).toEqual(await referenceWithSettings({}));
      expect(Object.keys(res.body).sort()).toEqual(["items", "page", "size", "totalElements", "totalPages"]);
      expect(res.body.items[0]).not.toHaveProperty("distanceKm");
      const codes = res.body.items.map((p: { code: string }) => p.code);
      expect([...codes].sort()).toEqual(codes);
      const all = await search("?size=100");
      const allCodes = all.body.items.map((p: { code: string }) => p.code);
      for (const closed of ["DZ-16-BIR-MOURAD-RAIS", "DZ-01-TEST-FERME", "DZ-16-QUOTE-CLOSED"]) expect(allCodes).not.toContain(closed);
    });

    test("by wilaya (one or two digits), by city in either script, by text", async () => {
      const algiers = await search("?wilaya=16&size=100");
      expect(algiers.body).toEqual(await referenceWithSettings({ wilaya: "16", size: 100 }));
      expect(algiers.body.items.length).toBeGreaterThanOrEqual(7);
      for (const p of algiers.body.items) expect(p.wilaya).toBe("16");
      const adrar = await search("?wilaya=1");
      expect(adrar.body.items.map((p: { code: string }) => p.code)).toEqual(
        expect.arrayContaining(["DZ-01-TEST-EST", "DZ-01-TEST-NORD", "DZ-01-TEST-SUD"])
      );
      expect(adrar.body).toEqual(await search("?wilaya=01").then(r => r.body));

      const oran = ["DZ-31-ORAN-CENTRE", "DZ-31-ORAN-HAI-ESSALEM"];
      expect((await search("?city=oran")).body.items.map((p: { code: string }) => p.code)).toEqual(oran);
      expect((await search(`?city=${encodeURIComponent("وهران")}`)).body.items.map((p: { code: string }) => p.code)).toEqual(oran);
      expect((await search("?city=SETIF")).body).toEqual(await referenceWithSettings({ city: "SETIF" }));
      expect((await search("?city=SETIF")).body.totalElements).toBeGreaterThan(0);

      const didouche = (await search("?q=didouche")).body.items.map((p: { code: string }) => p.code);
      expect(didouche).toEqual(["DZ-16-ALGER-CENTRE", "DZ-21-SKIKDA-CENTRE"]);
      expect((await search("?q=didouche&wilaya=16")).body.items.map((p: { code: string }) => p.code)).toEqual(["DZ-16-ALGER-CENTRE"]);
    });

    test("by distance: within the radius, nearest first, each with its distance; the closed point never", async () => {
      const res = await search(`?near=${SPOT.latitude},${SPOT.longitude}&radiusKm=10`);
      expect(res.status).toBe(200);
      expect(res.body.items.map((p: { code: string; distanceKm: number }) => [p.code, p.distanceKm])).toEqual([
        ["DZ-01-TEST-NORD", 1],
        ["DZ-01-TEST-EST", 3],
        ["DZ-01-TEST-SUD", 8]
      ]);
      for (const item of res.body.items) {
        const known = POINTS.find(p => p.code === item.code)!;
        expect(item.distanceKm).toBe(Math.round(distanceKm(SPOT, known) * 100) / 100);
        expect(item).toMatchObject({ latitude: known.latitude, longitude: known.longitude, openingHours: HOURS, wilaya: "01" });
      }
      expect((await search(`?near=${SPOT.latitude},${SPOT.longitude}&radiusKm=5`)).body.totalElements).toBe(2);

      const algiers = await search("?near=36.7538,3.0588&radiusKm=5");
      expect(algiers.body).toEqual(await referenceWithSettings({ near: { latitude: 36.7538, longitude: 3.0588 }, radiusKm: 5 }));
      expect(algiers.body.items.slice(0, 4).map((p: { code: string; distanceKm: number }) => [p.code, p.distanceKm])).toEqual([
        ["DZ-16-ALGER-CENTRE", 1.55],
        ["DZ-16-HYDRA", 2.78],
        ["DZ-16-KOUBA", 3.77],
        ["DZ-16-BAB-EL-OUED", 4.12]
      ]);
      // 20 km when no radius is given; Paris is far from every point.
      expect((await search("?near=36.7538,3.0588")).body).toEqual(
        await referenceWithSettings({ near: { latitude: 36.7538, longitude: 3.0588 } })
      );
      expect((await search("?near=48.8566,2.3522&radiusKm=100")).body).toMatchObject({ items: [], totalElements: 0, totalPages: 0 });
    });

    test("pages: every point once, in order, and an empty page past the end", async () => {
      const first = (await search("?wilaya=16&size=100")).body;
      const seen: string[] = [];
      for (let page = 0; page < first.totalElements; page += 1) {
        const res = await search(`?wilaya=16&size=2&page=${page}`);
        if (page >= res.body.totalPages) {
          expect(res.body.items).toEqual([]);
          break;
        }
        expect(res.body).toMatchObject({
          page,
          size: 2,
          totalElements: first.totalElements,
          totalPages: Math.ceil(first.totalElements / 2)
        });
        seen.push(...res.body.items.map((p: { code: string }) => p.code));
      }
      expect(seen).toEqual(first.items.map((p: { code: string }) => p.code));
      const near = await search(`?near=${SPOT.latitude},${SPOT.longitude}&radiusKm=10&size=1&page=1`);
      expect(near.body).toMatchObject({ page: 1, size: 1, totalElements: 3, totalPages: 3, items: [{ code: "DZ-01-TEST-EST" }] });
    });

    test.each([
      ["?wilaya=70", "wilaya"],
      ["?wilaya=alger", "wilaya"],
      ["?commune=9999", "commune"],
      ["?commune=bou-saada", "commune"],
      ["?near=91,3", "near"],
      ["?near=36.7,181", "near"],
      ["?near=36.7;3.05", "near"],
      ["?near=36.7,3.05&radiusKm=0", "radiusKm"],
      ["?near=36.7,3.05&radiusKm=501", "radiusKm"],
      ["?near=36.7,3.05&radiusKm=far", "radiusKm"],
      ["?radiusKm=5", "radiusKm"],
      ["?size=0", "size"],
      ["?size=101", "size"],
      ["?page=-1", "page"],
      ["?city=" + "x".repeat(101), "city"],
      ["?radius=5", "radius"]
    ])("400 naming the field: %s", async (query, field) => {
      expectError(await search(query), 400, "VALIDATION_FAILED", field);
    });

    test("parcels:read is needed", async () => {
      expectError(await (await m.keyWith(shop.orgId, ["parcels:write"]))("GET", "/relay-points"), 403, "SCOPE_MISSING");
      expectError(await (await m.keyWith(shop.orgId, ["wallet:read"]))("GET", "/relay-points"), 403, "SCOPE_MISSING");
    });

    test("the back-office sets position, opening hours and wilaya, and refuses what cannot be", async () => {
      const bo = m.bo();
      const base = {
        code: "DZ-01-TEST-BO",
        name: "Point BO",
        city: "Adrar",
        wilaya: "01",
        latitude: 27.87,
        longitude: -0.29,
        openingHours: HOURS
      };
      const stored = await bo.call("POST", "/relay-points", base);
      expect(stored.status).toBe(201);
      expect(stored.body).toMatchObject({ wilaya: "01", latitude: 27.87, longitude: -0.29, openingHours: HOURS, nameAr: null });
      expectError(await bo.call("POST", "/relay-points", { ...base, longitude: null }), 400, "VALIDATION_FAILED", "longitude");
      expectError(await bo.call("POST", "/relay-points", { ...base, latitude: undefined }), 400, "VALIDATION_FAILED", "latitude");
      expectError(await bo.call("POST", "/relay-points", { ...base, latitude: 90.5 }), 400, "VALIDATION_FAILED", "latitude");
      expectError(await bo.call("POST", "/relay-points", { ...base, wilaya: "99" }), 400, "VALIDATION_FAILED", "wilaya");
      // Issue 43: the directory's text is one line of text, never markup alone (lib/directory-text.ts).
      for (const [field, value] of [
        ["name", "<img src=x onerror=alert(1)>"],
        ["name", "<script>"],
        ["name", '"><svg onload=alert(1)>'],
        ["name", "Point\tBO"],
        ["name", "Point\nBO"],
        ["nameAr", "نقطة\u202Eمعكوسة"],
        ["city", "Adrar\u0085"],
        ["address", "<b></b>"]
      ]) {
        const refused = await bo.call("POST", "/relay-points", { ...base, [field]: value });
        expectError(refused, 400, "VALIDATION_FAILED", field);
        expect({ value, message: refused.body.details[0].message }).toEqual({
          value,
          message: expect.stringMatching(/one line of text|not markup or punctuation alone/)
        });
      }
      const closesFirst = { ...HOURS, fri: [{ open: "18:00", close: "08:00" }] };
      expectError(
        await bo.call("POST", "/relay-points", { ...base, openingHours: closesFirst }),
        400,
        "VALIDATION_FAILED",
        "openingHours.fri.0"
      );
      const { sun: _sun, ...sixDays } = HOURS;
      expectError(await bo.call("POST", "/relay-points", { ...base, openingHours: sixDays }), 400, "VALIDATION_FAILED", "openingHours.sun");
      const listed = (await bo.call("GET", "/relay-points")).body.find((p: { code: string }) => p.code === "DZ-01-TEST-BO");
      expect(listed).toEqual(stored.body);
    });

    test("the wilayas of 2026: a point's commune decides its wilaya; 59 to 69 are searched, the former wilaya still finds them, flagged", async () => {
      const bo = m.bo();
      // Bou Saâda by its commune alone; Aïn Ouessara by wilaya and commune; a code that still says 28, as merchants keep it.
      const created = await Promise.all(
        [
          { code: "DZ-68-TEST-BOU-SAADA", name: "Librairie du Ksar", city: "Bou Saâda", commune: "2820" },
          { code: "DZ-65-TEST-AIN-OUESSARA", name: "Kiosque de la gare", city: "Aïn Ouessara", wilaya: "65", commune: "1731" },
          { code: "DZ-28-TEST-BOU-SAADA", name: "Superette Ennasr", city: "Bou Saâda", commune: "2820" }
        ].map(p => bo.call("POST", "/relay-points", p))
      );
      expect(created.map(r => [r.status, r.body.code, r.body.wilaya, r.body.formerWilaya, r.body.commune])).toEqual([
        [201, "DZ-68-TEST-BOU-SAADA", "68", "28", "2820"],
        [201, "DZ-65-TEST-AIN-OUESSARA", "65", "17", "1731"],
        [201, "DZ-28-TEST-BOU-SAADA", "68", "28", "2820"]
      ]);

      const codes = (page: { body: { items: { code: string }[] } }) => page.body.items.map(p => p.code);
      const bouSaada = await search("?wilaya=68&size=100");
      expect(bouSaada.body).toEqual(await referenceWithSettings({ wilaya: "68", size: 100 }));
      expect(codes(bouSaada)).toEqual(expect.arrayContaining(["DZ-28-TEST-BOU-SAADA", "DZ-68-BOU-SAADA", "DZ-68-TEST-BOU-SAADA"]));
      expect(bouSaada.body.items.find((p: { code: string }) => p.code === "DZ-68-TEST-BOU-SAADA")).toMatchObject({
        wilaya: "68",
        formerWilaya: "28",
        commune: "2820",
        communeName: "Bou Saâda",
        communeNameAr: "بوسعادة"
      });
      // A point read from the list goes back as it is (its formerWilaya follows from its wilaya; another one is refused).
      const listed = (await bo.call("GET", "/relay-points")).body.find((p: { code: string }) => p.code === "DZ-68-TEST-BOU-SAADA");
      expect((await bo.call("POST", "/relay-points", listed)).body).toEqual(listed);
      expectError(await bo.call("POST", "/relay-points", { ...listed, formerWilaya: "17" }), 400, "VALIDATION_FAILED", "formerWilaya");
      expect(codes(await search("?wilaya=65&size=100"))).toEqual(expect.arrayContaining(["DZ-65-AIN-OUESSARA", "DZ-65-TEST-AIN-OUESSARA"]));

      // M'Sila's search still finds Bou Saâda's points, each saying which wilaya it is in now.
      const msila = await search("?wilaya=28&size=100");
      expect(msila.body).toEqual(await referenceWithSettings({ wilaya: "28", size: 100 }));
      const flags = Object.fromEntries(
        msila.body.items.map((p: { code: string; wilaya: string; formerWilaya: string | null }) => [p.code, [p.wilaya, p.formerWilaya]])
      );
      expect(flags).toMatchObject({
        "DZ-28-MSILA-CENTRE": ["28", null],
        "DZ-68-TEST-BOU-SAADA": ["68", "28"],
        "DZ-28-TEST-BOU-SAADA": ["68", "28"]
      });
      expect(codes(await search("?wilaya=17&size=100"))).toEqual(
        expect.arrayContaining(["DZ-17-DJELFA-CENTRE", "DZ-65-TEST-AIN-OUESSARA"])
      );
      expect(new Set(codes(await search("?commune=2820&size=100")))).toEqual(
        new Set(["DZ-28-TEST-BOU-SAADA", "DZ-68-BOU-SAADA", "DZ-68-TEST-BOU-SAADA"])
      );

      // The commune decides: M'Sila beside Bou Saâda's commune is refused, saying where it is.
      const mismatch = await bo.call("POST", "/relay-points", {
        code: "DZ-28-TEST-WRONG",
        name: "X",
        city: "Bou Saâda",
        wilaya: "28",
        commune: "2820"
      });
      expectError(mismatch, 400, "COMMUNE_NOT_IN_WILAYA", "wilaya");
      expect(mismatch.body.message).toBe(
        "Commune 2820 (Bou Saâda) is in wilaya 68 (Bou Saâda) since law 26-06 of 2026, not 28 (M'Sila): send wilaya 68, or leave wilaya out"
      );
      expectError(
        await bo.call("POST", "/relay-points", { code: "DZ-99-TEST-X", name: "X", city: "X", commune: "9999" }),
        400,
        "VALIDATION_FAILED",
        "commune"
      );
      expectError(
        await bo.call("POST", "/relay-points", { code: "DZ-99-TEST-X", name: "X", city: "X", wilaya: "70" }),
        400,
        "VALIDATION_FAILED",
        "wilaya"
      );
      expect((await bo.call("GET", "/relay-points")).body.map((p: { code: string }) => p.code)).not.toContain("DZ-28-TEST-WRONG");

      // Parcels go there at once, whatever its code says, and the tracking page names the wilaya in the reader's script.
      for (const [code, fr, ar] of [
        [
          "DZ-28-TEST-BOU-SAADA",
          'Wilaya <bdi dir="ltr">68</bdi> – <bdi>Bou Saâda</bdi>',
          'الولاية <bdi dir="ltr">68</bdi> – <bdi>بوسعادة</bdi>'
        ],
        [
          "DZ-65-TEST-AIN-OUESSARA",
          'Wilaya <bdi dir="ltr">65</bdi> – <bdi>Aïn Ouessara</bdi>',
          'الولاية <bdi dir="ltr">65</bdi> – <bdi>عين وسارة</bdi>'
        ]
      ]) {
        const parcel = await shop.live("POST", "/parcels", { ...PARCEL, destinationRelayCode: code });
        expect(parcel.status).toBe(201);
        expect(parcel.body.destinationRelayCode).toBe(code);
        const page = (lang: string) =>
          http(system().baseUrl, "GET", `/track/${parcel.body.trackingNumber}?lang=${lang}`, {
            headers: { "X-Forwarded-For": freshAddress() }
          });
        expect((await page("fr")).text).toContain(fr);
        expect((await page("ar")).text).toContain(ar);
      }
    });
  });

  describe("GET /wallet and /wallet/entries", () => {
    test("the key's own wallet: live or sandbox, its balance and when it last moved", async () => {
      const w = await m.create("Portefeuille Neuf", 0);
      expect((await w.live("GET", "/wallet")).body).toEqual({ mode: "live", balanceDzd: 0, updatedAt: null });
      await m.bo().call("POST", `/organizations/${w.orgId}/wallet/top-ups`, { amountDzd: 2_500.5 });
      await m.bo().call("POST", `/organizations/${w.orgId}/wallet/top-ups`, { amountDzd: 700, mode: "sandbox" });
      const live = (await w.live("GET", "/wallet")).body;
      expect(live).toEqual({ mode: "live", balanceDzd: 2_500.5, updatedAt: expect.stringMatching(/Z$/) });
      expect(Math.abs(Date.parse(live.updatedAt) - Date.now())).toBeLessThan(5 * 60_000);
      expect((await w.sandbox("GET", "/wallet")).body).toMatchObject({ mode: "sandbox", balanceDzd: 700 });
    });

    test("movements newest first, typed, each with the balance after it; the sandbox ledger apart", async () => {
      const w = await m.create("Mouvements", 3_000, 1_000);
      const parcel = (await w.live("POST", "/parcels", { ...PARCEL, codAmountDzd: 1500 })).body;
      await w.live("POST", `/parcels/${parcel.id}/cancel`);
      await w.sandbox("POST", "/parcels", PARCEL);
      const res = await w.live("GET", "/wallet/entries");
      expect(res.status).toBe(200);
      expect(res.body).toEqual({
        items: [
          {
            type: "REFUND",
            amountDzd: 500,
            balanceAfterDzd: 3_000,
            parcelId: parcel.id,
            remittanceId: null,
            claimId: null,
            createdAt: expect.stringMatching(/Z$/)
          },
          {
            type: "DEBIT",
            amountDzd: 500,
            balanceAfterDzd: 2_500,
            parcelId: parcel.id,
            remittanceId: null,
            claimId: null,
            createdAt: expect.stringMatching(/Z$/)
          },
          {
            type: "TOP_UP",
            amountDzd: 3_000,
            balanceAfterDzd: 3_000,
            parcelId: null,
            remittanceId: null,
            claimId: null,
            createdAt: expect.stringMatching(/Z$/)
          }
        ],
        page: 0,
        size: 20,
        totalElements: 3,
        totalPages: 1
      });
      expect(
        (await w.sandbox("GET", "/wallet/entries")).body.items.map((e: { type: string; balanceAfterDzd: number }) => [
          e.type,
          e.balanceAfterDzd
        ])
      ).toEqual([
        ["DEBIT", 550],
        ["TOP_UP", 1_000]
      ]);
    });

    test("pages chain balance to balance, even after concurrent creations", async () => {
      const w = await m.create("Chaîne", 20_000);
      await Promise.all(Array.from({ length: 12 }, () => w.live("POST", "/parcels", PARCEL)));
      const entries: { type: string; amountDzd: number; balanceAfterDzd: number }[] = [];
      for (let page = 0; page < 5; page++) entries.push(...(await w.live("GET", `/wallet/entries?size=3&page=${page}`)).body.items);
      expect(entries).toHaveLength(13);
      expect((await w.live("GET", "/wallet/entries?size=3&page=5")).body).toMatchObject({ items: [], totalElements: 13, totalPages: 5 });
      for (let i = 0; i + 1 < entries.length; i++) {
        const sign = entries[i].type === "DEBIT" ? -1 : 1;
        expect(Math.round((entries[i + 1].balanceAfterDzd + sign * entries[i].amountDzd) * 100)).toBe(
          Math.round(entries[i].balanceAfterDzd * 100)
        );
      }
      expect(entries[0].balanceAfterDzd).toBe((await w.live("GET", "/wallet")).body.balanceDzd);
    });

    test("bounds, scope, and another organisation's wallet never", async () => {
      expectError(await shop.live("GET", "/wallet/entries?size=0"), 400, "VALIDATION_FAILED", "size");
      expectError(await shop.live("GET", "/wallet/entries?size=101"), 400, "VALIDATION_FAILED", "size");
      expectError(await shop.live("GET", "/wallet/entries?page=-1"), 400, "VALIDATION_FAILED", "page");
      const parcelsOnly = await m.keyWith(shop.orgId, ["parcels:read", "parcels:write"]);
      expectError(await parcelsOnly("GET", "/wallet"), 403, "SCOPE_MISSING");
      expectError(await parcelsOnly("GET", "/wallet/entries"), 403, "SCOPE_MISSING");
      const walletOnly = await m.keyWith(rival.orgId, ["wallet:read"]);
      expect((await walletOnly("GET", "/wallet")).body.balanceDzd).toBe(100_000);
      expectError(await walletOnly("GET", "/parcels"), 403, "SCOPE_MISSING");
      const mine = (await shop.live("GET", "/wallet/entries?size=100")).body.items.map((e: { parcelId: string | null }) => e.parcelId);
      const theirs = (await walletOnly("GET", "/wallet/entries?size=100")).body.items.map((e: { parcelId: string | null }) => e.parcelId);
      expect(theirs.filter((id: string | null) => id !== null && mine.includes(id))).toEqual([]);
    });
  });
  describe("relay closures (issue 22): RELAY_CLOSED with open suggestions, the search's closures and openOn", () => {
    const CODE = "DZ-47-TEST-FERMETURE";
    const today = algiersDate(new Date());
    let closureId: string;

    beforeAll(async () => {
      const point = { code: CODE, name: "Point fermé", city: "Ghardaïa", wilaya: "47", latitude: 32.4909, longitude: 3.6734 };
      expect((await m.bo().call("POST", "/relay-points", point)).status).toBe(201);
      const res = await m.bo().call("POST", `/relay-points/${CODE}/closures`, { from: today, to: addDays(today, 1), reason: "inventaire" });
      expect(res.status).toBe(201);
      expect(res.body).toMatchObject({ relayCode: CODE, from: today, days: 2, announcedBy: "backoffice" });
      closureId = res.body.id;
    });

    test("a create and a quote to the closed point: 409 RELAY_CLOSED naming open points by code; nothing debited", async () => {
      const before = (await shop.live("GET", "/wallet")).body.balanceDzd;
      const res = await shop.live("POST", "/parcels", { ...PARCEL, destinationRelayCode: CODE });
      expectError(res, 409, "RELAY_CLOSED");
      expect(res.body.details[0]).toMatchObject({ field: "destinationRelayCode", relayCode: "DZ-47-GHARDAIA" });
      expect(res.body.details.length).toBeLessThanOrEqual(3);
      expect((await shop.live("GET", "/wallet")).body.balanceDzd).toBe(before);
      expectError(await shop.live("POST", "/parcels/quote", { weightG: 800, destinationRelayCode: CODE }), 409, "RELAY_CLOSED");
    });

    test("the search shows the closure, and openOn leaves the point out while it lasts", async () => {
      const found = (await shop.live("GET", "/relay-points?wilaya=47&size=100")).body.items.find((p: { code: string }) => p.code === CODE);
      expect(found).toMatchObject({ closures: [{ from: today, to: addDays(today, 1), reason: "inventaire" }], openNow: false });
      const codesOn = async (day: string) =>
        (await shop.live("GET", `/relay-points?wilaya=47&size=100&openOn=${day}`)).body.items.map((p: { code: string }) => p.code);
      expect(await codesOn(today)).not.toContain(CODE);
      expect(await codesOn(addDays(today, 2))).toContain(CODE);
      expectError(await shop.live("GET", "/relay-points?openOn=2026-02-30"), 400, "VALIDATION_FAILED", "openOn");
    });

    test("removed in the back-office (204), the point takes parcels again", async () => {
      expect((await m.bo().call("DELETE", `/relay-points/${CODE}/closures/${closureId}`)).status).toBe(204);
      expect((await m.bo().call("DELETE", `/relay-points/${CODE}/closures/${closureId}`)).status).toBe(404);
      expect((await shop.live("POST", "/parcels/quote", { weightG: 800, destinationRelayCode: CODE })).status).toBe(200);
    });
  });
}
