import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import zlib from "node:zlib";
import type { Browser } from "playwright-core";
import { barcodeVideo, labelBarcode } from "./counter-label-video";
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
type BrowserGlobals = { navigator: { serviceWorker: { controller: unknown } } };
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
      const shell: { path: string; bytes: number }[] = [];
      page.on("response", async response => {
        const type = response.headers()["content-type"] ?? "";
        if (!/text\/html|text\/css|javascript/.test(type)) return;
        shell.push({ path: new URL(response.url()).pathname, bytes: zlib.gzipSync(await response.body()).length });
      });
      await openPaired(system, page, "Comptoir budget");
      await page.waitForSelector("#tile-incoming");
      // A function, not a string: the page's CSP forbids eval, and a string predicate is eval'd.
      await page.waitForFunction(() => (globalThis as unknown as BrowserGlobals).navigator.serviceWorker.controller !== null);
      const loaded = shell.map(file => file.path);
      expect(loaded).toEqual(expect.arrayContaining(["/counter/index.html", "/counter/app.css", "/counter/main.js"]));
      expect(loaded.some(file => file.includes("decoder"))).toBe(false);
      expect(shell.reduce((sum, file) => sum + file.bytes, 0)).toBeLessThanOrEqual(150 * 1024);

      const cached = await page.evaluate<string[]>(`(async () => {
        const names = await caches.keys();
        const cache = await caches.open(names.find(name => name.startsWith("counter-")));
        return (await cache.keys()).map(request => new URL(request.url).pathname);
      })()`);
      expect(cached).toEqual(expect.arrayContaining(["/counter/index.html", "/counter/main.js", "/counter/zxing_reader.wasm"]));
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
});
