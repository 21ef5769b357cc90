import type { Browser } from "playwright-core";
import { randomUUID } from "node:crypto";
import {
  CounterSystem,
  decodeImage,
  describeBrowser,
  http,
  launchChromium,
  openPaired,
  phonePage,
  RELAY,
  screenshot,
  startCounterSystem
} from "./counter-system";

/**
 * Issue 44 C (decision 0057): the counter app's Courier screen shows the signed courier pass as a
 * QR, on a phone (390×844), in French and in Arabic; the QR as a camera reads it is the pass the
 * courier API accepts as proof that the courier stands at this counter.
 */
describeBrowser("the courier pass on the counter app", () => {
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
});
