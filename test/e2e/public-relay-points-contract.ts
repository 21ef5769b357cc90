import { algiersDate } from "../../lib/cod";
import { addDays } from "../../services/parcels/calendar-date";
import { http, HttpResult } from "../helpers/http";
import type { SystemUnderTest } from "./gateway-contract";
import { ALLOWED_ORIGIN } from "./hostile-input-contract";
import { expectError, freshAddress, Merchant, merchants } from "./merchant-helpers";

/**
 * The public relay-point search (issue 28, item 2), run against any started system: what a shop's
 * checkout page calls from its customer's browser, with no key. Exactly the public fields; any
 * origin, preflight included, whatever CORS_ORIGINS allows (the systems under test allow only
 * ALLOWED_ORIGIN); an ETag and 304; its own per-address limit; bad filters a 400 naming them.
 */

/** Every field a point of the public search has: nothing beyond (distanceKm only with near). */
const PUBLIC_FIELDS = [
  "address",
  "city",
  "closures",
  "code",
  "commune",
  "communeName",
  "communeNameAr",
  "formerWilaya",
  "latitude",
  "longitude",
  "name",
  "nameAr",
  "notTakingReason",
  "openNow",
  "openingHours",
  "takesNewParcels",
  "wilaya"
];

const SHOP_ORIGIN = "https://another-shop.example.com";
const PATH = "/api/public/v1/relay-points";

export function publicRelayPointsContract(system: () => SystemUnderTest): void {
  const m = merchants(system);
  let shop: Merchant;
  const today = algiersDate(new Date());

  const search = (query: string, address = freshAddress(), headers: Record<string, string> = {}): Promise<HttpResult> =>
    http(system().baseUrl, "GET", `${PATH}${query}`, { headers: { "X-Forwarded-For": address, ...headers } });

  beforeAll(async () => {
    shop = await m.create("Boutique Widget", 0);
    const bo = m.bo();
    const points = [
      {
        code: "DZ-39-PUB-OPEN",
        name: "Kiosque ouvert",
        nameAr: "كشك مفتوح",
        city: "El Oued",
        wilaya: "39",
        latitude: 33.3683,
        longitude: 6.8674
      },
      { code: "DZ-39-PUB-CLOSED", name: "Kiosque fermé", city: "El Oued", wilaya: "39", latitude: 33.37, longitude: 6.87 },
      { code: "DZ-39-PUB-FULL", name: "Kiosque plein", city: "Guemar", wilaya: "39", latitude: 33.49, longitude: 6.8, capacity: 0 },
      { code: "DZ-39-PUB-LATER", name: "Kiosque en congé", city: "Guemar", wilaya: "39", latitude: 33.5, longitude: 6.81 }
    ];
    for (const point of points) expect((await bo.call("POST", "/relay-points", point)).status).toBe(201);
    const closures = [
      { code: "DZ-39-PUB-CLOSED", from: today, to: addDays(today, 1), reason: "inventaire" },
      { code: "DZ-39-PUB-LATER", from: addDays(today, 10), to: addDays(today, 12), reason: null }
    ];
    for (const { code, ...days } of closures) expect((await bo.call("POST", `/relay-points/${code}/closures`, days)).status).toBe(201);
  });

  test("exactly the public fields: where, when, and whether it takes a parcel today, nothing of capacity or holding", async () => {
    const res = await search("?wilaya=39&size=100");
    expect(res.status).toBe(200);
    const items = res.body.items as Record<string, unknown>[];
    expect(items.length).toBeGreaterThanOrEqual(4);
    for (const item of items) expect(Object.keys(item).sort()).toEqual(PUBLIC_FIELDS);
    const byCode = new Map(items.map(item => [item.code, item]));
    expect(byCode.get("DZ-39-PUB-OPEN")).toEqual({
      code: "DZ-39-PUB-OPEN",
      name: "Kiosque ouvert",
      nameAr: "كشك مفتوح",
      address: null,
      city: "El Oued",
      wilaya: "39",
      formerWilaya: null,
      commune: null,
      communeName: null,
      communeNameAr: null,
      latitude: 33.3683,
      longitude: 6.8674,
      openingHours: null,
      openNow: true,
      closures: [],
      takesNewParcels: true,
      notTakingReason: null
    });
    expect(byCode.get("DZ-39-PUB-CLOSED")).toMatchObject({
      closures: [{ from: today, to: addDays(today, 1), reason: "inventaire" }],
      openNow: false,
      takesNewParcels: false,
      notTakingReason: "CLOSED"
    });
    expect(byCode.get("DZ-39-PUB-FULL")).toMatchObject({ takesNewParcels: false, notTakingReason: "FULL" });
    // Closed in ten days: it takes parcels today, and its closure is there for the picker to mark.
    expect(byCode.get("DZ-39-PUB-LATER")).toMatchObject({
      closures: [{ from: addDays(today, 10), to: addDays(today, 12), reason: null }],
      takesNewParcels: true,
      notTakingReason: null
    });

    const near = await search("?near=33.3683,6.8674&radiusKm=5");
    expect(near.status).toBe(200);
    for (const item of near.body.items) expect(Object.keys(item).sort()).toEqual([...PUBLIC_FIELDS, "distanceKm"].sort());
  });

  test("the partner search's filters and order: the same points, page for page", async () => {
    for (const query of [
      "?wilaya=39&size=2&page=1",
      "?near=33.3683,6.8674&radiusKm=30",
      "?q=kiosque&city=guemar",
      "?wilaya=16&size=5",
      "?wilaya=28&size=100",
      "?commune=2820"
    ]) {
      const open = await search(query);
      const partner = await shop.live("GET", `/relay-points${query}`);
      expect(open.status).toBe(200);
      const codes = (page: HttpResult) => page.body.items.map((p: { code: string }) => p.code);
      expect({ query, codes: codes(open), total: open.body.totalElements }).toEqual({
        query,
        codes: codes(partner),
        total: partner.body.totalElements
      });
    }
  });

  test("the wilayas of 2026: Bou Saâda (68) by its number, its commune, and by M'Sila (28) during the transition, flagged", async () => {
    const bouSaada = await search("?wilaya=68&size=100");
    expect(bouSaada.status).toBe(200);
    const shipped = bouSaada.body.items.find((p: { code: string }) => p.code === "DZ-68-BOU-SAADA");
    expect(shipped).toMatchObject({
      city: "Bou Saâda",
      wilaya: "68",
      formerWilaya: "28",
      commune: "2820",
      communeName: "Bou Saâda",
      communeNameAr: "بوسعادة"
    });
    const msila = (await search("?wilaya=28&size=100")).body.items.map((p: { code: string; formerWilaya: string | null }) => [
      p.code,
      p.formerWilaya
    ]);
    expect(msila).toEqual(
      expect.arrayContaining([
        ["DZ-28-MSILA-CENTRE", null],
        ["DZ-68-BOU-SAADA", "28"]
      ])
    );
    const ainOuessara = (await search("?wilaya=65")).body.items.map((p: { code: string }) => p.code);
    expect(ainOuessara).toContain("DZ-65-AIN-OUESSARA");
    expect((await search("?commune=1731")).body.items.map((p: { code: string }) => p.code)).toContain("DZ-65-AIN-OUESSARA");
  });

  test("any origin: a preflight and the answer from a page of another origin, whatever CORS_ORIGINS says", async () => {
    const preflight = await fetch(`${system().baseUrl}${PATH}?wilaya=16`, {
      method: "OPTIONS",
      headers: { Origin: SHOP_ORIGIN, "Access-Control-Request-Method": "GET", "X-Forwarded-For": freshAddress() }
    });
    expect(preflight.status).toBe(204);
    expect(preflight.headers.get("access-control-allow-origin")).toBe("*");
    expect(preflight.headers.get("access-control-allow-methods")).toBe("GET, HEAD");

    const res = await search("?wilaya=16", freshAddress(), { Origin: SHOP_ORIGIN });
    expect(res.status).toBe(200);
    expect(res.headers.get("access-control-allow-origin")).toBe("*");
    expect(res.headers.get("access-control-expose-headers")).toContain("X-RateLimit-Remaining");

    // The partner API keeps its own policy: that origin is not in CORS_ORIGINS.
    const partnerPreflight = await fetch(`${system().baseUrl}/api/partner/v1/relay-points`, {
      method: "OPTIONS",
      headers: { Origin: SHOP_ORIGIN, "Access-Control-Request-Method": "GET" }
    });
    expect(partnerPreflight.status).toBe(403);
    expect(ALLOWED_ORIGIN).not.toBe(SHOP_ORIGIN);
  });

  test("Cache-Control and an ETag: the same search with If-None-Match is a 304 without a body; another search is not", async () => {
    const address = freshAddress();
    const first = await search("?wilaya=16&size=3", address);
    expect(first.status).toBe(200);
    expect(first.headers.get("cache-control")).toBe("public, max-age=60");
    const etag = first.headers.get("etag");
    expect(etag).toMatch(/^"[A-Za-z0-9_-]+"$/);

    // As a browser revalidates what it holds (fetch would otherwise add Cache-Control: no-cache, a reload, which is never a 304).
    const revalidate = { "If-None-Match": etag!, "Cache-Control": "max-age=0" };
    const again = await search("?wilaya=16&size=3", address, { ...revalidate, Origin: SHOP_ORIGIN });
    expect(again.status).toBe(304);
    expect(again.text).toBe("");
    expect(again.headers.get("etag")).toBe(etag);
    expect(again.headers.get("access-control-allow-origin")).toBe("*");

    const other = await search("?wilaya=16&size=4", address, revalidate);
    expect(other.status).toBe(200);
    expect(other.headers.get("etag")).not.toBe(etag);
  });

  test("120 searches a minute per client address, then 429 with Retry-After; tracking lookups keep their own budget", async () => {
    const address = freshAddress();
    const statuses: number[] = [];
    for (let i = 0; i < 121; i++) statuses.push((await search("?wilaya=16&size=1", address)).status);
    expect(statuses).toEqual([...Array<number>(120).fill(200), 429]);
    const over = await search("?wilaya=16&size=1", address, { Origin: SHOP_ORIGIN });
    expectError(over, 429, "RATE_LIMITED");
    expect(Number(over.headers.get("retry-after"))).toBeGreaterThan(0);
    expect(over.headers.get("x-ratelimit-remaining")).toBe("0");
    // A browser reads the refusal too.
    expect(over.headers.get("access-control-allow-origin")).toBe("*");
    expect((await search("?wilaya=16&size=1")).status).toBe(200);
    const tracking = await http(system().baseUrl, "GET", "/api/public/v1/tracking/RP000000000DZ", {
      headers: { "X-Forwarded-For": address }
    });
    expect(tracking.headers.get("x-ratelimit-limit")).toBe("30");
    expect(tracking.status).not.toBe(429);
  });

  test("bad filters: 400 in the error shape, naming the field", async () => {
    const cases: [string, string][] = [
      ["?wilaya=99", "wilaya"],
      ["?wilaya=70", "wilaya"],
      ["?commune=2", "commune"],
      ["?near=abc", "near"],
      ["?near=36.7,3.0&radiusKm=0", "radiusKm"],
      ["?radiusKm=5", "radiusKm"],
      ["?openOn=2026-02-30", "openOn"],
      ["?size=0", "size"],
      ["?page=-1", "page"],
      ["?apiKey=x", "apiKey"]
    ];
    for (const [query, field] of cases) {
      const res = await search(query, freshAddress(), { Origin: SHOP_ORIGIN });
      expectError(res, 400, "VALIDATION_FAILED", field);
      expect(res.headers.get("access-control-allow-origin")).toBe("*");
    }
  });
}
