import { LabelData, renderLabelDocument, renderLabelPdf } from "../../../services/labels/render";
import { directionalRuns, paragraphDirection, shaperInput } from "../../../services/labels/render/bidi";
import { sharesParsedFonts } from "../../../services/labels/render/pdf-fonts";
import { parsePdf } from "../../helpers/pdf";
import { readPages } from "../../helpers/label-pdf-reading";

const base: LabelData = {
  trackingNumber: "RP123456785DZ",
  relayCode: "DZ-16-ALGER-CENTRE",
  relayName: "Librairie Didouche",
  relayCity: "Alger Centre",
  weightG: 1250,
  codAmountDzd: 1500,
  senderName: "Boutique Yasmine SARL",
  createdAt: "2024-05-01T10:00:00.000Z"
};

/** Wilaya names, shop names and addresses as a directory holds them. */
const ARABIC = [
  "مكتبة ديدوش مراد",
  "الجزائر الوسطى",
  "تيزي وزو",
  "بسكرة",
  "قسنطينة",
  "سيدي بلعباس",
  "برج بوعريريج",
  "عين تموشنت",
  "سوق أهراس",
  "صيدلية السلام",
  "محل الأمل للهواتف",
  "مقهى الإنترنت الجزائر",
  "شارع العربي بن مهيدي، رقم 45",
  "حي 5 جويلية، عمارة 12، باب الزوار"
];

async function linesOf(label: LabelData): Promise<string[]> {
  return (await parsePdf(await renderLabelPdf(label))).text.split("\n");
}

describe("Arabic on labels", () => {
  it.each(ARABIC)("prints %s so that a PDF reader extracts exactly the letters given, in reading order", async arabic => {
    const lines = await linesOf({ ...base, relayNameAr: arabic, relayAddress: arabic, senderName: arabic });
    // Its own line for the Arabic name and for the address; the sender shares a line with the date.
    expect(lines.filter(line => line === arabic)).toHaveLength(2);
    expect(lines).toContain(`From: ${arabic}2024-05-01`);
  });

  it("keeps the Latin name and adds the Arabic one when the directory has both", async () => {
    const lines = await linesOf({ ...base, relayNameAr: "مكتبة ديدوش مراد", relayCityAr: "الجزائر الوسطى" });
    expect(lines).toContain("Librairie Didouche");
    expect(lines).toContain("مكتبة ديدوش مراد");
    // Latin city on the left, Arabic city on the right of the same line.
    expect(lines).toContain("Alger Centreالجزائر الوسطى");
  });

  it("prints the Arabic name once when it is also the main name", async () => {
    const lines = await linesOf({ ...base, relayName: "مكتبة ديدوش مراد", relayNameAr: " مكتبة ديدوش مراد " });
    expect(lines.filter(line => line.includes("مكتبة"))).toEqual(["مكتبة ديدوش مراد"]);
  });

  it.each(["مكتبة ديدوش — Alger Centre", "Relais Bab Ezzouar — باب الزوار", "Superette Ennour - بقالة النور 2"])(
    "extracts the mixed name %s in reading order",
    async mixed => {
      expect(await linesOf({ ...base, relayName: mixed })).toContain(mixed);
    }
  );

  it("lays a right-to-left line out from the right: the Latin part of an Arabic-first name sits on its left", async () => {
    const pdf = await renderLabelPdf({ ...base, relayName: "مكتبة ديدوش — Alger Centre" });
    const content = readPages(pdf)[0].content;
    // Both runs share the name's baseline; the Arabic run is written first (reading order).
    const runs = Array.from(content.matchAll(/^1 0 0 1 (-?[\d.]+) (-?[\d.]+) Tm\n\/F\d+ 12 Tf$/gm), match => Number(match[1]));
    expect(runs).toHaveLength(2);
    const [arabicX, latinX] = runs;
    expect(arabicX).toBeGreaterThan(latinX);
  });

  it("embeds one subset of the Unicode font only when a label needs it, and reuses the parsed font across documents", async () => {
    expect(sharesParsedFonts()).toBe(true);
    const latin = (await renderLabelPdf(base)).toString("latin1");
    expect(latin).not.toContain("/FontFile2");
    const arabic = (await renderLabelPdf({ ...base, relayNameAr: "مكتبة ديدوش مراد" })).toString("latin1");
    expect(arabic.match(/\/FontFile2/g)).toHaveLength(1);
    expect(arabic).toMatch(/\/FontName \/[A-Z]{6}\+Cairo-Regular/);
  });

  it("prints every Arabic label of a batch correctly, not only the first", async () => {
    const labels = ARABIC.map((relayNameAr, index) => ({ ...base, trackingNumber: `RP${String(index).padStart(9, "0")}DZ`, relayNameAr }));
    const text = (await parsePdf(await renderLabelDocument(labels, { format: "4x6" }))).text.split("\n");
    for (const arabic of ARABIC) expect(text).toContain(arabic);
  });
});

describe("bidirectional runs", () => {
  it("finds the paragraph direction from the first strong letter", () => {
    expect(paragraphDirection("مكتبة ديدوش — Alger Centre")).toBe("rtl");
    expect(paragraphDirection("12 مكتبة")).toBe("rtl");
    expect(paragraphDirection("Relais — باب الزوار")).toBe("ltr");
  });

  it("orders the runs of an Arabic-first line from the right", () => {
    const runs = directionalRuns("مكتبة ديدوش — Alger Centre", "rtl");
    expect(runs.map(run => [run.text, run.rtl, run.visualIndex])).toEqual([
      ["مكتبة ديدوش — ", true, 1],
      ["Alger Centre", false, 0]
    ]);
  });

  it("keeps numbers left to right inside Arabic and puts them where a reader expects", () => {
    const runs = directionalRuns("شارع 12 رقم 45", "rtl");
    expect(runs.map(run => [run.text, run.rtl, run.visualIndex])).toEqual([
      ["شارع ", true, 3],
      ["12", false, 2],
      [" رقم ", true, 1],
      ["45", false, 0]
    ]);
    // Arabic-Indic digits belong to the Arabic script: the shaper would reverse them, so they are pre-reversed.
    const [digits] = directionalRuns("٤٥", "rtl").filter(run => !run.rtl);
    expect(shaperInput(digits)).toBe("٥٤");
  });

  it("mirrors brackets inside right-to-left text so that they open towards the words they enclose", () => {
    const runs = directionalRuns("حي السلام (الطابق 3)", "rtl");
    expect(runs.map(run => run.text)).toEqual(["حي السلام )الطابق ", "3", "("]);
    // A run of neutral characters only is reversed here, as the shaper would not.
    expect(shaperInput({ text: " ()", rtl: true, visualIndex: 0 })).toBe(")( ");
  });
});
