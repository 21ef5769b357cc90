import fs from "node:fs";
import http from "node:http";
import type { AddressInfo } from "node:net";
import path from "node:path";
import { Browser, BrowserContextOptions, chromium, Page } from "playwright-core";
import relayDirectory from "../../resources/relay-points.json";
import type { RelayPointEntry } from "../../lib/relay-points";
import { toTrackingPageParcel, TrackingPageParcel } from "../../lib/public-tracking";
import { s10CheckDigit } from "../../lib/s10";
import { respondToTrackingPage, TRACKING_PAGE_CSP } from "../../lib/tracking-page";
import { ROOT } from "../helpers/processes";

/**
 * The tracking pages as a recipient's phone shows them: rendered by lib/tracking-page, served
 * with their CSP by a bare node:http server, opened in Debian's headless Chromium. Screenshots
 * land in .ci-artifacts/tracking-*.png.
 */

const CHROMIUM = "/usr/bin/chromium";
const CHROMIUM_FLAGS = [
  "--headless",
  "--no-sandbox",
  "--disable-gpu",
  "--disable-quic",
  "--no-first-run",
  "--disable-background-networking",
  "--disable-component-update",
  "--disable-sync"
];
const ARTIFACTS = path.join(ROOT, ".ci-artifacts");
const MOBILE: BrowserContextOptions = { viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true, deviceScaleFactor: 1 };
const DESKTOP: BrowserContextOptions = { viewport: { width: 1280, height: 900 } };

/** What the page functions below use in the browser (the project compiles without the DOM library). */
interface BrowserElement {
  parentElement: BrowserElement | null;
}
declare const document: { documentElement: { scrollWidth: number } };
declare function getComputedStyle(element: BrowserElement): { backgroundColor: string; color: string; direction: string };

const hasChromium = fs.existsSync(CHROMIUM);
if (!hasChromium && process.env.CI !== "true") {
  process.stderr.write(`\n[notice] skipping the tracking-page browser test: ${CHROMIUM} is missing (apt-get install -y chromium)\n`);
}
const describeBrowser = hasChromium || process.env.CI === "true" ? describe : describe.skip;

const directory = relayDirectory as RelayPointEntry[];
const ALGER = directory.find(p => p.code === "DZ-16-ALGER-CENTRE")!;

function trackingNumber(serial: string): string {
  return `RP${serial}${s10CheckDigit(serial)}DZ`;
}

const WAITING = trackingNumber("12345678");
const HOSTILE = trackingNumber("87654321");
const UNKNOWN = trackingNumber("00000001");

function parcel(
  number: string,
  relay: RelayPointEntry,
  extra: Partial<TrackingPageParcel> & Record<string, unknown> = {}
): TrackingPageParcel {
  const built = toTrackingPageParcel({
    trackingNumber: number,
    status: "RELAY_NOTIFIED",
    mode: "live",
    codAmountDzd: 1500,
    history: [
      { toStatus: "CREATED", createdAt: "2025-03-10T08:12:00Z" },
      { toStatus: "READY_FOR_PICKUP", createdAt: "2025-03-10T15:40:00Z" },
      { toStatus: "PICKED_UP", createdAt: "2025-03-11T07:55:00Z" },
      { toStatus: "IN_TRANSIT", createdAt: "2025-03-11T09:20:00Z" },
      { toStatus: "AT_RELAY", createdAt: "2025-03-12T13:05:00Z" },
      { toStatus: "RELAY_NOTIFIED", createdAt: "2025-03-12T13:06:00Z" }
    ],
    relay
  });
  if (!built) throw new Error("fixture parcel is not public");
  return { ...built, ...extra };
}

const PARCELS = new Map<string, TrackingPageParcel>([
  [WAITING, parcel(WAITING, ALGER)],
  [
    HOSTILE,
    // What must never reach the page even if a caller passed it along.
    parcel(
      HOSTILE,
      { ...ALGER, name: `<script>alert("x")</script> Kiosque`, address: `"><img src=x onerror=alert(1)> Rue` },
      { sandbox: true, recipientName: "Amina Benali", recipientPhone: "+213555123456", pricePaidDzd: 400 }
    )
  ]
]);

describeBrowser("tracking pages in headless Chromium", () => {
  let server: http.Server;
  let base: string;
  let browser: Browser;

  beforeAll(async () => {
    server = http.createServer((req, res) => {
      const url = new URL(req.url ?? "/", "http://localhost");
      const query: Record<string, string[]> = {};
      for (const [key, value] of url.searchParams) (query[key] ??= []).push(value);
      respondToTrackingPage(
        { path: url.pathname, query, acceptLanguage: req.headers["accept-language"] },
        async n => PARCELS.get(n) ?? null
      ).then(
        answer => {
          res.writeHead(answer.status, answer.headers);
          res.end(answer.body);
        },
        err => {
          res.writeHead(500, { "Content-Type": "text/plain" });
          res.end(String(err));
        }
      );
    });
    await new Promise<void>(resolve => server.listen(0, "127.0.0.1", resolve));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    if (!hasChromium) throw new Error(`CI=true but ${CHROMIUM} is missing: apt-get install -y chromium`);
    browser = await chromium.launch({ executablePath: CHROMIUM, args: CHROMIUM_FLAGS });
    fs.mkdirSync(ARTIFACTS, { recursive: true });
  }, 60_000);

  afterAll(async () => {
    await browser?.close();
    await new Promise(resolve => server?.close(resolve));
  });

  /** A page that records anything the browser complains about and any request leaving the server. */
  async function open(options: BrowserContextOptions & { locale?: string }) {
    const context = await browser.newContext(options);
    const page = await context.newPage();
    const problems: string[] = [];
    const outside: string[] = [];
    page.on("console", m => {
      // Chromium logs a 400 or 404 document as a failed load; the pages load nothing else (below).
      if (/^Failed to load resource: the server responded with a status of 40[04]/.test(m.text())) return;
      if (m.type() === "error" || m.type() === "warning") problems.push(m.text());
    });
    page.on("pageerror", e => problems.push(String(e)));
    page.on("request", r => {
      if (!r.url().startsWith(base) && !r.url().startsWith("data:")) outside.push(r.url());
      if (r.resourceType() !== "document") problems.push(`unexpected ${r.resourceType()} request ${r.url()}`);
    });
    return { page, problems, outside, close: () => context.close() };
  }

  async function shoot(page: Page, name: string): Promise<void> {
    const file = path.join(ARTIFACTS, `tracking-${name}.png`);
    await page.screenshot({ path: file, fullPage: true });
    expect(fs.statSync(file).size).toBeGreaterThan(5_000);
  }

  /** WCAG contrast of an element's text against the first opaque background behind it. */
  async function contrastOf(page: Page, selector: string): Promise<number> {
    const colours = await page.$eval(selector, element => {
      const parse = (c: string) => (c.match(/[\d.]+/g) ?? []).map(Number);
      let node: BrowserElement | null = element;
      let background = [255, 255, 255, 1];
      while (node) {
        const bg = parse(getComputedStyle(node).backgroundColor);
        if (bg.length >= 3 && (bg.length === 3 || bg[3] > 0)) {
          background = bg;
          break;
        }
        node = node.parentElement;
      }
      return { ink: parse(getComputedStyle(element).color), background };
    });
    const luminance = ([r, g, b]: number[]) => {
      const [R, G, B] = [r, g, b].map(v => {
        const s = v / 255;
        return s <= 0.03928 ? s / 12.92 : ((s + 0.055) / 1.055) ** 2.4;
      });
      return 0.2126 * R + 0.7152 * G + 0.0722 * B;
    };
    const [light, dark] = [luminance(colours.ink), luminance(colours.background)].sort((a, b) => b - a);
    return (light + 0.05) / (dark + 0.05);
  }

  test("French by default: the status, the cash to bring, the relay point and its hours, the timeline", async () => {
    const { page, problems, outside, close } = await open({ ...MOBILE, locale: "fr-FR" });
    try {
      const response = await page.goto(`${base}/track/${WAITING}`);
      expect(response?.status()).toBe(200);
      expect(response?.headers()["content-security-policy"]).toBe(TRACKING_PAGE_CSP);
      expect(await page.getAttribute("html", "lang")).toBe("fr");
      expect(await page.getAttribute("html", "dir")).toBe("ltr");
      // The hashed stylesheet applied: the CSP let it through.
      expect(await page.$eval("header", e => getComputedStyle(e).backgroundColor)).toBe("rgb(11, 79, 138)");

      await expect(page.getByRole("heading", { level: 1 }).innerText()).resolves.toContain(WAITING);
      const main = await page.innerText("main");
      expect(main).toContain("Votre colis vous attend au point relais");
      expect(main).toMatch(/1\s500\sDA/u);
      expect(main).toContain("Librairie Didouche");
      expect(main).toContain("42 Rue Didouche Mourad, Alger Centre");
      expect(main).toContain("Du samedi au jeudi");
      expect(main).toContain("08:30–12:30");
      expect(main).toContain("12 mars 2025 à 14:06");

      expect(await page.getByRole("banner").count()).toBe(1);
      expect(await page.getByRole("main").count()).toBe(1);
      expect(await page.getByRole("contentinfo").count()).toBe(1);
      expect(await page.getByRole("navigation", { name: "Langue" }).count()).toBe(1);
      const steps = page.locator("ol.timeline > li");
      expect(await steps.count()).toBe(6);
      await expect(steps.first().innerText()).resolves.toContain("Disponible au retrait");

      for (const selector of [
        "main p",
        ".muted",
        ".amount",
        ".status-title",
        ".langs a[aria-current]",
        ".langs a:not([aria-current])",
        ".when",
        ".hours .off td span",
        ".tag"
      ]) {
        const ratio = await contrastOf(page, selector);
        expect({ selector, readable: ratio >= 4.5 }).toEqual({ selector, readable: true });
      }
      expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
      await shoot(page, "parcel-fr-mobile");
      expect(problems).toEqual([]);
      expect(outside).toEqual([]);
    } finally {
      await close();
    }
  });

  test("Arabic from Accept-Language: right to left, Arabic names, Latin digits", async () => {
    const { page, problems, close } = await open({ ...MOBILE, locale: "ar-DZ" });
    try {
      const response = await page.goto(`${base}/track/${WAITING.toLowerCase()}`);
      expect(response?.status()).toBe(200);
      expect(await page.getAttribute("html", "lang")).toBe("ar");
      expect(await page.getAttribute("html", "dir")).toBe("rtl");
      expect(await page.$eval("main", e => getComputedStyle(e).direction)).toBe("rtl");
      const main = await page.innerText("main");
      expect(main).toContain("طردك في انتظارك في نقطة الاستلام");
      expect(main).toContain("مكتبة ديدوش");
      expect(main).toContain("من السبت إلى الخميس");
      expect(main).toContain("14:06");
      expect(main).toMatch(/1\.500/);
      expect(main).not.toMatch(/[\u0660-\u0669]/);

      // Headings start at the right-hand edge of their card.
      const heading = await page.locator("#status-heading").boundingBox();
      const card = await page.locator("section.status").boundingBox();
      expect(heading && card && card.x + card.width - (heading.x + heading.width)).toBeLessThan(30);
      expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
      await shoot(page, "parcel-ar-mobile");
      expect(problems).toEqual([]);
    } finally {
      await close();
    }
  });

  test("English through ?lang=, which beats Accept-Language and survives the links", async () => {
    const { page, problems, close } = await open({ ...DESKTOP, locale: "fr-FR" });
    try {
      await page.goto(`${base}/track/${WAITING}?lang=en`);
      expect(await page.getAttribute("html", "lang")).toBe("en");
      const main = await page.innerText("main");
      expect(main).toContain("Your parcel is waiting for you at the relay point");
      expect(main).toMatch(/DZD\s1,500/u);
      expect(main).toContain("Saturday to Thursday");
      expect(await page.getAttribute("a.brand", "href")).toBe("/track?lang=en");
      await shoot(page, "parcel-en-desktop");

      await page.getByRole("link", { name: "العربية" }).click();
      expect(await page.getAttribute("html", "dir")).toBe("rtl");
      await shoot(page, "parcel-ar-desktop");
      expect(problems).toEqual([]);
    } finally {
      await close();
    }
  });

  test("the form leads to the parcel page without any script, whatever the spacing and case", async () => {
    const { page, problems, close } = await open({ ...MOBILE, locale: "fr-FR" });
    try {
      await page.goto(`${base}/track`);
      expect(await page.locator("script").count()).toBe(0);
      await shoot(page, "form-fr-mobile");
      const spaced = `${WAITING.slice(0, 2).toLowerCase()} ${WAITING.slice(2, 6)} ${WAITING.slice(6, 10)} ${WAITING.slice(10).toLowerCase()}`;
      await page.getByLabel("Numéro de suivi").fill(spaced);
      await Promise.all([page.waitForURL(`${base}/track/${WAITING}`), page.getByRole("button", { name: "Suivre" }).click()]);
      expect(await page.innerText("h1")).toContain(WAITING);

      await page.goto(`${base}/track`);
      await page.getByLabel("Numéro de suivi").fill("hello");
      const [answer] = await Promise.all([
        page.waitForResponse(r => r.url().includes("number=hello")),
        page.getByRole("button", { name: "Suivre" }).click()
      ]);
      expect(answer.status()).toBe(400);
      expect(await page.getAttribute("#number", "aria-invalid")).toBe("true");
      expect(await page.innerText("#number-error")).toContain("ne ressemble pas à un numéro de suivi");
      await shoot(page, "form-error-fr-mobile");
      expect(problems).toEqual([]);
    } finally {
      await close();
    }
  });

  test("an unknown number answers 404 with a page that says so", async () => {
    const { page, problems, close } = await open({ ...MOBILE, locale: "fr-FR" });
    try {
      const response = await page.goto(`${base}/track/${UNKNOWN}`);
      expect(response?.status()).toBe(404);
      expect(await page.innerText("h1")).toBe("Colis introuvable");
      expect(await page.innerText("main")).toContain(`Aucun colis ne porte le numéro ${UNKNOWN}`);
      expect(await page.inputValue("#number")).toBe(UNKNOWN);
      await shoot(page, "not-found-fr-mobile");
      await page.goto(`${base}/track/${UNKNOWN}?lang=ar`);
      expect(await page.innerText("h1")).toBe("لم يتم العثور على الطرد");
      await shoot(page, "not-found-ar-mobile");
      expect(problems).toEqual([]);
    } finally {
      await close();
    }
  });

  test("hostile relay data stays text; personal data passed along is not shown; the sandbox is announced", async () => {
    const { page, problems, close } = await open({ ...MOBILE, locale: "fr-FR" });
    try {
      await page.goto(`${base}/track/${HOSTILE}`);
      expect(await page.locator("script, img").count()).toBe(0);
      const main = await page.innerText("main");
      expect(main).toContain(`<script>alert("x")</script> Kiosque`);
      expect(main).toContain("Colis de test");
      const text = await page.innerText("body");
      for (const secret of ["Amina", "555123456", "400"]) expect(text).not.toContain(secret);
      expect(problems).toEqual([]);
    } finally {
      await close();
    }
  });
});
