import { GuideSystem, startForGuide } from "../helpers/guide-walk";

/**
 * docs/merchants/customer-returns.md, "A customer's return, with curl": its shell blocks, as
 * written and in order, against `npm start` (embedded, SMS to a file), as a new merchant would run
 * them. Issue 21, acceptance 1 (returns).
 */

describe("the customer returns guide, run as written (npm start)", () => {
  let guide: GuideSystem;

  beforeAll(async () => {
    guide = await startForGuide("returns-guide");
  }, 90_000);

  afterAll(async () => {
    await guide?.stop();
  });

  test("open, code by SMS, drop-off (charged then), the return parcel collected with its PIN; a second return expires free", async () => {
    const stdout = await guide.walk("docs/merchants/customer-returns.md", "## A customer's return, with curl", 7);

    expect(stdout).toContain('"returnRelayCode": "DZ-16-HYDRA"');
    expect(stdout).toContain('"status":"DELIVERED"');
    expect(stdout).toMatch(/"status": "AWAITING_DROP_OFF",\n\s+"returnCode": "[A-HJKMNP-Z2-9]{8}"/);
    expect(stdout).toMatch(/retour du colis RP\d{9}DZ: .* code de retour [A-HJKMNP-Z2-9]{8}\./);
    expect(stdout).toMatch(/"returnCodeSentAt": "20/);
    expect(stdout).toContain('"status":"READY_FOR_PICKUP","weightG":1200');
    expect(stdout).toContain('"status":"DROPPED_OFF"');
    expect(stdout).toMatch(/\{"type":"RETURN_SHIPMENT","amountDzd":\d+/);
    expect(stdout).toContain('"direction":"RETURN"');
    expect(stdout).toMatch(/collection PIN: \d{6}\n/);
    expect(stdout).toContain("return.created return.dropped_off return.ready_for_collection");
    expect(stdout).toContain('{"status":"EXPIRED","returnParcelId":null}');
    expect(stdout.trimEnd().endsWith("1")).toBe(true);
    const [before, after] = /balance ([\d.]+) -> ([\d.-]+)/.exec(stdout)!.slice(1).map(Number);
    expect(after).toBeLessThan(before);
  }, 120_000);
});
