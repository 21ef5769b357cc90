import { randomBytes } from "node:crypto";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { Browser, BrowserContext, chromium, Page } from "playwright-core";
import { prepareZXingModule, readBarcodes } from "zxing-wasm/reader";
import { backoffice, http, partner } from "../helpers/http";
import { freePort, ROOT, RunningProcess, startNode, waitForHttp } from "../helpers/processes";
import { SmsInbox, startSmsInbox } from "../helpers/sms-inbox";

/**
 * What the counter app's browser tests share: a system started as `npm start` runs it (embedded),
 * an organisation sending parcels to the counter's relay point and the couriers bringing them,
 * the recipients' SMS (for their PINs), and Debian's headless Chromium at a phone's size.
 */
export const CHROMIUM = "/usr/bin/chromium";
export const CHROMIUM_FLAGS = [
  "--headless",
  "--no-sandbox",
  "--disable-gpu",
  "--disable-quic",
  "--no-first-run",
  "--disable-background-networking",
  "--disable-component-update",
  "--disable-sync"
];
export const ARTIFACTS = path.join(ROOT, ".ci-artifacts", "counter");
// Two device pixels per CSS pixel, as the cheap Android phones of our shops have: at 1x a label's
// Code 128 bars are under 2 px wide and a screenshot of them decodes only most of the time.
export const PHONE = { viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true, deviceScaleFactor: 2 };
export const RELAY = "DZ-16-ALGER-CENTRE";
const PUBLIC = "/api/public/v1";

export const hasChromium = fs.existsSync(CHROMIUM);
/** Chromium is required under CI=true (the suite fails there without it), optional on a laptop. */
export const describeBrowser = hasChromium || process.env.CI === "true" ? describe : describe.skip;
if (!hasChromium && process.env.CI !== "true") {
  process.stderr.write(`\n[notice] skipping the counter-app browser tests: ${CHROMIUM} is missing (apt-get install -y chromium)\n`);
}

export interface CounterSystem {
  base: string;
  bo: ReturnType<typeof backoffice>;
  live: ReturnType<typeof partner>;
  sms: SmsInbox;
  /** A parcel sent to the relay point and brought to it by the couriers (IN_TRANSIT); its id and number. */
  incoming(codAmountDzd: number | null, recipient?: { name: string; phone: string }): Promise<{ id: string; trackingNumber: string }>;
  /** A new agent key for the relay point, from the back-office (what pairing gives a phone). */
  agentKey(name: string): Promise<string>;
  /** The parcel as its merchant reads it. */
  parcel(id: string): Promise<any>;
  /** Its status history, oldest first (`GET /parcels/{id}/events`). */
  history(id: string): Promise<{ status: string; occurredAt: string }[]>;
  /**
   * The recipient sends the parcel to another relay point, as the tracking page does: a code asked
   * for, read from the SMS, and given back with the new point (`/api/public/v1/tracking/{n}/…`).
   */
  redirectAsRecipient(trackingNumber: string, destinationRelayCode: string): Promise<void>;
  /** Its label PDF, from its pre-signed labelUrl. */
  labelPdf(id: string): Promise<Buffer>;
  stop(): Promise<void>;
}

export async function startCounterSystem(extraEnv: Record<string, string> = {}): Promise<CounterSystem> {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "relay-counter-"));
  const port = await freePort();
  const base = `http://127.0.0.1:${port}`;
  const token = `bo_${randomBytes(12).toString("hex")}`;
  const sms = await startSmsInbox();
  let proc: RunningProcess | undefined;
  try {
    proc = await startNode({ PORT: String(port), DATA_DIR: dataDir, BACKOFFICE_TOKEN: token, ...sms.env, ...extraEnv });
    await waitForHttp(`${base}/readyz`);
  } catch (err) {
    await proc?.stop();
    await sms.close();
    throw err;
  }
  const bo = backoffice(base, token);
  const org = await bo.createOrganization("Boutique Comptoir");
  await bo.call("POST", `/organizations/${org.id}/wallet/top-ups`, { amountDzd: 100_000 });
  const live = partner(base, (await bo.createKey(org.id)).key);
  let serial = 0;

  return {
    base,
    bo,
    live,
    sms,
    async incoming(codAmountDzd, recipient) {
      serial += 1;
      const created = await live("POST", "/parcels", {
        recipientName: recipient?.name ?? `Client ${serial}`,
        recipientPhone: recipient?.phone ?? `+213 555 00 ${String(10 + serial).padStart(2, "0")} ${String(20 + serial).padStart(2, "0")}`,
        weightG: 800,
        destinationRelayCode: RELAY,
        codAmountDzd
      });
      if (created.status !== 201) throw new Error(`create: ${created.status} ${created.text}`);
      for (const toStatus of ["READY_FOR_PICKUP", "PICKED_UP", "IN_TRANSIT"]) {
        const moved = await bo.call("POST", `/parcels/${created.body.id}/transitions`, { toStatus });
        if (moved.status !== 200) throw new Error(`transition ${toStatus}: ${moved.status} ${moved.text}`);
      }
      return { id: created.body.id, trackingNumber: created.body.trackingNumber };
    },
    async agentKey(name) {
      const made = await bo.call("POST", `/relay-points/${RELAY}/agent-keys`, { name });
      if (made.status !== 201) throw new Error(`agent key: ${made.status} ${made.text}`);
      return made.body.key;
    },
    async parcel(id) {
      return (await live("GET", `/parcels/${id}`)).body;
    },
    async history(id) {
      return (await live("GET", `/parcels/${id}/events`)).body.items;
    },
    async redirectAsRecipient(trackingNumber, destinationRelayCode) {
      const codes = sms.redirectCodesFor(trackingNumber).length;
      const asked = await http(base, "POST", `${PUBLIC}/tracking/${trackingNumber}/verification`, { body: {} });
      if (asked.status !== 202) throw new Error(`redirect code: ${asked.status} ${asked.text}`);
      const code = await sms.redirectCodeOf(trackingNumber, codes + 1);
      const moved = await http(base, "POST", `${PUBLIC}/tracking/${trackingNumber}/redirect`, { body: { code, destinationRelayCode } });
      if (moved.status !== 200) throw new Error(`redirect: ${moved.status} ${moved.text}`);
    },
    async labelPdf(id) {
      const url = new URL((await live("GET", `/parcels/${id}`)).body.labelUrl);
      const response = await fetch(base + url.pathname + url.search);
      if (response.status !== 200) throw new Error(`label: ${response.status}`);
      return Buffer.from(await response.arrayBuffer());
    },
    async stop() {
      await proc?.stop();
      await sms.close();
      fs.rmSync(dataDir, { recursive: true, force: true });
    }
  };
}

export async function launchChromium(extraArgs: string[] = []): Promise<Browser> {
  if (!hasChromium) throw new Error(`CI=true but ${CHROMIUM} is missing: apt-get install -y chromium`);
  fs.mkdirSync(ARTIFACTS, { recursive: true });
  return chromium.launch({ executablePath: CHROMIUM, args: [...CHROMIUM_FLAGS, ...extraArgs] });
}

/**
 * A phone's page that records what the browser complains about (CSP refusals included) and every
 * answer of ours that is not a success, by address (the console's "Failed to load resource" lines
 * say neither which nor why: the answers are read instead).
 */
export async function phonePage(browser: Browser, locale: string): Promise<{ context: BrowserContext; page: Page; problems: string[] }> {
  const context = await browser.newContext({ ...PHONE, locale });
  const page = await context.newPage();
  // Waits, not measures: a shared two-core runner under load has taken over 30 s to install the worker.
  page.setDefaultTimeout(90_000);
  const problems: string[] = [];
  page.on("console", message => {
    if (message.type() === "error" && !message.text().startsWith("Failed to load resource")) problems.push(message.text());
  });
  page.on("response", response => {
    if (response.status() >= 400) problems.push(`${response.status()} ${response.request().method()} ${new URL(response.url()).pathname}`);
  });
  page.on("pageerror", error => problems.push(String(error)));
  return { context, page, problems };
}

/**
 * The phone opens the app with an agent key of the relay point on it, as pairing leaves it
 * (pairing itself is the day's test).
 */
export async function openPaired(system: CounterSystem, page: Page, name: string): Promise<void> {
  const key = await system.agentKey(name);
  await page.addInitScript(
    ([agentKey, relayCode]) =>
      localStorage.setItem(
        "counter.pairing",
        JSON.stringify({ key: agentKey, relayCode, relayName: "Librairie Didouche", deviceName: "Test" })
      ),
    [key, RELAY]
  );
  await page.goto(`${system.base}/counter/`);
}

/** A number typed into a scan field, then Enter: what a keyboard-wedge scanner does. */
export async function scan(page: Page, fieldId: string, value: string): Promise<void> {
  await page.fill(`#${fieldId}`, value);
  await page.press(`#${fieldId}`, "Enter");
}

export async function screenshot(page: Page, name: string): Promise<void> {
  await page.screenshot({ path: path.join(ARTIFACTS, `${name}.png`), fullPage: true });
}

const AXE_SOURCE = fs.readFileSync(path.join(ROOT, "node_modules", "axe-core", "axe.min.js"), "utf8");

/** axe-core's serious and critical findings on the page as it is now (WCAG 2 A and AA rules). */
export async function axeFindings(page: Page): Promise<string[]> {
  // Evaluated through the DevTools protocol: the page's CSP (no inline script) rightly refuses a script tag.
  await page.evaluate(AXE_SOURCE);
  return page.evaluate(async () => {
    const axe = (
      globalThis as unknown as {
        axe: { run(options: object): Promise<{ violations: { id: string; impact: string; nodes: { target: string[] }[] }[] }> };
      }
    ).axe;
    const result = await axe.run({ runOnly: { type: "tag", values: ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa"] } });
    return result.violations
      .filter(v => v.impact === "serious" || v.impact === "critical")
      .map(v => `${v.id} (${v.impact}): ${v.nodes.map(n => n.target.join(" ")).join(", ")}`);
  });
}

/** The barcodes (Code 128, QR) a picture shows, read by the same decoder the app falls back to. */
export async function decodeImage(png: Buffer): Promise<string[]> {
  const wasm = fs.readFileSync(path.join(ROOT, "node_modules", "zxing-wasm", "dist", "reader", "zxing_reader.wasm"));
  prepareZXingModule({ overrides: { wasmBinary: Uint8Array.from(wasm).buffer } });
  const found = await readBarcodes(new Uint8Array(png), { formats: ["Code128", "QRCode"] });
  return found.map(barcode => barcode.text);
}

export { http };
