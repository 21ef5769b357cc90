import { randomBytes } from "node:crypto";
import fs from "node:fs";
import net from "node:net";
import os from "node:os";
import path from "node:path";
import zlib from "node:zlib";
import { Browser, chromium, Page } from "playwright-core";
import { cleanEnv, ROOT, startService, waitUntil } from "./proc";

/**
 * `npm run bench:counter`: how long the counter app takes to become usable on a cheap phone, as
 * issue 27 budgets it (2 s under Chromium's "Slow 4G" with a 4× CPU slowdown); with `--app courier`,
 * the courier app (issue 45, same budget: its marks are the run's shell, a stop's scan field, and
 * the run's stops read from the courier API). A script, not a
 * test: a time measured on a shared machine is a number to read, never a pass or fail.
 *
 * It starts the system as `npm start` runs it (embedded, its own port and data folder), pairs a
 * phone (an agent key in the app's storage, as pairing leaves it), and loads the app in headless
 * Chromium at 390×844 with DevTools' own Slow 4G preset and 4× CPU throttling, cold (nothing
 * cached, no service worker) and warm (the service worker answers the shell from its cache; the
 * relay API still goes over the throttled network), at /counter/index.html (the manifest's start_url;
 * /counter/ adds one redirect, one round trip). Three marks from navigation start, taken in
 * the page by a MutationObserver (no polling from outside):
 *   actions — Today's action buttons rendered: the agent can tap "Recevoir" and scan;
 *   scan    — opened at #receive, the scan field rendered and focused: a wedge scanner types in it;
 *   day     — Today's tiles filled from the relay API (its four reads).
 * Each is the median of RUNS loads. Options: --runs N (default 5), --chromium PATH, --app counter|courier.
 */

/** DevTools' "Slow 4G" (front_end/core/sdk/NetworkManager.ts, Slow4GConditions): 562.5 ms, 1.44 Mbit/s down, 675 kbit/s up. */
const SLOW_4G = { offline: false, latency: 562.5, downloadThroughput: 180_000, uploadThroughput: 84_375 };
const CPU_SLOWDOWN = 4;
const RELAY = "DZ-16-ALGER-CENTRE";
type Mark = "actions" | "scan" | "day";

/** An app measured: where it lives, what the phone keeps once paired, its marks and the address of its scan field. */
interface App {
  name: "counter" | "courier";
  storageKey: string;
  marks: Record<Mark, string>;
  scanHash: string;
  /** What pairing leaves in the phone's storage (a key made in the back-office). */
  pairing(base: string, token: string): Promise<string>;
}

const APPS: Record<App["name"], App> = {
  counter: {
    name: "counter",
    storageKey: "counter.pairing",
    marks: { actions: '[data-screen="receive"]', scan: "#receive-scan", day: "#tile-incoming" },
    scanHash: "#receive",
    async pairing(base, token) {
      return JSON.stringify({ key: await agentKey(base, token), relayCode: RELAY, relayName: "Bench", deviceName: "Bench" });
    }
  },
  courier: {
    name: "courier",
    storageKey: "courier.pairing",
    marks: { actions: "#refresh", scan: "#pass-scan", day: "#stops" },
    scanHash: "#stop=0",
    async pairing(base, token) {
      const courier = ((await backoffice(base, token, "GET", "/couriers")) as { id: string; homeHubId: string }[])[0];
      // Today's run goes to the counter's relay point: its stop is the one opened at #stop=0.
      const today = new Date(Date.now() + 3_600_000).toISOString().slice(0, 10);
      const run = (await backoffice(base, token, "GET", `/runs?date=${today}&courierId=${courier.id}`)) as { id: string };
      await backoffice(base, token, "PUT", `/runs/${run.id}/stops`, { stops: [{ kind: "RELAY", ref: RELAY }] });
      const made = (await backoffice(base, token, "POST", "/staff-keys", { role: "courier", subjectId: courier.id, name: "bench" })) as {
        key: string;
      };
      return JSON.stringify({ key: made.key, courierId: courier.id, courierName: "Bench", hubId: courier.homeHubId, deviceName: "Bench" });
    }
  }
};
let MARKS: Record<Mark, string> = APPS.counter.marks;

async function backoffice(base: string, token: string, method: string, apiPath: string, body?: unknown): Promise<unknown> {
  const answer = await fetch(`${base}/api/backoffice/v1${apiPath}`, {
    method,
    headers: { Authorization: `Bearer ${token}`, "Content-Type": "application/json" },
    body: body === undefined ? undefined : JSON.stringify(body)
  });
  if (answer.status >= 300) throw new Error(`${method} ${apiPath}: ${answer.status} ${await answer.text()}`);
  return answer.json();
}

function option(name: string, fallback: string): string {
  const at = process.argv.indexOf(`--${name}`);
  return at >= 0 && process.argv[at + 1] ? process.argv[at + 1] : fallback;
}

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.once("error", reject);
    server.listen(0, "127.0.0.1", () => {
      const { port } = server.address() as net.AddressInfo;
      server.close(() => resolve(port));
    });
  });
}

/**
 * Runs in the page before its own scripts (through the DevTools protocol, so the app's CSP does
 * not apply): records performance.now() the first time each mark is in the document (the scan
 * mark only once the field has the focus). A function, serialised by Playwright.
 */
/** What the page-side functions use (this file is typed for Node, without the DOM library). */
interface PageGlobals {
  __counterMarks: Record<string, number>;
  document: {
    activeElement: unknown;
    querySelector(selector: string): unknown;
    addEventListener(type: string, listener: () => void, capture: boolean): void;
  };
  MutationObserver: new (callback: () => void) => { observe(target: unknown, options: object): void };
  navigator: { serviceWorker: { controller: unknown } };
}

function recordMarks(marks: Record<string, string>): void {
  const page = globalThis as unknown as PageGlobals;
  const { document } = page;
  const found: Record<string, number> = {};
  page.__counterMarks = found;
  const check = () => {
    for (const [name, selector] of Object.entries(marks)) {
      if (found[name] !== undefined) continue;
      const element = document.querySelector(selector);
      if (element && (name !== "scan" || document.activeElement === element)) found[name] = performance.now();
    }
  };
  new page.MutationObserver(check).observe(document, { childList: true, subtree: true });
  document.addEventListener("focusin", check, true);
}

async function agentKey(base: string, token: string): Promise<string> {
  const made = await backoffice(base, token, "POST", `/relay-points/${RELAY}/agent-keys`, {
    name: `bench ${randomBytes(3).toString("hex")}`
  });
  return (made as { key: string }).key;
}

async function throttle(page: Page): Promise<void> {
  const cdp = await page.context().newCDPSession(page);
  await cdp.send("Network.enable");
  await cdp.send("Network.emulateNetworkConditions", SLOW_4G);
  await cdp.send("Emulation.setCPUThrottlingRate", { rate: CPU_SLOWDOWN });
}

async function marksOf(page: Page, wanted: Mark[]): Promise<Partial<Record<Mark, number>>> {
  for (const mark of wanted) await page.waitForSelector(MARKS[mark], { timeout: 60_000 });
  if (wanted.includes("scan")) {
    await page.waitForFunction(() => (globalThis as unknown as PageGlobals).__counterMarks.scan !== undefined);
  }
  return page.evaluate(() => (globalThis as unknown as PageGlobals).__counterMarks);
}

/** One load of each kind in a new phone (context): cold at `hash`, then warm (its worker installed) at `hash`. */
async function loadPair(browser: Browser, base: string, app: App, pairing: string, hash: string, wanted: Mark[]) {
  const context = await browser.newContext({ viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true, locale: "fr-FR" });
  try {
    await context.addInitScript(([storageKey, value]) => localStorage.setItem(storageKey, value), [app.storageKey, pairing]);
    await context.addInitScript(recordMarks, MARKS);
    const cold = await context.newPage();
    await throttle(cold);
    let shellBytes = 0;
    cold.on("response", response => {
      const type = response.headers()["content-type"] ?? "";
      if (/text\/html|text\/css|javascript/.test(type)) void response.body().then(body => (shellBytes += zlib.gzipSync(body).length));
    });
    await cold.goto(`${base}/${app.name}/index.html${hash}`);
    const coldMarks = await marksOf(cold, wanted);
    // The worker has precached the shell before a warm load means anything.
    await cold.waitForFunction(() => (globalThis as unknown as PageGlobals).navigator.serviceWorker.controller !== null, undefined, {
      timeout: 120_000
    });
    await cold.close();
    const warm = await context.newPage();
    await throttle(warm);
    await warm.goto(`${base}/${app.name}/index.html${hash}`);
    const warmMarks = await marksOf(warm, wanted);
    return { cold: coldMarks, warm: warmMarks, shellBytes };
  } finally {
    await context.close();
  }
}

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];
const ms = (value: number | undefined) => (value === undefined ? "—" : `${Math.round(value)} ms`);

async function main(): Promise<void> {
  const runs = Number(option("runs", "5"));
  const app = APPS[option("app", "counter") as App["name"]];
  if (!app) throw new Error("--app is counter or courier");
  MARKS = app.marks;
  const executablePath = option("chromium", "/usr/bin/chromium");
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "relay-bench-counter-"));
  const port = await freePort();
  const base = `http://127.0.0.1:${port}`;
  const token = `bo_${randomBytes(12).toString("hex")}`;
  const server = startService(
    "counter-bench",
    process.execPath,
    [path.join(ROOT, "dist", "bin", "start.js")],
    cleanEnv({ PORT: String(port), DATA_DIR: dataDir, BACKOFFICE_TOKEN: token, LOG_LEVEL: "warn" }),
    dataDir
  );
  let browser: Browser | undefined;
  try {
    await waitUntil("the system", async () => (await fetch(`${base}/readyz`).catch(() => null))?.status === 200, 120_000, [server]);
    const pairing = await app.pairing(base, token);
    browser = await chromium.launch({ executablePath, args: ["--headless", "--no-sandbox", "--disable-gpu", "--no-first-run"] });
    const samples: Record<"cold" | "warm", Record<Mark, number[]>> = {
      cold: { actions: [], scan: [], day: [] },
      warm: { actions: [], scan: [], day: [] }
    };
    let shellBytes = 0;
    for (let run = 0; run < runs; run++) {
      for (const [hash, wanted] of [
        ["", ["actions", "day"]],
        [app.scanHash, ["scan"]]
      ] as const) {
        const pair = await loadPair(browser, base, app, pairing, hash, [...wanted]);
        shellBytes = Math.max(shellBytes, pair.shellBytes);
        for (const kind of ["cold", "warm"] as const) {
          for (const mark of wanted) samples[kind][mark].push(pair[kind][mark]!);
        }
      }
    }
    process.stdout.write(
      `${app.name} app, time to usable from navigation start (median of ${runs}; Slow 4G, CPU ×${CPU_SLOWDOWN}, 390×844; ` +
        `shell ${(shellBytes / 1024).toFixed(1)} KB gzip)\n`
    );
    process.stdout.write("            actions    scan field  day shown\n");
    for (const kind of ["cold", "warm"] as const) {
      const row = (["actions", "scan", "day"] as const).map(mark => ms(median(samples[kind][mark])).padEnd(11)).join(" ");
      process.stdout.write(`  ${kind.padEnd(9)} ${row}\n`);
    }
  } finally {
    await browser?.close();
    await server.stop();
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
}

main().catch(err => {
  process.stderr.write(`${(err as Error).stack ?? String(err)}\n`);
  process.exit(1);
});
