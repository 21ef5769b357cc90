import { LABEL_FORMATS, LabelData, isLabelFormat, pageCount, renderLabelDocument, renderLabelPdf } from "../../../services/labels/render";
import { labelCells } from "../../../lib/labels/page-formats";
import { parsePdf } from "../../helpers/pdf";
import { readPages } from "../../helpers/label-pdf-reading";

const label: LabelData = {
  trackingNumber: "RP123456785DZ",
  relayCode: "DZ-16-ALGER-CENTRE",
  relayName: "Librairie Didouche",
  relayNameAr: "مكتبة ديدوش مراد",
  relayCity: "Alger Centre",
  relayCityAr: "الجزائر الوسطى",
  relayAddress: "42 Rue Didouche Mourad, Alger Centre",
  weightG: 1250,
  codAmountDzd: 1500,
  senderName: "Boutique Yasmine SARL",
  createdAt: "2024-05-01T10:00:00.000Z"
};

/** Distinct tracking numbers, so each label can be found again in the document. */
function labels(count: number): LabelData[] {
  return Array.from({ length: count }, (_, index) => ({ ...label, trackingNumber: `RP${String(index).padStart(9, "0")}DZ` }));
}

function squash(text: string): string {
  return text.replace(/\s+/g, " ");
}

describe("label page formats", () => {
  it.each([
    ["a6", 297.64, 419.53],
    ["4x6", 288, 432],
    ["a4", 595.28, 841.89]
  ] as const)("renders %s pages of %d × %d points", async (format, width, height) => {
    const pages = readPages(await renderLabelDocument(labels(1), { format }));
    expect(pages).toHaveLength(1);
    expect(pages[0].mediaBox).toEqual([0, 0, width, height]);
  });

  it("serves the A6 label for labelUrl through renderLabelPdf", async () => {
    const pages = readPages(await renderLabelPdf(label));
    expect(pages.map(page => page.mediaBox)).toEqual([[0, 0, 297.64, 419.53]]);
  });

  it.each([
    ["a6", 0, 3, 3],
    ["4x6", 0, 3, 3],
    ["a4", 0, 4, 1],
    ["a4", 0, 5, 2],
    ["a4", 3, 1, 1],
    ["a4", 3, 5, 2],
    ["a4", 2, 7, 3]
  ] as const)("puts %s labels at offset %d: %d labels on %d pages", async (format, startOffset, count, pages) => {
    const pdf = await renderLabelDocument(labels(count), { format, startOffset });
    expect(readPages(pdf)).toHaveLength(pages);
    expect((await parsePdf(pdf)).numpages).toBe(pages);
    expect(pageCount(format, count, startOffset)).toBe(pages);
  });

  it("fills an A4 sheet row by row from the start offset, each label in its own quarter", async () => {
    const cells = labelCells("a4", 5, 3);
    expect(cells.map(cell => [cell.page, cell.x, cell.y])).toEqual([
      [0, 297.64, 420.945],
      [1, 0, 0],
      [1, 297.64, 0],
      [1, 0, 420.945],
      [1, 297.64, 420.945]
    ]);

    // The label at offset 3 is alone on the first page, in the bottom-right quarter.
    const pdf = await renderLabelDocument(labels(5), { format: "a4", startOffset: 3 });
    const first = readPages(pdf)[0].content;
    const origins = Array.from(first.matchAll(/^1 0 0 1 (-?[\d.]+) (-?[\d.]+) Tm$/gm), match => [
      Number(match[1]),
      841.89 - Number(match[2])
    ]);
    expect(origins.length).toBeGreaterThan(5);
    for (const [x, y] of origins) {
      expect(x).toBeGreaterThanOrEqual(297.64);
      expect(y).toBeGreaterThanOrEqual(420.945);
    }
    const text = squash((await parsePdf(pdf)).text);
    for (const { trackingNumber } of labels(5)) expect(text).toContain(trackingNumber);
  });

  it("puts every label of a long batch in the document once", async () => {
    const batch = labels(100);
    const pdf = await renderLabelDocument(batch, { format: "a4" });
    const parsed = await parsePdf(pdf);
    expect(parsed.numpages).toBe(25);
    for (const { trackingNumber } of batch) expect(parsed.text.split(trackingNumber)).toHaveLength(2);
  });

  it("keeps over-long names and addresses on the label's own page in every format", async () => {
    const long: LabelData = {
      ...label,
      relayCode: `DZ-${"A".repeat(30)}`,
      relayName: "Relais Point Colis ".repeat(30),
      relayNameAr: "مكتبة ديدوش مراد ".repeat(20),
      relayAddress: "Cité 5 Juillet, Bâtiment 12, ".repeat(20),
      relayCity: "Bordj Bou Arreridj ".repeat(10),
      relayCityAr: "برج بوعريريج ".repeat(10),
      senderName: "Société Commerciale ".repeat(20),
      codAmountDzd: 99_999_999.99,
      sandbox: true
    };
    for (const format of ["a6", "4x6"] as const) {
      const parsed = await parsePdf(await renderLabelDocument([long, long], { format }));
      expect(parsed.numpages).toBe(2);
      expect(squash(parsed.text)).toContain("COD: 99 999 999,99 DZD — to collect");
    }
    const a4 = await parsePdf(await renderLabelDocument([long, long, long, long], { format: "a4" }));
    expect(a4.numpages).toBe(1);
    expect(squash(a4.text).split(`DZ-${"A".repeat(30)}`)).toHaveLength(5);
  });

  it("names the formats a caller may ask for", () => {
    expect(LABEL_FORMATS).toEqual(["a6", "4x6", "a4", "zpl"]);
    expect(LABEL_FORMATS.every(isLabelFormat)).toBe(true);
    for (const value of ["A6", "a5", "", null, 4]) expect(isLabelFormat(value)).toBe(false);
  });

  it("refuses an empty batch, more than 100 labels and an offset outside the sheet", async () => {
    await expect(renderLabelDocument([], { format: "a6" })).rejects.toThrow(RangeError);
    await expect(renderLabelDocument(labels(101), { format: "a4" })).rejects.toThrow(RangeError);
    await expect(renderLabelDocument(labels(1), { format: "a4", startOffset: 4 })).rejects.toThrow(RangeError);
    await expect(renderLabelDocument(labels(1), { format: "a4", startOffset: 1.5 })).rejects.toThrow(RangeError);
    await expect(renderLabelDocument(labels(1), { format: "a6", startOffset: 1 })).rejects.toThrow(RangeError);
  });

  it("refuses a tracking number a Code 128 symbol cannot carry", async () => {
    await expect(renderLabelDocument([{ ...label, trackingNumber: "RP12345é785DZ" }], { format: "a6" })).rejects.toThrow(/trackingNumber/);
    await expect(renderLabelDocument([{ ...label, trackingNumber: "" }], { format: "a6" })).rejects.toThrow(/trackingNumber/);
  });
});
