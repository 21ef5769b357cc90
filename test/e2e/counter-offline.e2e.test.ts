import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import zlib from "node:zlib";
import type { Browser, Page } from "playwright-core";
import { barcodeVideo, labelBarcode } from "./counter-label-video";
import { expectEveryFileCompressed } from "./web-app-checks";
import {
  axeFindings,
  CounterSystem,
  describeBrowser,
  launchChromium,
  openPaired,
  phonePage,
  scan,
  screenshot,
  startCounterSystem
} from "./counter-system";

/**
 * Issue 27, acceptance 2 and the app's budgets: the counter app with no network (the page and its
 * service worker cut by Playwright's offline mode), its outbox, its camera fed a real label by
 * Chromium's fake video capture, and the size of its shell.
 */

/** What the page-side predicates read (this file is typed for Node, without the DOM library). */
type BrowserGlobals = { navigator: { serviceWorker: { controller: unknown } }; document: { querySelector(selector: string): unknown } };
type BrowserStorage = { localStorage: { getItem(key: string): string | null } };

const OTHER_RELAY = "DZ-16-HYDRA";

/** An offline hand-over of a prepaid shelf parcel: its label scanned, the PIN typed, one tap; it waits in the outbox. */
async function offlineHandover(page: Page, trackingNumber: string, pin: string): Promise<void> {
  await scan(page, "handover-scan", trackingNumber);
  await page.fill("#pin", pin);
  await page.click("#handover-confirm");
  await page.waitForSelector(`.notice-info:has-text("${trackingNumber} remis hors ligne")`);
}
describeBrowser("the counter app offline, its camera and its budget", () => {
  let system: CounterSystem;
  let browser: Browser;
  let tmp: string;

  beforeAll(async () => {
    system = await startCounterSystem();
    browser = await launchChromium();
    tmp = fs.mkdtempSync(path.join(os.tmpdir(), "counter-video-"));
  }, 200_000);

  afterAll(async () => {
    await browser?.close();
    await system?.stop();
    fs.rmSync(tmp, { recursive: true, force: true });
  });

  test("offline: a reload opens the app; arrivals wait in the outbox, shown, and are sent once when the network is back", async () => {
    const first = await system.incoming(null);
    const second = await system.incoming(900);
    const { context, page, problems } = await phonePage(browser, "fr-FR");
    try {
      await openPaired(system, page, "Comptoir hors ligne");
      await page.waitForSelector("#tile-incoming");
      // The service worker has precached the shell and controls the page.
      // A function, not a string: the page's CSP forbids eval, and a string predicate is eval'd.
      await page.waitForFunction(() => (globalThis as unknown as BrowserGlobals).navigator.serviceWorker.controller !== null);

      await context.setOffline(true);
      await page.reload();
      await page.waitForSelector(".net-off");
      await page.waitForSelector("#tile-incoming");
      expect(await page.innerText("main")).toMatch(/Copie du \d\d:\d\d \(hors ligne\)/);
      await screenshot(page, "offline-01-today");

      await page.click('[data-screen="receive"]');
      const beforeScans = Date.now();
      await scan(page, "receive-scan", first.trackingNumber);
      await page.waitForSelector(`.notice-info:has-text("${first.trackingNumber} enregistré")`);
      await scan(page, "receive-scan", second.trackingNumber);
      await page.waitForSelector('#outbox-count:has-text("2 en attente d\'envoi")');
      await screenshot(page, "offline-02-waiting");
      expect((await system.parcel(first.id)).status).toBe("IN_TRANSIT");

      // The outbox is on the phone, not in the page: a reload offline still shows both waiting.
      await page.reload();
      await page.waitForSelector('#outbox-count:has-text("2 en attente d\'envoi")');

      const beforeOnline = Date.now();
      await context.setOffline(false);
      await page.waitForSelector("#sync-results li.result-ok >> nth=1");
      expect(await page.locator("#outbox-count").count()).toBe(0);
      expect(await page.innerText("#sync-results")).toContain(first.trackingNumber);
      await screenshot(page, "offline-03-synced");
      expect(await axeFindings(page)).toEqual([]);

      // Each arrival reached the server exactly once, and a flush after that sends nothing more.
      await page.evaluate("window.dispatchEvent(new Event('online'))");
      for (const parcel of [first, second]) {
        const history = await system.history(parcel.id);
        const arrivals = history.filter(event => event.status === "AT_RELAY");
        expect(arrivals).toHaveLength(1);
        // The scan's time (sent as occurredAt), not the sync's.
        const at = Date.parse(arrivals[0].occurredAt);
        expect(at >= beforeScans - 1000 && at <= beforeOnline).toBe(true);
      }
      expect(problems).toEqual([]);
    } finally {
      await context.close();
    }
  }, 120_000);

  test("offline: two arrivals and a hand-over wait (3), sync once with their scan times; what changed meanwhile comes back refused with its reason", async () => {
    const first = await system.incoming(null);
    const second = await system.incoming(900);
    const redirected = await system.incoming(null);
    const handed = await system.incoming(null);
    const reset = await system.incoming(null);
    const { context, page, problems } = await phonePage(browser, "fr-FR");
    try {
      await openPaired(system, page, "Comptoir hors ligne, remises");
      await page.waitForFunction(() => (globalThis as unknown as BrowserGlobals).navigator.serviceWorker.controller !== null);
      // Two parcels reach the shelf while there is a network: the phone prepares their offline hand-over.
      await page.click('[data-screen="receive"]');
      for (const parcel of [handed, reset]) {
        await scan(page, "receive-scan", parcel.trackingNumber);
        await page.waitForSelector(`.notice-ok:has-text("${parcel.trackingNumber} reçu")`);
      }
      await page.click(".back");
      await page.waitForSelector("#tile-incoming");
      await page.waitForFunction(
        (numbers: string[]) => {
          const raw = (globalThis as unknown as BrowserStorage).localStorage.getItem("counter.verifiers") ?? "[]";
          const ready = (JSON.parse(raw) as { trackingNumber: string }[]).map(v => v.trackingNumber);
          return numbers.every(n => ready.includes(n));
        },
        [handed.trackingNumber, reset.trackingNumber]
      );
      const handedPin = await system.sms.pinOf(handed.trackingNumber);
      const oldPin = await system.sms.pinOf(reset.trackingNumber);

      await context.setOffline(true);
      await page.reload();
      await page.waitForSelector(".net-off");
      const beforeScans = Date.now();
      await page.click('[data-screen="receive"]');
      await scan(page, "receive-scan", first.trackingNumber);
      await page.waitForSelector(`.notice-info:has-text("${first.trackingNumber} enregistré")`);
      await scan(page, "receive-scan", second.trackingNumber);
      await page.waitForSelector('#outbox-count:has-text("2 en attente d\'envoi")');
      await page.click(".back");
      await page.click('[data-screen="handover"]');
      await offlineHandover(page, handed.trackingNumber, handedPin);
      await page.waitForSelector('#outbox-count:has-text("3 en attente d\'envoi")');
      await screenshot(page, "offline-04-handover-waiting");

      // Meanwhile, elsewhere: the recipient of a parcel on its way here sends it to another relay
      // point (the public redirect, with the SMS code), and an operator resets a shelf parcel's PIN.
      await system.redirectAsRecipient(redirected.trackingNumber, OTHER_RELAY);
      const resetAnswer = await system.bo.call("POST", `/parcels/${reset.id}/pickup-pin/reset`);
      expect(resetAnswer.status).toBe(200);
      // The phone, offline, knows neither: the arrival and the hand-over (old PIN) are recorded.
      await offlineHandover(page, reset.trackingNumber, oldPin);
      await page.click(".back");
      await page.click('[data-screen="receive"]');
      await scan(page, "receive-scan", redirected.trackingNumber);
      await page.waitForSelector('#outbox-count:has-text("5 en attente d\'envoi")');
      const beforeOnline = Date.now();

      await context.setOffline(false);
      await page.waitForSelector("#sync-results li >> nth=4");
      await page.waitForFunction(() => (globalThis as unknown as BrowserGlobals).document.querySelector("#outbox-count") === null);
      // The Receive screen, still open, says what became of the arrival it showed as waiting: the
      // line under the field gives the refusal, and the parcel leaves "Reçus maintenant".
      await page.waitForSelector('main .notice:has-text("Ce colis est pour un autre point relais")');
      expect(await page.innerText("main")).not.toContain("enregistré");
      expect(await page.locator(`#received li:has-text("${redirected.trackingNumber}")`).count()).toBe(0);
      expect(await page.locator("#received li.is-waiting").count()).toBe(0);
      const rows = await page.locator("#sync-results li").allInnerTexts();
      const rowOf = (number: string) => rows.filter(row => row.includes(number));
      for (const number of [first.trackingNumber, second.trackingNumber])
        expect(rowOf(number)).toEqual([expect.stringMatching(/^Réception .* Envoyé$/)]);
      expect(rowOf(handed.trackingNumber)).toEqual([expect.stringMatching(/^Remise .* Envoyé$/)]);
      expect(rowOf(redirected.trackingNumber)).toEqual([
        expect.stringMatching(/^Réception .* Refusé Ce colis est pour un autre point relais : rendez-le au livreur\. \(WRONG_RELAY\)$/)
      ]);
      expect(rowOf(reset.trackingNumber)).toEqual([
        expect.stringMatching(
          /^Remise .* Refusé Le code PIN a changé pendant la coupure : redemandez le nouveau code au client\. \(PIN_RESET\)$/
        )
      ]);
      await screenshot(page, "offline-05-results-refused");
      expect(await axeFindings(page)).toEqual([]);

      // The same results in Arabic, right to left.
      await page.selectOption("#language", "ar");
      await page.waitForSelector('#sync-results li:has-text("تغيّر رمز PIN أثناء الانقطاع")');
      expect(await page.getAttribute("html", "dir")).toBe("rtl");
      expect(await page.innerText("#sync-results")).toContain("هذا الطرد لنقطة تسليم أخرى");
      await screenshot(page, "offline-06-results-ar");

      // The server holds each accepted operation once, at its scan time; the refused ones changed nothing.
      await page.evaluate("window.dispatchEvent(new Event('online'))");
      for (const [parcel, status] of [
        [first, "AT_RELAY"],
        [second, "AT_RELAY"],
        [handed, "DELIVERED"]
      ] as const) {
        const events = (await system.history(parcel.id)).filter(event => event.status === status);
        expect(events).toHaveLength(1);
        const at = Date.parse(events[0].occurredAt);
        expect(at >= beforeScans - 1000 && at <= beforeOnline).toBe(true);
      }
      expect((await system.parcel(handed.id)).status).toBe("DELIVERED");
      expect(await system.parcel(redirected.id)).toMatchObject({ status: "IN_TRANSIT", destinationRelayCode: OTHER_RELAY });
      expect(["AT_RELAY", "RELAY_NOTIFIED"]).toContain((await system.parcel(reset.id)).status);
      // The two refusals are the only answers that were not a success.
      expect(problems.sort()).toEqual(["409 POST /api/relay/v1/arrivals", "409 POST /api/relay/v1/handovers"]);
    } finally {
      await context.close();
    }
  }, 180_000);

  test.each(["code128", "qr"] as const)(
    "the camera reads a real label's %s (the self-hosted decoder where the browser has no detector)",
    async which => {
      const parcel = await system.incoming(null);
      const video = path.join(tmp, `${which}.y4m`);
      fs.writeFileSync(video, barcodeVideo(labelBarcode(await system.labelPdf(parcel.id), which)));
      const camera = await launchChromium([
        "--use-fake-device-for-media-stream",
        "--use-fake-ui-for-media-stream",
        `--use-file-for-fake-video-capture=${video}`
      ]);
      try {
        const { page, problems } = await phonePage(camera, "fr-FR");
        const outside: string[] = [];
        page.on("request", request => {
          if (!request.url().startsWith(system.base)) outside.push(request.url());
        });
        await openPaired(system, page, `Comptoir caméra ${which}`);
        await page.click('[data-screen="receive"]');
        await page.click('button:has-text("Caméra")');
        await page.waitForSelector(`.notice-ok:has-text("${parcel.trackingNumber} reçu")`, { timeout: 30_000 });
        expect((await system.parcel(parcel.id)).status).not.toBe("IN_TRANSIT");
        expect(outside).toEqual([]);
        expect(problems).toEqual([]);
      } finally {
        await camera.close();
      }
    },
    90_000
  );

  test("the shell (HTML, CSS, JS) is at most 150 KB compressed, and the decoder is precached for offline", async () => {
    const { context, page } = await phonePage(browser, "fr-FR");
    try {
      const shell: { path: string; bytes: number; encoding: string | undefined }[] = [];
      page.on("response", async response => {
        const type = response.headers()["content-type"] ?? "";
        if (!/text\/html|text\/css|javascript/.test(type)) return;
        const encoding = response.headers()["content-encoding"];
        shell.push({ path: new URL(response.url()).pathname, bytes: zlib.gzipSync(await response.body()).length, encoding });
      });
      await openPaired(system, page, "Comptoir budget");
      await page.waitForSelector("#tile-incoming");
      // A function, not a string: the page's CSP forbids eval, and a string predicate is eval'd.
      await page.waitForFunction(() => (globalThis as unknown as BrowserGlobals).navigator.serviceWorker.controller !== null);
      const loaded = shell.map(file => file.path);
      expect(loaded).toEqual(expect.arrayContaining(["/counter/index.html", "/counter/app.css", "/counter/main.js"]));
      expect(loaded.some(file => file.includes("decoder"))).toBe(false);
      expect(shell.reduce((sum, file) => sum + file.bytes, 0)).toBeLessThanOrEqual(150 * 1024);
      // What the phone downloads is at most what the budget counts: the shell's text files come compressed (Brotli, which Chromium takes).
      expect(shell.filter(file => file.encoding !== "br").map(file => file.path)).toEqual([]);

      const cached = await page.evaluate<string[]>(`(async () => {
        const names = await caches.keys();
        const cache = await caches.open(names.find(name => name.startsWith("counter-")));
        return (await cache.keys()).map(request => new URL(request.url).pathname);
      })()`);
      expect(cached).toEqual(
        expect.arrayContaining(["/counter/index.html", "/counter/main.js", "/counter/prefetch.js", "/counter/zxing_reader.wasm"])
      );
      expect(cached.some(file => /\/counter\/decoder-[\w-]+\.js$/.test(file))).toBe(true);

      // One address for the shell (inside the worker's scope), and nothing but the app's own files.
      for (const address of ["/counter", "/counter/"]) {
        const answer = await fetch(system.base + address, { redirect: "manual" });
        expect([answer.status, answer.headers.get("location")]).toEqual([308, "/counter/index.html"]);
      }
      for (const address of ["/counter/package.json", "/counter/..%2F..%2Fpackage.json", "/counter/.env", "/counter/sw.js.map"]) {
        expect((await fetch(system.base + address)).status).toBe(404);
      }
    } finally {
      await context.close();
    }
  }, 60_000);

  test("every file of the app is sent compressed as the browser asks (Brotli, else gzip), with an ETag that revalidates to 304", async () => {
    await expectEveryFileCompressed(system.base, "counter", ["index.html", "main.js", "prefetch.js", "sw.js", "zxing_reader.wasm"]);
  }, 60_000);
});
