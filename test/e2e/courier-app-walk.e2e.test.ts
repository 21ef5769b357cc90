import { randomBytes } from "node:crypto";
import type { Browser, BrowserContext, Page } from "playwright-core";
import {
  axeFindings,
  CounterSystem,
  decodeImage,
  describeBrowser,
  launchChromium,
  openPaired,
  phonePage,
  scan,
  startCounterSystem
} from "./counter-system";
import { counterWithCashAndReturn, CourierDay, courierDay, courierScreenshot } from "./courier-system";

/**
 * Issue 45 A, acceptance 1 and 2: a courier's day through the courier app, in headless Chromium at
 * 390×844, against the system as `npm start` runs it, in French and in Arabic — the phone paired
 * with a code; a merchant's pickup with one parcel missing (seen before leaving); the hub (parcels
 * handed in, loaded for the relay points); two relay points (one delivery; a return taken and the
 * till's cash counted by denomination, the agent confirming on the counter app's Courier screen in a
 * second browser context, whose QR the courier scans); the hub's hand-in of the cash, aboard until
 * the hub confirms. In Arabic the second relay stop is done with no network (page and
 * worker): recorded, shown as waiting, sent once when back, each operation once with its scan time.
 * Screenshots in .ci-artifacts/courier-app/.
 */

/** What the page-side predicates read (this file is typed for Node, without the DOM library). */
type BrowserGlobals = {
  navigator: { serviceWorker: { controller: unknown } };
  document: { querySelector(selector: string): { textContent: string | null } | null };
};

const WORDS = {
  fr: {
    closed: "Arrêt clôturé.",
    arrived: "Arrivée enregistrée.",
    queued: "Enregistré",
    confirm: "L'agent doit confirmer",
    zero: "plus d'espèces"
  },
  ar: { closed: "أُغلقت المحطة.", arrived: "سُجّل الوصول.", queued: "سُجّل: يُرسل", confirm: "يجب أن يؤكد العون", zero: "لا نقود" }
};

describeBrowser("the courier app: a courier's day", () => {
  let system: CounterSystem;
  let browser: Browser;

  beforeAll(async () => {
    system = await startCounterSystem();
    browser = await launchChromium();
  }, 200_000);

  afterAll(async () => {
    await browser?.close();
    await system?.stop();
  });

  const tile = async (page: Page, id: string) => (await page.textContent(`#${id} .tile-value`))?.replace(/[\u2066-\u2069\u202f\s]/g, "");

  /** Back to the run, then the stop at `position` (0-based). */
  async function toRun(page: Page): Promise<void> {
    await page.evaluate(() => {
      (globalThis as unknown as { location: { hash: string } }).location.hash = "#run";
    });
    await page.waitForSelector("#stops > li");
  }

  async function openStop(page: Page, position: number): Promise<void> {
    await toRun(page);
    await page.click(`#stops > li:nth-child(${position + 1}) button`);
    await page.waitForSelector("#screen-title");
  }

  async function walk(locale: "fr" | "ar", offlineRelay: boolean): Promise<void> {
    const words = WORDS[locale];
    const tag = randomBytes(3).toString("hex").toUpperCase();
    const day: CourierDay = await courierDay(system, tag);
    const { returnNumber } = await counterWithCashAndReturn(system, day.relayB.agent, 1500);
    await day.planRun([
      { kind: "PICKUP", ref: day.pickup.id },
      { kind: "HUB", ref: day.hub.id },
      { kind: "RELAY", ref: day.relayA.code },
      { kind: "RELAY", ref: day.relayB.code }
    ]);

    const language = locale === "fr" ? "fr-FR" : "ar-DZ";
    const { context, page, problems } = await phonePage(browser, language);
    // The agent's phone at relay B: the counter app, in a second browser context (same size, same language).
    const counter = await phonePage(browser, language);
    try {
      // Pairing: the operator's QR opens /courier/#pair=CODE.
      await page.goto(`${system.base}/courier/#pair=${await day.pairingCode()}`);
      await page.waitForSelector("#stops > li");
      expect(await page.getAttribute("html", "dir")).toBe(locale === "ar" ? "rtl" : "ltr");
      await page.waitForFunction(() => (globalThis as unknown as BrowserGlobals).navigator.serviceWorker.controller !== null);
      expect(await page.$$eval("#stops > li", items => items.map(item => item.getAttribute("data-kind")))).toEqual([
        "PICKUP",
        "HUB",
        "RELAY",
        "RELAY"
      ]);
      expect(await axeFindings(page)).toEqual([]);
      await courierScreenshot(page, `${locale}-01-run`);

      // The merchant: the manifest, then two of its three parcels; the third is missing before leaving.
      await openStop(page, 0);
      await scan(page, "manifest-scan", day.pickup.manifestNumber);
      await page.waitForSelector(".notice-ok");
      for (const parcel of day.pickup.parcels.slice(0, 2)) {
        await scan(page, "parcel-scan", parcel.trackingNumber);
        await page.waitForSelector(`.slot .notice-ok:has-text("${parcel.trackingNumber}")`);
      }
      expect(await tile(page, "tally-expected")).toBe("3");
      expect(await tile(page, "tally-scanned")).toBe("2");
      expect(await tile(page, "tally-missing")).toBe("1");
      expect(await page.isVisible(".notice-error")).toBe(true);
      expect(await axeFindings(page)).toEqual([]);
      await courierScreenshot(page, `${locale}-02-merchant-missing`);
      await page.click("#close-stop");
      await page.waitForSelector(`.notice-ok:has-text("${words.closed}")`);
      const pickup = await system.live("GET", `/pickups/${day.pickup.id}`);
      expect(pickup.body).toMatchObject({ status: "PARTIALLY_COMPLETED", missing: [day.pickup.parcels[2].id] });

      // The hub takes the two in (its station's scans); the run now lists them for relay A: loaded one scan each.
      const collected = day.pickup.parcels.slice(0, 2);
      for (const parcel of collected)
        expect((await day.hubApi("POST", "/scans/in", { trackingNumber: parcel.trackingNumber })).status).toBe(200);
      await toRun(page);
      // The refreshed run, not the morning's copy on screen: the phone knows a parcel's relay point
      // from the run, and a load scan before the answer arrives is "not on the run".
      await Promise.all([page.waitForResponse(r => r.url().includes("/api/courier/v1/run") && r.status() === 200), page.click("#refresh")]);
      await page.waitForSelector(`#stops > li:nth-child(3) .stop-what`);
      await openStop(page, 1);
      for (const parcel of collected) {
        await scan(page, "load-scan", parcel.trackingNumber);
        await page.waitForSelector(`.slot .notice-ok:has-text("${parcel.trackingNumber}")`);
      }
      await courierScreenshot(page, `${locale}-03-hub-load`);
      await page.click("#finish-stop");

      // Relay A: the counter's courier QR, then the agent scans the parcels in.
      await openStop(page, 2);
      await scan(page, "pass-scan", (await day.relayA.agent("POST", "/courier-pass")).body.pass);
      await page.waitForSelector(`.notice-ok:has-text("${words.arrived}")`);
      for (const parcel of collected)
        expect((await day.relayA.agent("POST", "/arrivals", { trackingNumber: parcel.trackingNumber })).status).toBe(200);
      await page.click("#finish-stop");

      // Relay B: the counter's Courier screen shows its QR; the courier scans it, takes the return the run listed
      // since the morning, counts the till's cash (1 000 + 500); offline in one walk.
      await openPaired(system, counter.page, `Comptoir ${tag}`);
      await counter.page.click('[data-screen="courier"]');
      const [pass] = await decodeImage(await (await counter.page.waitForSelector("#courier-qr")).screenshot());
      expect(pass).toMatch(/^RC1\./);
      await openStop(page, 3);
      // The run listed it since the morning (another walk's return may wait there too: the counter's relay point is shared).
      expect(await page.$$eval("#returns-list > li", items => items.map(item => item.textContent))).toEqual(
        expect.arrayContaining([expect.stringContaining(returnNumber)])
      );
      const before = new Date();
      if (offlineRelay) await context.setOffline(true);
      await scan(page, "pass-scan", pass);
      await scan(page, "return-scan", returnNumber);
      await page.fill("#relay-cash-note-1000", "1");
      await page.fill("#relay-cash-note-500", "1");
      expect((await page.textContent("#relay-cash-counted"))?.replace(/[^\d]/g, "")).toBe("1500");
      await page.click("#relay-cash-send");
      if (offlineRelay) {
        await page.waitForSelector(`.notice-info:has-text("${words.queued}")`);
        await page.waitForSelector("#outbox-count");
        expect((await page.textContent("#outbox-count"))?.replace(/[^\d]/g, "").startsWith("3")).toBe(true);
        await courierScreenshot(page, `${locale}-04-relay-offline-waiting`);
        // Still offline, the app reopens on the stop from its worker and the phone's copy of the run, the three still waiting.
        await page.reload();
        await page.waitForSelector("#pass-scan");
        expect((await page.textContent("#outbox-count"))?.replace(/[^\d]/g, "").startsWith("3")).toBe(true);
        await context.setOffline(false);
        await page.waitForSelector("#outbox-count", { state: "detached" });
        await page.waitForSelector("#sync-results");
      } else {
        await page.waitForSelector(`.notice-ok:has-text("${words.confirm}")`);
        // Online, each scan has its answer: the return, scanned while the pass was being sent, is not shown as waiting.
        await page.waitForSelector(`.notice-ok:has-text("${returnNumber}")`);
        expect(await page.isVisible(`.notice-info:has-text("${words.queued}")`)).toBe(false);
      }
      const back = new Date();
      expect(await axeFindings(page)).toEqual([]);
      await courierScreenshot(page, `${locale}-05-relay-cash`);

      // Each operation once, with the time it was done on the phone (before the network came back).
      const trail = (
        await system.bo.call("GET", `/parcels/${(await system.live("GET", `/parcels/by-tracking/${returnNumber}`)).body.id}/custody`)
      ).body.trail as { holder: string; holderId: string; since: string }[];
      const taken = trail.filter(entry => entry.holder === "courier" && entry.holderId === day.courier.id);
      expect(taken).toHaveLength(1);
      expect(Date.parse(taken[0].since)).toBeGreaterThanOrEqual(before.getTime() - 2000);
      expect(Date.parse(taken[0].since)).toBeLessThanOrEqual(back.getTime());
      const uncollected = await day.relayB.agent("GET", "/cash/uncollected");
      expect(uncollected.body.pendingCollections).toHaveLength(1);
      const collection = uncollected.body.pendingCollections[0];
      expect(collection).toMatchObject({ expectedDzd: 1500, courierId: day.courier.id, status: "AT_COUNTER" });
      expect(Date.parse(collection.occurredAt)).toBeLessThanOrEqual(back.getTime());
      // The agent, on the counter app: the courier's count beside the closing's, the same; confirmed.
      await counter.page.click("#cash-refresh");
      await counter.page.waitForSelector(`#cash-confirm-${collection.id}`);
      expect(await counter.page.locator(`#cash-collection-${collection.id} .notice-error`).count()).toBe(0);
      expect(await axeFindings(counter.page)).toEqual([]);
      await courierScreenshot(counter.page, `${locale}-06-counter-courier-counted`);
      await counter.page.click(`#cash-confirm-${collection.id}`);
      await counter.page.waitForSelector("#cash-result .notice-ok");
      await counter.page.waitForSelector("#cash-nothing");
      expect(await counter.page.getAttribute("html", "dir")).toBe(locale === "ar" ? "rtl" : "ltr");
      await courierScreenshot(counter.page, `${locale}-07-counter-confirmed`);
      expect(counter.problems).toEqual([]);
      expect((await day.relayB.agent("GET", "/cash/uncollected")).body.pendingCollections).toEqual([]);

      // The courier's phone: the cash is aboard once the agent confirmed.
      await page.click("#finish-stop");
      await page.waitForSelector("#refresh");
      await page.click("#refresh");
      await page.waitForFunction(() =>
        /^1\D?500/.test(
          ((globalThis as unknown as BrowserGlobals).document.querySelector("#progress-cash .tile-value")?.textContent ?? "").replace(
            /[\u2066-\u2069\u202f\s]/g,
            ""
          )
        )
      );
      await courierScreenshot(page, `${locale}-08-run-cash-aboard`);

      // The hub again: the cash handed in, aboard until the hub confirms.
      await openStop(page, 1);
      await page.click("#refresh-cash");
      await page.waitForSelector("#refresh-cash + .slot .notice");
      await page.fill("#hub-cash-note-1000", "1");
      await page.fill("#hub-cash-note-500", "1");
      await page.click("#hub-cash-send");
      const depositId = await (await page.waitForSelector("#deposit-ref")).getAttribute("data-deposit-id");
      await toRun(page);
      expect(await tile(page, "progress-cash")).toMatch(/^1500/);
      expect((await day.hubApi("POST", `/cash-deposits/${depositId}/confirm`, { denominations: { "1000": 1, "500": 1 } })).status).toBe(
        200
      );
      await openStop(page, 1);
      await page.click("#refresh-cash");
      await page.waitForSelector(`.notice-ok:has-text("${words.zero}")`);
      await courierScreenshot(page, `${locale}-09-hub-cash-confirmed`);
      await toRun(page);
      expect(await tile(page, "progress-cash")).toMatch(/^0/);
      // Every stop done, the relay stop finished after the app reopened offline too.
      expect(await page.$$eval("#stops > li .done", marks => marks.length)).toBe(4);
      await courierScreenshot(page, `${locale}-10-run-end`);
      expect(problems.filter(p => !(offlineRelay && /ERR_INTERNET_DISCONNECTED|Failed to fetch/.test(p)))).toEqual([]);
    } finally {
      await (context as BrowserContext).close();
      await counter.context.close();
    }
  }

  test("in French: paired, the whole run, the cash confirmed at each hand-off", () => walk("fr", false), 300_000);

  test(
    "in Arabic (right to left), the second relay stop with no network: waiting, then sent once with its times",
    () => walk("ar", true),
    300_000
  );
});
