import type { Browser, Page } from "playwright-core";
import { randomUUID } from "node:crypto";
import { eventually } from "./merchant-helpers";
import { axeFindings, CounterSystem, decodeImage, describeBrowser, http, openPaired, phonePage, RELAY, screenshot } from "./counter-system";
import { useSystemAndBrowser } from "./web-app-checks";

/**
 * Issue 44 C (decision 0057): the counter app's Courier screen shows the signed courier pass as a
 * QR, on a phone (390×844), in French and in Arabic; the QR as a camera reads it is the pass the
 * courier API accepts as proof that the courier stands at this counter.
 *
 * Issue 45 (decision 0063): the same screen shows the till's cash closed and not yet collected, by
 * denomination, and the count a courier recorded at this counter beside it; the agent disputes a
 * wrong count (the cash stays) and confirms a right one (the cash leaves); in French and in Arabic
 * (right to left); without the network it says so. Screenshots in .ci-artifacts/counter/.
 */
describeBrowser("the courier screen of the counter app: the pass and the cash", () => {
  let system: CounterSystem;
  let browser: Browser;
  useSystemAndBrowser((started, chromium) => {
    system = started;
    browser = chromium;
  });

  async function courierKey(): Promise<string> {
    const hub = await system.bo.call("POST", "/hubs", {
      code: `HUB-16-C${randomUUID().slice(0, 6).toUpperCase()}`,
      wilaya: "16",
      name: "Hub",
      address: "ZI"
    });
    const courier = await system.bo.call("POST", "/couriers", {
      firstName: "Yacine",
      lastName: "H",
      phone: "+213 661 23 45 67",
      homeHubId: hub.body.id
    });
    const key = await system.bo.call("POST", "/staff-keys", { role: "courier", subjectId: courier.body.id, name: "phone" });
    expect([hub.status, courier.status, key.status]).toEqual([201, 201, 201]);
    return key.body.key;
  }

  test.each([
    ["fr-FR", "Livreur"],
    ["ar-DZ", "الموزّع"]
  ])("in %s: the screen's QR is a pass the courier's arrival accepts", async (locale, title) => {
    const { context, page, problems } = await phonePage(browser, locale);
    try {
      await openPaired(system, page, `Comptoir livreur ${locale}`);
      await page.click('[data-screen="courier"]');
      await page.waitForSelector("#courier-qr");
      expect(await page.innerText("#screen-title")).toBe(title);
      await screenshot(page, `courier-pass-${locale}`);
      const read = await decodeImage(await page.locator("#courier-qr").screenshot());
      expect(read).toHaveLength(1);
      expect(read[0]).toMatch(new RegExp(`^RC1\\.${RELAY}\\.\\d{10}\\.[0-9A-F]{32}$`));
      expect(problems).toEqual([]);

      const key = await courierKey();
      const arrived = await http(system.base, "POST", `/api/courier/v1/relays/${RELAY}/arrive`, {
        headers: { Authorization: `ApiKey ${key}`, "Idempotency-Key": randomUUID() },
        body: { pass: read[0] }
      });
      expect(arrived.status).toBe(200);
      expect(arrived.body.relayCode).toBe(RELAY);
    } finally {
      await context.close();
    }
  });

  /** The courier API with a courier's key, each request with its own Idempotency-Key. */
  const courierApi = (key: string) => (method: string, path: string, body?: unknown) =>
    http(system.base, method, `/api/courier/v1${path}`, {
      headers: { Authorization: `ApiKey ${key}`, "Idempotency-Key": randomUUID() },
      body
    });

  /** A COD parcel received and handed over at the counter, then the till closed with its notes counted. */
  async function closedTill(codDzd: number, denominations: Record<string, number>) {
    const agentKey = await system.agentKey(`Caisse ${randomUUID().slice(0, 6)}`);
    const agent = (method: string, path: string, body?: unknown) =>
      http(system.base, method, `/api/relay/v1${path}`, { headers: { Authorization: `ApiKey ${agentKey}` }, body });
    const parcel = await system.incoming(codDzd);
    expect((await agent("POST", "/arrivals", { trackingNumber: parcel.trackingNumber })).status).toBe(200);
    const pin = await system.sms.pinOf(parcel.trackingNumber);
    await eventually(
      () => system.parcel(parcel.id),
      p => p.status === "RELAY_NOTIFIED"
    );
    expect((await agent("POST", "/handovers", { trackingNumber: parcel.trackingNumber, pin, codCollectedDzd: codDzd })).status).toBe(200);
    expect((await agent("POST", "/cash/closings", { denominations })).status).toBe(201);
  }

  async function noSeriousAxeFindings(page: Page): Promise<void> {
    expect(await axeFindings(page)).toEqual([]);
  }

  const ARABIC = /[\u0600-\u06FF]/;
  /** The text as read, without the direction isolates Arabic puts around numbers. */
  const plain = async (page: Page, selector: string) => (await page.innerText(selector)).replace(/[\u2066-\u2069]/g, "");

  test.each([
    ["fr-FR", "fr", /^\u2066?1[ \u202f]500\u2069? DA$/],
    ["ar-DZ", "ar", /^\u2066?1[ \u202f]500\u2069? دج$/]
  ])(
    "in %s: the closed cash by denomination, a wrong count disputed, the right one confirmed",
    async (locale, tag, closedAmount) => {
      await closedTill(1500, { "1000": 1, "200": 2, "100": 1 });
      const courier = courierApi(await courierKey());
      const { context, page, problems } = await phonePage(browser, locale);
      try {
        await openPaired(system, page, `Comptoir espèces ${tag}`);
        await page.click('[data-screen="courier"]');
        await page.waitForSelector("#courier-qr");
        await page.waitForSelector("#cash-uncollected");
        await expect(page.innerText("#cash-uncollected")).resolves.toMatch(closedAmount);
        // The notes and coins of the closing, face by face.
        await expect(plain(page, "table.cash-count tbody")).resolves.toMatch(/^1[ \u202f]000\s+1\s+200\s+2\s+100\s+1$/);
        expect(await page.getAttribute("html", "dir")).toBe(tag === "ar" ? "rtl" : "ltr");
        await noSeriousAxeFindings(page);
        await screenshot(page, `counter-cash-${tag}-1-closed`);

        // The courier counts 1 200 (a 200 note left in the till): the screen says it is short, the agent disputes.
        const short = await courier("POST", `/relays/${RELAY}/cash-collections`, { denominations: { "1000": 1, "200": 1 } });
        expect(short.status).toBe(201);
        await page.click("#cash-refresh");
        await page.waitForSelector(`#cash-dispute-${short.body.id}`);
        const card = page.locator(`#cash-collection-${short.body.id}`);
        await expect(card.locator(".notice-error").innerText()).resolves.toMatch(
          tag === "ar" ? ARABIC : /^Il manque 300 DA par rapport à la clôture\./
        );
        expect(await page.getAttribute(`#cash-confirm-${short.body.id}`, "aria-label")).toMatch(/1[ \u202f]200/);
        await noSeriousAxeFindings(page);
        await screenshot(page, `counter-cash-${tag}-2-courier-short`);
        await page.click(`#cash-dispute-${short.body.id}`);
        await page.waitForSelector("#cash-result .notice-info");
        await page.waitForSelector(`#cash-collection-${short.body.id}`, { state: "detached" });
        expect((await courier("GET", `/cash-collections/${short.body.id}`)).body.status).toBe("CANCELLED");
        await expect(page.innerText("#cash-uncollected")).resolves.toMatch(closedAmount);

        // Counted again, right: the agent confirms, and the cash leaves the counter.
        const right = await courier("POST", `/relays/${RELAY}/cash-collections`, { denominations: { "1000": 1, "200": 2, "100": 1 } });
        expect(right.status).toBe(201);
        await page.click("#cash-refresh");
        await page.waitForSelector(`#cash-confirm-${right.body.id}`);
        expect(await page.locator(`#cash-collection-${right.body.id} .notice-error`).count()).toBe(0);
        await screenshot(page, `counter-cash-${tag}-3-courier-counted`);
        await page.click(`#cash-confirm-${right.body.id}`);
        await page.waitForSelector("#cash-result .notice-ok");
        await expect(page.innerText("#cash-result")).resolves.toMatch(tag === "ar" ? ARABIC : /Confirmé : \u2066?1[ \u202f]500\u2069? DA/);
        await page.waitForSelector("#cash-nothing");
        await noSeriousAxeFindings(page);
        await screenshot(page, `counter-cash-${tag}-4-confirmed`);
        const collected = (await courier("GET", `/cash-collections/${right.body.id}`)).body;
        expect(collected).toMatchObject({
          status: "COLLECTED",
          counts: [
            { by: "courier", countedDzd: 1500 },
            { by: "agent", countedDzd: 1500, denominations: { "1000": 1, "200": 2, "100": 1 } }
          ]
        });
        expect((await courier("GET", "/cash")).body).toEqual({ aboardDzd: 1500 });

        // Without the network the screen says plainly that the cash needs it.
        await context.setOffline(true);
        await page.click("#cash-refresh");
        await page.waitForSelector("#cash-offline");
        await screenshot(page, `counter-cash-${tag}-5-offline`);
        await context.setOffline(false);
        expect(problems).toEqual([]);
      } finally {
        await context.close();
      }
    },
    180_000
  );
});
