import { LabelData, SANDBOX_MARK, formatDzd, formatLabelDate, formatWeight, renderLabelPdf } from "../../../services/labels/render";
import { parsePdf } from "../../helpers/pdf";

const baseLabel: LabelData = {
  trackingNumber: "RP123456785DZ",
  relayCode: "DZ-ALG-0042",
  relayName: "Librairie du Centre",
  relayCity: "Alger",
  weightG: 1250,
  codAmountDzd: 1500,
  senderName: "Boutique Yasmine SARL",
  createdAt: "2024-05-01T23:30:00.000Z"
};

/** pdf.js splits and rejoins text runs; compare without whitespace differences. */
function squash(text: string): string {
  return text.replace(/\s+/g, " ");
}

describe("renderLabelPdf", () => {
  it("renders a one-page PDF carrying the tracking number, relay, weight, COD, sender and date", async () => {
    const pdf = await renderLabelPdf(baseLabel);
    expect(pdf.subarray(0, 5).toString("latin1")).toBe("%PDF-");

    const parsed = await parsePdf(pdf);
    expect(parsed.numpages).toBe(1);
    const text = squash(parsed.text);
    expect(text).toContain("RP123456785DZ");
    expect(text).toContain("DZ-ALG-0042");
    expect(text).toContain("Librairie du Centre");
    expect(text).toContain("Alger");
    expect(text).toContain("1,25 kg (1 250 g)");
    expect(text).toContain("COD: 1 500,00 DZD — to collect");
    expect(text).toContain("Boutique Yasmine SARL");
    expect(text).toContain("2024-05-01");
    expect(text).not.toContain("SANDBOX");
  });

  it("prints the relay's wilaya in a box beside the code, and names it on the city line when the city is not its chef-lieu", async () => {
    // A point of Bou Saâda moved to wilaya 68 in 2026: its code still says 28, the box says where it goes.
    const moved = squash(
      (await parsePdf(await renderLabelPdf({ ...baseLabel, relayCode: "DZ-28-BOU-SAADA", relayCity: "Bou Saâda", relayWilaya: "68" }))).text
    );
    expect(moved).toContain("WILAYA 68");
    expect(moved).toContain("DZ-28-BOU-SAADA");
    expect(moved).toContain("Bou Saâda");
    expect(moved).not.toContain("Bou Saâda, Bou Saâda");
    const suburb = squash((await parsePdf(await renderLabelPdf({ ...baseLabel, relayCity: "Bab El Oued", relayWilaya: "16" }))).text);
    expect(suburb).toContain("Bab El Oued, Alger");
    // No wilaya, or one the map does not know: no box.
    for (const relayWilaya of [null, "Alger"]) {
      const text = squash((await parsePdf(await renderLabelPdf({ ...baseLabel, relayWilaya }))).text);
      expect(text).not.toContain("WILAYA");
    }
  });

  it("draws the barcodes as vector shapes, with no image and no embedded font for a Latin label", async () => {
    const raw = (await renderLabelPdf(baseLabel)).toString("latin1");
    expect(raw).not.toContain("/Subtype /Image");
    expect(raw).not.toContain("/FontFile2");
  });

  it("prints no COD line when there is nothing to collect", async () => {
    for (const codAmountDzd of [null, 0]) {
      const parsed = await parsePdf(await renderLabelPdf({ ...baseLabel, codAmountDzd }));
      expect(parsed.text).not.toContain("COD");
      expect(parsed.text).toContain("RP123456785DZ");
    }
  });

  it("marks a sandbox label as not for shipping", async () => {
    const parsed = await parsePdf(await renderLabelPdf({ ...baseLabel, sandbox: true }));
    expect(parsed.numpages).toBe(1);
    expect(squash(parsed.text)).toContain(SANDBOX_MARK);
  });

  it("stays on one page with very long names, no city and the largest values", async () => {
    const longWords = "Relais Point Colis ".repeat(30);
    const parsed = await parsePdf(
      await renderLabelPdf({
        ...baseLabel,
        relayCode: `DZ-${"A".repeat(30)}`,
        relayName: longWords,
        relayCity: null,
        senderName: `${"Société Commerciale ".repeat(20)}${"X".repeat(300)}`,
        weightG: 30000,
        codAmountDzd: 99_999_999.99,
        sandbox: true
      })
    );
    expect(parsed.numpages).toBe(1);
    const text = squash(parsed.text);
    expect(text).toContain("RP123456785DZ");
    // Shrunk to fit, never truncated: the relay code and the amount to collect stay whole.
    expect(text).toContain(`DZ-${"A".repeat(30)}`);
    expect(text).toContain("COD: 99 999 999,99 DZD — to collect");
    // pdf.js extracts the ellipsis glyph as three dots.
    expect(text).toMatch(/Relais Point Colis[A-Za-z ]*(…|\.\.\.)/);
    expect(text).not.toContain(longWords.trim());
  });

  it("prints Arabic letters as themselves and a visible ? only for what no bundled font can show", async () => {
    // Tifinagh (Amazigh) is not in the bundled font: a "?" is honest, a blank could be misread.
    const parsed = await parsePdf(await renderLabelPdf({ ...baseLabel, relayName: "Relais مكتبة ⵜⴰⵎⴰ", relayCity: "Béjaïa" }));
    const text = squash(parsed.text);
    expect(text).toContain("Relais مكتبة ????");
    expect(text).toContain("Béjaïa");
  });

  it("composes decomposed accents and flattens line breaks, keeping Latin text in the built-in font", async () => {
    const pdf = await renderLabelPdf({ ...baseLabel, relayCity: "Se\u0301tif", relayAddress: "12 Rue\nDidouche\tMourad" });
    const text = squash((await parsePdf(pdf)).text);
    expect(text).toContain("Sétif");
    expect(text).toContain("12 Rue Didouche Mourad");
    expect(pdf.toString("latin1")).not.toContain("/FontFile2");
  });

  it("does not print anything it was not given (no recipient data exists on a label)", async () => {
    const parsed = await parsePdf(await renderLabelPdf(baseLabel));
    expect(parsed.text).not.toMatch(/recipient name|\+213/i);
  });

  it("refuses a creation date that is not a date", async () => {
    await expect(renderLabelPdf({ ...baseLabel, createdAt: "yesterday" })).rejects.toThrow(RangeError);
  });
});

describe("label formatting", () => {
  it("formats DZD amounts the Algerian way", () => {
    expect(formatDzd(1500)).toBe("1 500,00 DZD");
    expect(formatDzd(0.5)).toBe("0,50 DZD");
    expect(formatDzd(1234567.891)).toBe("1 234 567,89 DZD");
  });

  it("shows weight in kg and g", () => {
    expect(formatWeight(850)).toBe("0,85 kg (850 g)");
    expect(formatWeight(1)).toBe("0,001 kg (1 g)");
    expect(formatWeight(30000)).toBe("30,00 kg (30 000 g)");
  });

  it("prints the UTC day of creation", () => {
    expect(formatLabelDate("2024-05-01T23:30:00+00:00")).toBe("2024-05-01");
    expect(formatLabelDate("2024-05-02T00:30:00+01:00")).toBe("2024-05-01");
    expect(formatLabelDate(new Date(Date.UTC(2025, 0, 31, 12)))).toBe("2025-01-31");
  });
});
