import { s10CheckDigit } from "../../lib/s10";
import { hasTrackingNumberShape, normaliseTrackingNumber, parseTrackingInput } from "../../lib/tracking-number";

const VALID = `RP12345678${s10CheckDigit("12345678")}DZ`;

describe("tracking numbers as people type them", () => {
  it.each([
    [VALID, VALID],
    [VALID.toLowerCase(), VALID],
    ["  rp 1234 5678 5 dz  ", "RP123456785DZ"],
    ["RP-123-456-785-DZ", "RP123456785DZ"],
    ["RP\u00a012345678\u202f5DZ", "RP123456785DZ"],
    ["\u200fRP123456785DZ\u200e", "RP123456785DZ"],
    ["ＲＰ１２３４５６７８５ＤＺ", "RP123456785DZ"],
    ["RP١٢٣٤٥٦٧٨٥DZ", "RP123456785DZ"],
    ["rp۱۲۳۴۵۶۷۸۵dz", "RP123456785DZ"]
  ])("%j reads as %s", (typed, expected) => {
    expect(normaliseTrackingNumber(typed)).toBe(expected);
    expect(parseTrackingInput(typed)).toEqual({ ok: true, trackingNumber: expected });
    expect(hasTrackingNumberShape(typed)).toBe(true);
  });

  it("the fixture is a real S10 number", () => {
    expect(VALID).toBe("RP123456785DZ");
  });

  it("an empty entry is empty, not malformed", () => {
    for (const typed of ["", "   ", "\t\n", null, undefined])
      expect(parseTrackingInput(typed)).toMatchObject({ ok: false, reason: "empty" });
  });

  it.each([
    ["RP123456784DZ", "a wrong check digit (a typo)"],
    ["RP12345678DZ", "a digit missing"],
    ["R1123456785DZ", "a digit for a letter"],
    ["hello", "a word"],
    ["RP123456785DZ; DROP TABLE parcels", "something appended"],
    ["RP123456785DZ".repeat(10), "far too long"]
  ])("%s is refused (%s)", typed => {
    const parsed = parseTrackingInput(typed);
    expect(parsed).toMatchObject({ ok: false, reason: "malformed" });
    if (!parsed.ok) expect(parsed.normalised.length).toBeLessThanOrEqual(64);
    expect(hasTrackingNumberShape(typed)).toBe(false);
  });
});
