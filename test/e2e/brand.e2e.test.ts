import { randomBytes } from "node:crypto";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { Browser, chromium, Page } from "playwright-core";
import { backoffice, partner } from "../helpers/http";
import { parsePdf } from "../helpers/pdf";
import { freePort, ROOT, RunningProcess, startNode, waitForHttp } from "../helpers/processes";
import { SmsInbox, startSmsInbox } from "../helpers/sms-inbox";

/**
 * Issue 30: a system started with BRAND_NAME="Colis Express" and BRAND_COLOR="#0a7" (embedded, as
 * `npm start` runs it) shows that name and colour where recipients look: the tracking page in
 * French and in Arabic (headless Chromium, a 390 px phone), the pick-up SMS, and the label.
 * Screenshots land in .ci-artifacts/brand-*.png.
 */

const CHROMIUM = "/usr/bin/chromium";
const CHROMIUM_FLAGS = ["--headless", "--no-sandbox", "--disable-gpu", "--no-first-run", "--disable-background-networking"];
const ARTIFACTS = path.join(ROOT, ".ci-artifacts");
const hasChromium = fs.existsSync(CHROMIUM);
/** Served by the test itself (the browser's request is answered by a route): no network needed. */
const LOGO_URL = "https://cdn.colis.example/logo.svg";
const LOGO_SVG =
  '<svg xmlns="http://www.w3.org/2000/svg" width="64" height="64" viewBox="0 0 64 64"><rect width="64" height="64" rx="12" fill="#fff"/>' +
  '<path d="M12 22l20-10 20 10v20L32 52 12 42z" fill="#0a7"/></svg>';
const describeBrowser = hasChromium || process.env.CI === "true" ? describe : describe.skip;

/** What the page functions below use in the browser (the project compiles without the DOM library). */
interface BrowserElement {
  parentElement: BrowserElement | null;
}
declare const document: { documentElement: { scrollWidth: number }; title: string };
interface BrowserImage {
  complete: boolean;
  naturalWidth: number;
}
declare function getComputedStyle(element: BrowserElement): { backgroundColor: string; color: string };

/** WCAG contrast of two rgb() colours. */
function contrast(a: string, b: string): number {
  const luminance = (c: string) => {
    const [r, g, bl] = (c.match(/[\d.]+/g) ?? []).map(Number).map(v => {
      const s = v / 255;
      return s <= 0.03928 ? s / 12.92 : ((s + 0.055) / 1.055) ** 2.4;
    });
    return 0.2126 * r + 0.7152 * g + 0.0722 * bl;
  };
  const [light, dark] = [luminance(a), luminance(b)].sort((x, y) => y - x);
  return (light + 0.05) / (dark + 0.05);
}

describeBrowser("a system under its operator's brand", () => {
  let proc: RunningProcess;
  let sms: SmsInbox;
  let dataDir: string;
  let base: string;
  let browser: Browser;
  let parcel: { id: string; trackingNumber: string; labelUrl: string };

  beforeAll(async () => {
    sms = await startSmsInbox();
    dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "relay-brand-"));
    const port = await freePort();
    base = `http://127.0.0.1:${port}`;
    const token = `bo_${randomBytes(12).toString("hex")}`;
    proc = await startNode({
      PORT: String(port),
      DATA_DIR: dataDir,
      BACKOFFICE_TOKEN: token,
      PUBLIC_BASE_URL: base,
      BRAND_NAME: "Colis Express",
      BRAND_COLOR: "#0a7",
      BRAND_LOGO_URL: LOGO_URL,
      ...sms.env
    });
    await waitForHttp(`${base}/readyz`);
    const bo = backoffice(base, token);
    const org = await bo.createOrganization("Boutique Marque");
    await bo.call("POST", `/organizations/${org.id}/wallet/top-ups`, { amountDzd: 10_000 });
    const live = partner(base, (await bo.createKey(org.id)).key);
    parcel = (
      await live("POST", "/parcels", {
        recipientName: "Amina Benali",
        recipientPhone: "0555 12 34 56",
        weightG: 1200,
        destinationRelayCode: "DZ-16-ALGER-CENTRE",
        codAmountDzd: 1500
      })
    ).body;
    for (const toStatus of ["READY_FOR_PICKUP", "PICKED_UP", "IN_TRANSIT", "AT_RELAY"]) {
      expect((await bo.call("POST", `/parcels/${parcel.id}/transitions`, { toStatus })).status).toBe(200);
    }
    if (!hasChromium) throw new Error(`CI=true but ${CHROMIUM} is missing: apt-get install -y chromium`);
    browser = await chromium.launch({ executablePath: CHROMIUM, args: CHROMIUM_FLAGS });
    fs.mkdirSync(ARTIFACTS, { recursive: true });
  }, 200_000);

  afterAll(async () => {
    await browser?.close();
    await proc?.stop();
    await sms?.close();
    fs.rmSync(dataDir, { recursive: true, force: true });
  });

  test("the pick-up SMS is signed with the brand", async () => {
    await sms.pinOf(parcel.trackingNumber);
    const [pickup] = sms.sentFor(parcel.trackingNumber);
    expect(pickup.to).toBe("+213555123456");
    expect(pickup.message.startsWith("Colis Express: ")).toBe(true);
  });

  test("the label PDF names the brand", async () => {
    const res = await fetch(parcel.labelUrl);
    expect(res.status).toBe(200);
    const text = (await parsePdf(Buffer.from(await res.arrayBuffer()))).text.replace(/\s+/g, " ");
    expect(text).toContain("Colis Express");
    expect(text).toContain("From: Boutique Marque");
  });

  async function check(page: Page, lang: "fr" | "ar"): Promise<void> {
    const response = await page.goto(`${base}/track/${parcel.trackingNumber}?lang=${lang}`);
    expect(response?.status()).toBe(200);
    expect(await page.getAttribute("html", "dir")).toBe(lang === "ar" ? "rtl" : "ltr");
    expect(await page.innerText("header a.brand")).toBe("Colis Express");
    // The logo, from its https origin, which the page's CSP allows (a blocked image has no natural width).
    expect(await page.getAttribute("header a.brand img", "src")).toBe(LOGO_URL);
    expect(response?.headers()["content-security-policy"]).toContain("img-src 'self' data: https://cdn.colis.example;");
    await page.waitForFunction(() => {
      const img = (globalThis as unknown as { document: { querySelector(s: string): BrowserImage | null } }).document.querySelector(
        "header img"
      );
      return img !== null && img.complete;
    });
    expect(await page.$eval("header a.brand img", e => (e as unknown as BrowserImage).naturalWidth)).toBeGreaterThan(0);
    expect(await page.evaluate(() => document.title)).toMatch(/ – Colis Express$/);
    // The colour came through the CSP (a blocked stylesheet would leave the header transparent).
    const header = await page.$eval("header", e => getComputedStyle(e).backgroundColor);
    expect(header).toBe("rgb(0, 170, 119)");
    // A light brand colour: the header's text turns dark, and links take a darker shade of it; both readable.
    const brandInk = await page.$eval("header a.brand", e => getComputedStyle(e).color);
    expect(contrast(brandInk, header)).toBeGreaterThanOrEqual(4.5);
    const link = await page.$eval("main a", e => getComputedStyle(e).color);
    expect(contrast(link, "rgb(255, 255, 255)")).toBeGreaterThanOrEqual(4.5);
    const current = await page.$eval("nav.langs a[aria-current]", e => ({
      ink: getComputedStyle(e).color,
      bg: getComputedStyle(e).backgroundColor
    }));
    expect(contrast(current.ink, current.bg)).toBeGreaterThanOrEqual(4.5);
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
    const file = path.join(ARTIFACTS, `brand-tracking-${lang}.png`);
    await page.screenshot({ path: file, fullPage: true });
    expect(fs.statSync(file).size).toBeGreaterThan(5_000);
  }

  test("the tracking page, French then Arabic, on a 390 px phone: the name, the colour, readable", async () => {
    const context = await browser.newContext({ viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true, locale: "fr-FR" });
    await context.route(LOGO_URL, route => route.fulfill({ status: 200, contentType: "image/svg+xml", body: LOGO_SVG }));
    const page = await context.newPage();
    const problems: string[] = [];
    page.on("console", m => {
      if (m.type() === "error" || m.type() === "warning") problems.push(m.text());
    });
    try {
      await check(page, "fr");
      await check(page, "ar");
      expect(problems).toEqual([]);
    } finally {
      await context.close();
    }
  });
});
