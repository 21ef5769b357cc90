import zlib from "node:zlib";
import { WEB_APP_CONTENT_SECURITY_POLICY } from "../../services/gateway/web-apps.mixin";
import type { Browser } from "playwright-core";
import { axeFindings, CounterSystem, describeBrowser, phonePage } from "./counter-system";
import { courierScreenshot } from "./courier-system";
import { expectEveryFileCompressed, useSystemAndBrowser } from "./web-app-checks";

/** What the page-side predicates read (this file is typed for Node, without the DOM library). */
type BrowserGlobals = { navigator: { serviceWorker: { controller: unknown } } };

/**
 * Issue 45 A and C, the courier app's budgets, as the counter app's: the shell (HTML, CSS, JS,
 * the decoder excluded) at most 150 KB compressed and sent compressed, no inline script (the CSP
 * forbids it, and the shell has none), 0 serious or critical axe-core findings on the pairing
 * screen in French and in Arabic, the worker precaching the shell and the decoder, and every file
 * compressed with an ETag that revalidates to 304 (decision 0049). The time to usable (2 s on Slow
 * 4G with 4× CPU) is a measure, not a test: `npm run bench:counter -- --app courier`.
 */
describeBrowser("the courier app: its budgets", () => {
  let system: CounterSystem;
  let browser: Browser;
  useSystemAndBrowser((started, chromium) => {
    system = started;
    browser = chromium;
  });

  test("the shell is at most 150 KB compressed, sent with Brotli, has no inline script, and its worker precaches it and the decoder", async () => {
    const { context, page, problems } = await phonePage(browser, "fr-FR");
    try {
      const shell: { path: string; bytes: number; encoding: string | undefined }[] = [];
      page.on("response", async response => {
        const type = response.headers()["content-type"] ?? "";
        if (!/text\/html|text\/css|javascript/.test(type)) return;
        shell.push({
          path: new URL(response.url()).pathname,
          bytes: zlib.gzipSync(await response.body()).length,
          encoding: response.headers()["content-encoding"]
        });
      });
      const answer = await page.goto(`${system.base}/courier/`);
      expect(answer?.headers()["content-security-policy"]).toBe(WEB_APP_CONTENT_SECURITY_POLICY);
      await page.waitForSelector("#pair-code");
      await page.waitForFunction(() => (globalThis as unknown as BrowserGlobals).navigator.serviceWorker.controller !== null);
      const loaded = shell.map(file => file.path);
      expect(loaded).toEqual(expect.arrayContaining(["/courier/index.html", "/courier/app.css", "/courier/main.js"]));
      expect(loaded.some(file => file.includes("decoder"))).toBe(false);
      expect(shell.reduce((sum, file) => sum + file.bytes, 0)).toBeLessThanOrEqual(150 * 1024);
      expect(shell.filter(file => file.encoding !== "br").map(file => file.path)).toEqual([]);
      // No inline script: every <script> of the shell has a src.
      expect(await page.$$eval("script", scripts => scripts.filter(s => !s.getAttribute("src")).length)).toBe(0);

      const cached = await page.evaluate<string[]>(`(async () => {
        const names = await caches.keys();
        const cache = await caches.open(names.find(name => name.startsWith("courier-")));
        return (await cache.keys()).map(request => new URL(request.url).pathname);
      })()`);
      expect(cached).toEqual(
        expect.arrayContaining(["/courier/index.html", "/courier/main.js", "/courier/app.css", "/courier/zxing_reader.wasm"])
      );
      // The counter app's caches are its own: the two workers never drop each other's.
      expect(cached.some(file => file.startsWith("/counter/"))).toBe(false);
      for (const address of ["/courier", "/courier/"]) {
        const redirect = await fetch(system.base + address, { redirect: "manual" });
        expect([redirect.status, redirect.headers.get("location")]).toEqual([308, "/courier/index.html"]);
      }
      for (const address of ["/courier/package.json", "/courier/..%2F..%2Fpackage.json", "/courier/sw.js.map"]) {
        expect((await fetch(system.base + address)).status).toBe(404);
      }
      expect(problems).toEqual([]);
    } finally {
      await context.close();
    }
  }, 90_000);

  test.each(["fr-FR", "ar-DZ"])(
    "no serious or critical axe-core finding on the pairing screen (%s)",
    async locale => {
      const { context, page } = await phonePage(browser, locale);
      try {
        await page.goto(`${system.base}/courier/index.html`);
        await page.waitForSelector("#pair-code");
        expect(await page.getAttribute("html", "dir")).toBe(locale === "ar-DZ" ? "rtl" : "ltr");
        expect(await axeFindings(page)).toEqual([]);
        await courierScreenshot(page, `${locale.slice(0, 2)}-00-pair`);
      } finally {
        await context.close();
      }
    },
    60_000
  );

  test("every file of the app is sent compressed as the browser asks (Brotli, else gzip), with an ETag that revalidates to 304", async () => {
    await expectEveryFileCompressed(system.base, "courier", [
      "index.html",
      "main.js",
      "prefetch.js",
      "app.css",
      "courier.css",
      "sw.js",
      "zxing_reader.wasm"
    ]);
  }, 60_000);
});
