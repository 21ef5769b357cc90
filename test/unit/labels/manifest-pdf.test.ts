import fs from "node:fs";
import path from "node:path";
import {
  BarcodeFormat,
  BinaryBitmap,
  Code128Reader,
  DecodeHintType,
  GlobalHistogramBinarizer,
  HybridBinarizer,
  QRCodeReader,
  RGBLuminanceSource
} from "@zxing/library";
import { renderManifestPdf } from "../../../services/labels/render/pdf-manifest";
import type { ManifestDocument } from "../../../services/logistics/logistics.contract";
import { Rect, boundsOf, filledRectPaths, rasterise, readPages } from "../../helpers/label-pdf-reading";
import { parsePdf } from "../../helpers/pdf";

/** Issue 44 B: the manifest's document, read back: its barcodes decode to its number, its lines and totals are printed. */

const line = (n: number, hint: string, cod: number | null, declared: number | null) => ({
  line: n,
  parcelId: `00000000-0000-4000-8000-${String(n).padStart(12, "0")}`,
  trackingNumber: `RP${String(100000000 + n * 7).padStart(9, "0")}DZ`,
  recipientHint: hint,
  relayCode: "DZ-16-ALGER-CENTRE",
  codAmountDzd: cod,
  declaredValueDzd: declared
});

const manifest = (lines: ManifestDocument["lines"]): ManifestDocument => ({
  id: "00000000-0000-4000-8000-000000000001",
  number: "MF-20260312-7K2Q9M",
  pickupDate: "2026-03-12",
  address: { line1: "12 rue Didouche Mourad", city: "Alger Centre", wilaya: "16" },
  pickupId: null,
  lines,
  totals: {
    parcels: lines.length,
    codAmountDzd: lines.reduce((s, l) => s + (l.codAmountDzd ?? 0), 0),
    declaredValueDzd: lines.reduce((s, l) => s + (l.declaredValueDzd ?? 0), 0)
  },
  createdAt: "2026-03-11T10:00:00.000Z",
  organizationId: "00000000-0000-4000-8000-0000000000aa",
  sandbox: false
});

const FIVE = [
  line(1, "Amina ••42", 1500, 3000),
  line(2, "أمينة ••07", null, 12000),
  line(3, "Karim ••99", 2450.5, null),
  line(4, "يوسف ••13", 800, 800),
  line(5, "Lina ••60", null, null)
];

function decode(oneDimensional: boolean, rects: Rect[]): string {
  const { luminance, width, height } = rasterise(rects, 4, 12);
  const source = new RGBLuminanceSource(luminance, width, height);
  const bitmap = new BinaryBitmap(oneDimensional ? new GlobalHistogramBinarizer(source) : new HybridBinarizer(source));
  const hints = new Map([[DecodeHintType.POSSIBLE_FORMATS, [oneDimensional ? BarcodeFormat.CODE_128 : BarcodeFormat.QR_CODE]]]);
  return (oneDimensional ? new Code128Reader() : new QRCodeReader()).decode(bitmap, hints).getText();
}

describe("a manifest's PDF", () => {
  let pdf: Buffer;
  beforeAll(async () => {
    pdf = await renderManifestPdf(manifest(FIVE), "Boutique Yasmine SARL");
    // Kept for a person to look at (pdftoppm -png -r 60), as the labels' are.
    fs.mkdirSync(path.join(__dirname, "../../../.ci-artifacts"), { recursive: true });
    fs.writeFileSync(path.join(__dirname, "../../../.ci-artifacts/manifest.pdf"), pdf);
  });

  it("is one A4 page for five parcels", () => {
    const pages = readPages(pdf);
    expect(pages).toHaveLength(1);
    expect(pages[0].mediaBox.map(Math.round)).toEqual([0, 0, 595, 842]);
  });

  it("carries one Code 128 and one QR, both of the manifest's number", () => {
    const paths = filledRectPaths(readPages(pdf)[0].content);
    const bars = paths.filter(p => p.length > 20 && p.every(r => r.y === p[0].y && r.height === p[0].height && r.height > 20));
    const qr = paths.filter(p => {
      if (p.length < 20 || !p.every(r => r.height === p[0].height)) return false;
      const b = boundsOf(p);
      return Math.abs(b.width - b.height) < 0.01;
    });
    expect(bars).toHaveLength(1);
    expect(qr).toHaveLength(1);
    expect(decode(true, bars[0])).toBe("MF-20260312-7K2Q9M");
    expect(decode(false, qr[0])).toBe("MF-20260312-7K2Q9M");
  });

  it("prints a line per parcel (tracking number, recipient hint, relay code, COD, declared value), the totals, in French and Arabic", async () => {
    const { text } = await parsePdf(pdf);
    for (const l of FIVE) expect(text).toContain(l.trackingNumber);
    expect(text).toContain("Amina ••42");
    expect(text).toContain("Karim ••99");
    expect(text).toContain("1 500,00 DZD");
    expect(text).toContain("2 450,50 DZD");
    expect(text).toContain("12 000,00 DZD");
    // Totals: 5 parcels, COD 4 750,50, declared 15 800,00.
    expect(text).toContain("Total : 5 colis");
    expect(text).toContain("4 750,50 DZD");
    expect(text).toContain("15 800,00 DZD");
    expect(text).toContain("Bordereau de remise au coursier");
    expect(text).toContain("Boutique Yasmine SARL");
    expect(text).toContain("12 rue Didouche Mourad, Alger Centre (16)");
    // The Arabic headings are in the text layer too (shaped glyphs carry their letters).
    expect(text.normalize("NFKC")).toMatch(/[\u0600-\u06ff]/u);
  });

  it("runs over several pages with the totals once, after the last line", async () => {
    const many = Array.from({ length: 75 }, (_, i) => line(i + 1, `Client${i + 1} ••${String(i).padStart(2, "0")}`, 100, 200));
    const big = await renderManifestPdf(manifest(many), "Boutique Yasmine SARL");
    fs.writeFileSync(path.join(__dirname, "../../../.ci-artifacts/manifest-75.pdf"), big);
    const { text, numpages } = await parsePdf(big);
    expect(numpages).toBeGreaterThan(1);
    for (const l of many) expect(text).toContain(l.trackingNumber);
    expect(text.match(/Total : 75 colis/g)).toHaveLength(1);
    expect(text).toContain("7 500,00 DZD");
  });
});
