import type { Browser, Page } from "playwright-core";
import { axeFindings, CounterSystem, decodeImage, describeBrowser, openPaired, phonePage, RELAY, scan, screenshot } from "./counter-system";
import { useSystemAndBrowser } from "./web-app-checks";

/**
 * Issue 43, acceptance 2: a hand-over a phone's holder cannot forge. The recipient's pickup pass,
 * read from the QR of the tracking page their SMS opens, is scanned by the counter app with the
 * page and its service worker cut from the network; the phone checks it with the server's public
 * key, the hand-over waits in the outbox and reaches the server once. A pass voided by a new PIN is
 * refused offline; with the operator's default limits a COD parcel is not offered an offline PIN
 * hand-over, and no verifier is served for it or for a locked parcel.
 */

type BrowserGlobals = { navigator: { serviceWorker: { controller: unknown } } };
type BrowserStorage = { localStorage: { getItem(key: string): string | null } };

describeBrowser("the pickup pass at the counter, offline", () => {
  let system: CounterSystem;
  let browser: Browser;
  useSystemAndBrowser((started, chromium) => {
    system = started;
    browser = chromium;
  });

  /** The recipient opens the pick-up SMS's link on their phone; the pass is the QR the page shows, as a camera reads it. */
  async function recipientPass(trackingNumber: string, locale: "fr-FR" | "ar-DZ", shot: string): Promise<string> {
    const { context, page, problems } = await phonePage(browser, locale);
    try {
      await page.goto(system.base + (await system.sms.passLinkOf(trackingNumber)));
      await page.waitForSelector(".pass svg");
      if (locale === "ar-DZ") {
        // The language link keeps the pass: the page again, in Arabic, right to left.
        await page.click('.langs a[hreflang="ar"]');
        await page.waitForSelector('html[dir="rtl"] .pass svg');
        expect(await page.innerText("#pass-heading")).toBe("بطاقة الاستلام");
      }
      await screenshot(page, shot);
      const read = await decodeImage(await page.locator(".pass figure").screenshot());
      expect(read).toHaveLength(1);
      expect(read[0]).toBe(await page.getAttribute(".pass", "data-pass"));
      expect(problems).toEqual([]);
      return read[0];
    } finally {
      await context.close();
    }
  }

  async function handoverScreen(page: Page): Promise<void> {
    await page.click('[data-screen="handover"]');
    await page.waitForSelector("#handover-scan");
  }

  test("a pass scanned offline hands the parcel over, synced once; a voided pass is refused offline; no offline PIN for COD", async () => {
    const withPass = await system.incoming(900);
    const voided = await system.incoming(null);
    const codNoPass = await system.incoming(1200);
    const locked = await system.incoming(null);
    const { context, page, problems } = await phonePage(browser, "fr-FR");
    try {
      await openPaired(system, page, "Comptoir pass");
      await page.waitForFunction(() => (globalThis as unknown as BrowserGlobals).navigator.serviceWorker.controller !== null);
      await page.click('[data-screen="receive"]');
      for (const parcel of [withPass, voided, codNoPass, locked]) {
        await scan(page, "receive-scan", parcel.trackingNumber);
        await page.waitForSelector(`.notice-ok:has-text("${parcel.trackingNumber} reçu")`);
      }
      // Five wrong PINs online (another counter phone) lock one parcel.
      const otherPhone = await system.agentKey("Comptoir 2");
      const lockedPin = await system.sms.pinOf(locked.trackingNumber);
      for (let i = 0; i < 5; i++) {
        await fetch(`${system.base}/api/relay/v1/handovers`, {
          method: "POST",
          headers: { Authorization: `ApiKey ${otherPhone}`, "Content-Type": "application/json" },
          body: JSON.stringify({ trackingNumber: locked.trackingNumber, pin: lockedPin === "000000" ? "000001" : "000000" })
        });
      }
      await page.click(".back");

      // The recipients' passes, from their tracking pages (in French and in Arabic).
      const pass = await recipientPass(withPass.trackingNumber, "fr-FR", "pass-01-tracking-page-fr");
      const oldPass = await recipientPass(voided.trackingNumber, "ar-DZ", "pass-02-tracking-page-ar");
      expect(pass).toMatch(new RegExp(`^RP1\\.${withPass.trackingNumber}\\.1\\.`));
      // A new PIN for the second parcel (the recipient's "send me the code again"): its pass moves to version 2.
      const reset = await system.bo.call("POST", `/parcels/${voided.id}/pickup-pin/reset`);
      expect(reset.status).toBe(200);

      // The phone refreshes its day (online), then the network is cut, the page and its worker with it.
      await page.goto(`${system.base}/counter/index.html#today`);
      await page.waitForFunction(
        ([number, keyNeeded]) => {
          const storage = (globalThis as unknown as BrowserStorage).localStorage;
          const day = JSON.parse(storage.getItem("counter.copy.day") ?? "null") as {
            value: { me: { pickupPassKey?: string }; parcels: { trackingNumber: string; passVersion?: number }[] };
          } | null;
          const parcel = day?.value.parcels.find(p => p.trackingNumber === number);
          return (
            parcel?.passVersion === 2 && (!keyNeeded || !!day?.value.me.pickupPassKey) && storage.getItem("counter.offlinePinLeft") !== null
          );
        },
        [voided.trackingNumber, true] as const
      );
      // No verifier for the COD parcels nor the locked one: offline, their PIN cannot be checked on this phone.
      const verifiers = await page.evaluate(() =>
        (
          JSON.parse((globalThis as unknown as BrowserStorage).localStorage.getItem("counter.verifiers") ?? "[]") as {
            trackingNumber: string;
          }[]
        ).map(v => v.trackingNumber)
      );
      expect(verifiers).toContain(voided.trackingNumber);
      for (const absent of [withPass, codNoPass, locked]) expect(verifiers).not.toContain(absent.trackingNumber);

      await context.setOffline(true);
      await page.reload();
      await page.waitForSelector(".net-off");
      await handoverScreen(page);

      // The pass: checked on the phone, then only the cash.
      await scan(page, "handover-scan", pass);
      await page.waitForSelector('.notice-ok:has-text("Pass du client vérifié")');
      expect(await page.locator("#pin").count()).toBe(0);
      await screenshot(page, "pass-03-checked-offline");
      expect(await axeFindings(page)).toEqual([]);
      await page.check("#cash-taken");
      await page.click("#handover-confirm");
      await page.waitForSelector(`.notice-info:has-text("${withPass.trackingNumber} remis hors ligne")`);
      await page.waitForSelector('#outbox-count:has-text("1 en attente d\'envoi")');

      // The pass shown before the new PIN: refused here, offline.
      await scan(page, "handover-scan", oldPass);
      await page.waitForSelector('.notice-error:has-text("Ce pass a été remplacé")');
      await screenshot(page, "pass-04-voided-offline");

      // A COD parcel without its pass: no PIN offered offline.
      await scan(page, "handover-scan", codNoPass.trackingNumber);
      await page.waitForSelector('.notice-info:has-text("seulement avec le pass du client")');
      expect(await page.locator("#pin").count()).toBe(0);
      await screenshot(page, "pass-05-cod-no-offline-pin");

      // The same screens in Arabic, right to left.
      await page.selectOption("#language", "ar");
      await page.waitForSelector('.notice-info:has-text("بطاقة استلام الزبون")');
      expect(await page.getAttribute("html", "dir")).toBe("rtl");
      await screenshot(page, "pass-06-cod-no-offline-pin-ar");
      await page.selectOption("#language", "fr");

      // Back online: the hand-over is sent, once, with the scan's time; the till has its cash.
      const beforeOnline = Date.now();
      await context.setOffline(false);
      await page.waitForSelector("#sync-results li.result-ok");
      expect(await page.innerText("#sync-results")).toContain(withPass.trackingNumber);
      await page.evaluate("window.dispatchEvent(new Event('online'))");
      const delivered = (await system.history(withPass.id)).filter(event => event.status === "DELIVERED");
      expect(delivered).toHaveLength(1);
      expect(Date.parse(delivered[0].occurredAt)).toBeLessThanOrEqual(beforeOnline);
      expect(await system.parcel(withPass.id)).toMatchObject({ status: "DELIVERED" });
      expect(["AT_RELAY", "RELAY_NOTIFIED"]).toContain((await system.parcel(voided.id)).status);
      expect(["AT_RELAY", "RELAY_NOTIFIED"]).toContain((await system.parcel(codNoPass.id)).status);
      const till = await system
        .agentKey("Caisse")
        .then(key =>
          fetch(`${system.base}/api/relay/v1/cash`, { headers: { Authorization: `ApiKey ${key}` } }).then(r => r.json() as Promise<any>)
        );
      expect(till.items.map((i: { trackingNumber: string }) => i.trackingNumber)).toContain(withPass.trackingNumber);
      // The five wrong PINs are the only answers that were not a success.
      expect(
        problems.filter(p => !p.startsWith("409 POST /api/relay/v1/handovers") && !p.startsWith("423 POST /api/relay/v1/handovers"))
      ).toEqual([]);
    } finally {
      await context.close();
    }
  }, 240_000);

  test('an offline PIN hand-over is confirmed to its recipient by SMS, whose page says "not me" (French, Arabic) and records it', async () => {
    const parcel = await system.incoming(null);
    const { context, page, problems } = await phonePage(browser, "fr-FR");
    try {
      await openPaired(system, page, "Comptoir PIN");
      await page.waitForFunction(() => (globalThis as unknown as BrowserGlobals).navigator.serviceWorker.controller !== null);
      await page.click('[data-screen="receive"]');
      await scan(page, "receive-scan", parcel.trackingNumber);
      await page.waitForSelector(`.notice-ok:has-text("${parcel.trackingNumber} reçu")`);
      await page.click(".back");
      await page.waitForFunction(
        (number: string) => ((globalThis as unknown as BrowserStorage).localStorage.getItem("counter.verifiers") ?? "").includes(number),
        parcel.trackingNumber
      );
      const pin = await system.sms.pinOf(parcel.trackingNumber);

      await context.setOffline(true);
      await page.reload();
      await page.waitForSelector(".net-off");
      await handoverScreen(page);
      await scan(page, "handover-scan", parcel.trackingNumber);
      await page.fill("#pin", pin);
      await page.click("#handover-confirm");
      await page.waitForSelector(`.notice-info:has-text("${parcel.trackingNumber} remis hors ligne")`);
      await context.setOffline(false);
      await page.waitForSelector("#sync-results li.result-ok");
      expect(problems).toEqual([]);
    } finally {
      await context.close();
    }

    // The recipient's SMS, then their page: the "not me" form, in French and in Arabic.
    let confirmation: string | undefined;
    while (!(confirmation = system.sms.messagesFor(parcel.trackingNumber).find(text => text.includes("Pas vous ?")))) {
      await new Promise(resolve => setTimeout(resolve, 200));
    }
    expect(confirmation).toMatch(new RegExp(`^Relais DZ: colis ${parcel.trackingNumber} remis le \\d\\d/\\d\\d à \\d\\d:\\d\\d chez `));
    const recipient = await phonePage(browser, "fr-FR");
    try {
      await recipient.page.goto(system.base + /https?:\/\/[^/\s]+(\/t\/\S+)$/.exec(confirmation)![1]);
      await recipient.page.waitForSelector("#not-me-heading");
      await screenshot(recipient.page, "pass-07-not-me-fr");
      expect(await axeFindings(recipient.page)).toEqual([]);
      await recipient.page.click('.langs a[hreflang="ar"]');
      await recipient.page.waitForSelector('html[dir="rtl"] #not-me-heading');
      await screenshot(recipient.page, "pass-08-not-me-ar");
      await recipient.page.click('form[action$="/dispute"] button');
      await recipient.page.waitForSelector('h1:has-text("شكرا، تم التسجيل")');
      await screenshot(recipient.page, "pass-09-not-me-recorded-ar");
      expect(recipient.problems).toEqual([]);
    } finally {
      await recipient.context.close();
    }
    const disputes = (await system.bo.call("GET", "/handover-disputes")).body.items as { trackingNumber: string; relayCode: string }[];
    expect(disputes.filter(d => d.trackingNumber === parcel.trackingNumber)).toEqual([
      expect.objectContaining({ trackingNumber: parcel.trackingNumber, relayCode: RELAY })
    ]);
  }, 180_000);

  test("no verifier is served for a COD or a locked parcel, with the default limits", async () => {
    const cod = await system.incoming(700);
    const plain = await system.incoming(null);
    const key = await system.agentKey("Comptoir API");
    const agent = (method: string, path: string, body?: unknown) =>
      fetch(`${system.base}/api/relay/v1${path}`, {
        method,
        headers: { Authorization: `ApiKey ${key}`, "Content-Type": "application/json" },
        body: body === undefined ? undefined : JSON.stringify(body)
      }).then(async r => ({ status: r.status, body: (await r.json()) as { items: { trackingNumber: string }[]; relayCode?: string } }));
    for (const parcel of [cod, plain])
      expect((await agent("POST", "/arrivals", { trackingNumber: parcel.trackingNumber })).status).toBe(200);
    const pin = await system.sms.pinOf(plain.trackingNumber);
    const before = (await agent("GET", "/offline-verifiers")).body.items.map(i => i.trackingNumber);
    expect(before).toContain(plain.trackingNumber);
    expect(before).not.toContain(cod.trackingNumber);
    for (let i = 0; i < 5; i++)
      await agent("POST", "/handovers", { trackingNumber: plain.trackingNumber, pin: pin === "000000" ? "000001" : "000000" });
    const after = (await agent("GET", "/offline-verifiers")).body.items.map(i => i.trackingNumber);
    expect(after).not.toContain(plain.trackingNumber);
    expect((await agent("GET", "/me")).body.relayCode).toBe(RELAY);
  }, 60_000);
});
