import { http, HttpResult } from "../helpers/http";
import { TRACKING_PAGE_CSP } from "../../services/gateway/tracking-page";
import type { SystemUnderTest } from "./gateway-contract";
import { expectError, freshAddress, freshIpv6Prefix, Merchant, merchants, PARCEL } from "./merchant-helpers";

/**
 * Public tracking without a key (issue 11, items 1 and 2), run against any started system: the
 * answer's fields and nothing more, numbers as people type them, 404 for anything unknown, the
 * per-address limit shared by the API and the /track pages, and the pages' HTTP contract (their
 * rendering in a browser is test/e2e/tracking-page-render.e2e.test.ts).
 */
export function publicTrackingContract(system: () => SystemUnderTest): void {
  const m = merchants(system);
  let shop: Merchant;
  let parcel: { id: string; trackingNumber: string; pricePaidDzd: number };
  let sandboxParcel: { id: string; trackingNumber: string };

  const track = (trackingNumber: string, address = freshAddress(), base = system().baseUrl, headers: Record<string, string> = {}) =>
    http(base, "GET", `/api/public/v1/tracking/${encodeURIComponent(trackingNumber)}`, {
      headers: { "X-Forwarded-For": address, ...headers }
    });
  const page = (path: string, address = freshAddress(), headers: Record<string, string> = {}) =>
    fetch(`${system().baseUrl}${path}`, { redirect: "manual", headers: { "X-Forwarded-For": address, ...headers } });

  beforeAll(async () => {
    shop = await m.create("Boutique Publique", 100_000, 10_000);
    parcel = (await shop.live("POST", "/parcels", { ...PARCEL, codAmountDzd: 1500, declaredValueDzd: 20_000 })).body;
    sandboxParcel = (await shop.sandbox("POST", "/parcels", PARCEL)).body;
  });

  test("200 with the journey, the relay point and the cash to bring: exactly these fields", async () => {
    const res = await track(parcel.trackingNumber);
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      trackingNumber: parcel.trackingNumber,
      status: "CREATED",
      sandbox: false,
      events: [{ status: "CREATED", occurredAt: expect.stringMatching(/Z$/) }],
      destination: {
        code: "DZ-16-ALGER-CENTRE",
        name: "Librairie Didouche",
        city: "Alger Centre",
        address: "42 Rue Didouche Mourad, Alger Centre",
        openingHours: expect.objectContaining({ fri: [], sat: [expect.objectContaining({ open: "08:30" }), expect.anything()] })
      },
      codToPayDzd: 1500,
      pickupDeadline: null,
      // No return opened for it: the date the customer got a return code by SMS, never the code.
      returnCodeSentAt: null
    });
    expect(res.headers.get("x-ratelimit-limit")).toBe("30");
    expect(res.headers.get("x-ratelimit-remaining")).toBe("29");
  });

  test("nothing personal, no price, no organisation, no internal id", async () => {
    const res = await track(parcel.trackingNumber);
    for (const secret of [
      PARCEL.recipientName,
      "Amina",
      "555 12 34",
      "555123456",
      parcel.id,
      shop.orgId,
      shop.name,
      "pricePaidDzd",
      "organization"
    ]) {
      expect({ secret, shown: res.text.includes(secret) }).toEqual({ secret, shown: false });
    }
    // The only amount is the cash to bring: no price, whatever field it might hide in.
    const numbers: number[] = [];
    JSON.parse(res.text, (_key, value: unknown) => {
      if (typeof value === "number") numbers.push(value);
      return value;
    });
    expect(numbers).toEqual([1500]);
  });

  test("the journey grows oldest first as the parcel moves; a sandbox parcel says so", async () => {
    await m.move(parcel.id, "READY_FOR_PICKUP", "PICKED_UP", "IN_TRANSIT");
    const res = await track(parcel.trackingNumber);
    expect(res.body.status).toBe("IN_TRANSIT");
    expect(res.body.events.map((e: { status: string }) => e.status)).toEqual(["CREATED", "READY_FOR_PICKUP", "PICKED_UP", "IN_TRANSIT"]);
    const times = res.body.events.map((e: { occurredAt: string }) => Date.parse(e.occurredAt));
    expect([...times].sort((a, b) => a - b)).toEqual(times);
    expect(res.text).not.toContain("scan");

    const sandbox = await track(sandboxParcel.trackingNumber);
    expect(sandbox.status).toBe(200);
    expect(sandbox.body).toMatchObject({ sandbox: true, codToPayDzd: null, status: "CREATED" });
  });

  test("the number as people type it: any case, spaces, dots and dashes", async () => {
    const n = parcel.trackingNumber;
    const expected = (await track(n)).body;
    for (const typed of [
      n.toLowerCase(),
      ` ${n.slice(0, 2)} ${n.slice(2, 6)} ${n.slice(6, 10)} ${n.slice(10)} `,
      `${n.slice(0, 6)}-${n.slice(6)}`
    ]) {
      const res = await track(typed);
      expect({ typed, status: res.status, body: res.body }).toEqual({ typed, status: 200, body: expected });
    }
  });

  test.each([
    ["a well-formed number nobody was given", "RP000000000DZ"],
    ["a check digit that does not match", "RP123456784DZ"],
    ["words", "hello"],
    ["a very long text", "RP1".repeat(500)],
    ["script", "<script>alert(1)</script>"]
  ])("404 PARCEL_NOT_FOUND for %s, in the error shape, still counted", async (_label, typed) => {
    const res = await track(typed);
    expectError(res, 404, "PARCEL_NOT_FOUND");
    expect(res.headers.get("x-ratelimit-remaining")).toBe("29");
  });

  test("no key is needed, and a key (even a wrong one) changes nothing", async () => {
    expect((await track(parcel.trackingNumber, freshAddress(), system().baseUrl, { Authorization: "ApiKey nonsense" })).status).toBe(200);
    expect((await track(parcel.trackingNumber, freshAddress(), system().baseUrl, { "X-API-Key": "rp_live_x" })).status).toBe(200);
  });

  test("30 lookups a minute per client address, then 429 with Retry-After; other addresses are not affected", async () => {
    const address = freshAddress();
    const bases = [system().baseUrl, system().secondGatewayUrl ?? system().baseUrl];
    const remaining: string[] = [];
    for (let i = 0; i < 30; i++) {
      // Unknown numbers count too: probing costs as much as tracking.
      const res = await track(i % 3 === 0 ? "RP000000000DZ" : parcel.trackingNumber, address, bases[i % 2]);
      expect([200, 404]).toContain(res.status);
      remaining.push(res.headers.get("x-ratelimit-remaining")!);
    }
    expect(remaining).toEqual(Array.from({ length: 30 }, (_, i) => String(29 - i)));
    const over = await track(parcel.trackingNumber, address, bases[1]);
    expectError(over, 429, "RATE_LIMITED");
    expect(Number(over.headers.get("retry-after"))).toBeGreaterThan(0);
    expect(Number(over.headers.get("retry-after"))).toBeLessThanOrEqual(60);
    expect(over.headers.get("x-ratelimit-remaining")).toBe("0");
    // The pages are no way around it: they share the address's budget.
    const viaPage = await page(`/track/${parcel.trackingNumber}`, address);
    expect(viaPage.status).toBe(429);
    expect(viaPage.headers.get("content-type")).toBe("text/html; charset=utf-8");
    expect(viaPage.headers.get("retry-after")).toMatch(/^[1-9]\d?$/);
    expect(await viaPage.text()).toContain("Trop de recherches");
    expect((await track(parcel.trackingNumber)).status).toBe(200);
  });

  test("an IPv6 client counts by its /64: 35 addresses of one /64 are limited after 30; the next /64 is not", async () => {
    const prefix = freshIpv6Prefix();
    const statuses: number[] = [];
    for (let i = 1; i <= 35; i++) statuses.push((await track(parcel.trackingNumber, `${prefix}:${i.toString(16)}:0:0:${i}`)).status);
    expect(statuses).toEqual([...Array<number>(30).fill(200), ...Array<number>(5).fill(429)]);
    const neighbour = prefix.replace(/[0-9a-f]+$/, last => ((parseInt(last, 16) + 1) % 0xffff).toString(16));
    expect((await track(parcel.trackingNumber, `${neighbour}::1`)).status).toBe(200);
  });

  test("an IPv4-mapped IPv6 address counts as its IPv4 address", async () => {
    const address = freshAddress();
    expect((await track(parcel.trackingNumber, address)).headers.get("x-ratelimit-remaining")).toBe("29");
    expect((await track(parcel.trackingNumber, `::ffff:${address}`)).headers.get("x-ratelimit-remaining")).toBe("28");
  });

  test("every other method is a 405, and unknown public paths a 404, both counted", async () => {
    const address = freshAddress();
    const post: HttpResult = await http(system().baseUrl, "POST", `/api/public/v1/tracking/${parcel.trackingNumber}`, {
      headers: { "X-Forwarded-For": address },
      body: {}
    });
    expectError(post, 405, "METHOD_NOT_ALLOWED");
    const nowhere = await http(system().baseUrl, "GET", "/api/public/v1/parcels", { headers: { "X-Forwarded-For": address } });
    expectError(nowhere, 404, "NOT_FOUND");
    expect(nowhere.headers.get("x-ratelimit-remaining")).toBe("28");
  });

  describe("the /track pages over HTTP", () => {
    test("GET /track is the form: HTML under a strict CSP, French by default, Arabic or English on request", async () => {
      const res = await page("/track");
      expect(res.status).toBe(200);
      expect(res.headers.get("content-type")).toBe("text/html; charset=utf-8");
      expect(res.headers.get("content-security-policy")).toBe(TRACKING_PAGE_CSP);
      expect(res.headers.get("cache-control")).toBe("no-store");
      expect(res.headers.get("x-ratelimit-limit")).toBeNull();
      const html = await res.text();
      expect(html).toContain('<html lang="fr" dir="ltr">');
      expect(html).toContain('<form class="card" method="get" action="/track">');
      expect(await (await page("/track", freshAddress(), { "Accept-Language": "ar-DZ,ar;q=0.9" })).text()).toContain('dir="rtl"');
      expect(await (await page("/track?lang=en")).text()).toContain('<html lang="en" dir="ltr">');
    });

    test("the form's answer leads to the parcel's page (303), which shows it without anything personal", async () => {
      const spaced = parcel.trackingNumber.toLowerCase().replace(/(..)(....)(....)(...)/, "$1 $2 $3 $4");
      const redirect = await page(`/track?number=${encodeURIComponent(spaced)}`);
      expect(redirect.status).toBe(303);
      expect(redirect.headers.get("location")).toBe(`/track/${parcel.trackingNumber}`);
      const res = await page(redirect.headers.get("location")!);
      expect(res.status).toBe(200);
      expect(res.headers.get("x-ratelimit-limit")).toBe("30");
      const html = await res.text();
      expect(html).toContain(parcel.trackingNumber);
      expect(html).toContain("Librairie Didouche");
      for (const secret of ["Amina", "555 12 34", parcel.id, shop.orgId, shop.name]) expect(html).not.toContain(secret);
      expect((await page(`/track?number=hello`)).status).toBe(400);
    });

    test("an unknown number is a clear 404 page", async () => {
      const res = await page("/track/RP000000000DZ");
      expect(res.status).toBe(404);
      expect(res.headers.get("content-type")).toBe("text/html; charset=utf-8");
      expect(await res.text()).toContain("Colis introuvable");
    });
  });
}
