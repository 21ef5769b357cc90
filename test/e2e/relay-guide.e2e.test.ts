import fs from "node:fs";
import path from "node:path";
import { GuideSystem, startForGuide } from "../helpers/guide-walk";

/**
 * docs/relay-points/guide.md, "A day at the counter": its shell blocks, as written and in order,
 * run with bash against the embedded system started with SMS_PROVIDER=file, as the guide says.
 * A guide whose commands no longer work fails here.
 */

describe("the relay points guide, run as written (npm start)", () => {
  let guide: GuideSystem;

  beforeAll(async () => {
    guide = await startForGuide("relay-guide");
  }, 90_000);

  afterAll(async () => {
    await guide?.stop();
  });

  test("a day at the counter: every block succeeds and the till closes with a difference of 0", async () => {
    const stdout = await guide.walk("docs/relay-points/guide.md", "## A day at the counter", 5);

    const me = JSON.parse(stdout.slice(stdout.indexOf("{"), stdout.indexOf("}") + 1));
    expect(me).toEqual({
      relayCode: "DZ-16-ALGER-CENTRE",
      name: expect.any(String),
      nameAr: "مكتبة ديدوش",
      wilaya: "16",
      wilayaName: "Alger",
      wilayaNameAr: "الجزائر",
      capacity: 150,
      onShelf: 0,
      holdingDays: 7,
      // The Ed25519 public key the counter checks pickup passes with, offline (decision 0047).
      pickupPassKey: expect.stringMatching(/^[A-Za-z0-9+/]{43}=$/)
    });
    expect(stdout).toContain('"recipientHint": "A. ••56"');
    expect(stdout).toContain('"recipientHint": "K. ••07"');
    expect(stdout).toContain('"status": "DELIVERED"');
    expect(stdout).toContain('"status": "RETURN_PENDING"');
    expect(stdout).toContain('"dispatched": 1');
    const closing = JSON.parse(stdout.slice(stdout.lastIndexOf("{\n")));
    expect(closing).toMatchObject({ expectedDzd: 1500, countedDzd: 1500, differenceDzd: 0, count: 1 });
    // The PIN went to the SMS file, and nowhere in what the counter's calls answered.
    const sms = fs.readFileSync(path.join(guide.dataDir, "sms-outbox.jsonl"), "utf8");
    const pin = /Code de retrait: (\d{6})/.exec(sms)![1];
    expect(stdout).not.toContain(`"${pin}"`);
  }, 90_000);
});
