import { LabelData, renderLabelDocument, renderLabelPdf, renderZpl } from "../../../services/labels/render";
import { parsePdf } from "../../helpers/pdf";

/** Issue 30: the label names the brand the parcel travels under (BRAND_NAME), in the PDF and in ZPL, and keeps its date. */

const label: LabelData = {
  trackingNumber: "RP123456785DZ",
  relayCode: "DZ-16-ALGER-CENTRE",
  relayName: "Librairie du Centre",
  relayCity: "Alger",
  weightG: 1250,
  codAmountDzd: 1500,
  senderName: "Boutique Yasmine SARL",
  brandName: "Colis Express",
  createdAt: "2024-05-01T10:00:00.000Z"
};

const squash = (text: string) => text.replace(/\s+/g, " ");

describe("the brand on the label", () => {
  it.each(["a6", "a4", "4x6"] as const)("PDF %s: the brand, the sender and the date are all printed", async format => {
    const text = squash((await parsePdf(await renderLabelDocument([label], { format, startOffset: 0 }))).text);
    expect(text).toContain("Colis Express");
    expect(text).toContain("From: Boutique Yasmine SARL");
    expect(text).toContain("2024-05-01");
  });

  it("a long brand name is shrunk to its room, never dropped", async () => {
    const text = squash((await parsePdf(await renderLabelPdf({ ...label, brandName: "Express Colis DZ" }))).text);
    expect(text).toContain("Express Colis DZ");
    expect(text).toContain("From: Boutique Yasmine SARL");
  });

  it("ZPL: the brand is a field of its own, the date too", () => {
    const fields = Array.from(renderZpl([label]).matchAll(/\^FD(.*?)\^FS/g), m => m[1]);
    expect(fields).toContain("Colis Express");
    expect(fields).toContain("2024-05-01");
    expect(fields).toContain("From: Boutique Yasmine SARL");
  });

  it("without a brand (a caller that gives none), the label is as before: no empty field", async () => {
    const { brandName: _none, ...plain } = label;
    void _none;
    const text = squash((await parsePdf(await renderLabelPdf(plain))).text);
    expect(text).not.toContain("Colis Express");
    expect(text).toContain("2024-05-01");
  });
});
