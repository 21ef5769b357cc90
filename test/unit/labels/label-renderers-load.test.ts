import type { Renderers } from "../../../services/labels/renderers";
import type { LabelData } from "../../../lib/labels/label-data";

/** The libraries the renderers need, noted as each is first required in this test's own module registry. */
const HEAVY = ["pdfkit", "fontkit", "bwip-js"] as const;

const label: LabelData = {
  trackingNumber: "RP123456785DZ",
  relayCode: "DZ-16-ALGER-CENTRE",
  relayName: "Librairie Didouche",
  relayCity: "Alger Centre",
  relayAddress: "42 Rue Didouche Mourad, Alger Centre",
  weightG: 1250,
  codAmountDzd: 1500,
  senderName: "Boutique Yasmine SARL",
  createdAt: "2024-05-01T10:00:00.000Z"
};

describe("the label renderers' libraries", () => {
  let loaded: string[];

  beforeEach(() => {
    jest.resetModules();
    loaded = [];
    for (const name of HEAVY) {
      jest.doMock(name, () => {
        loaded.push(name);
        return jest.requireActual(name);
      });
    }
  });

  afterEach(() => {
    for (const name of HEAVY) jest.dontMock(name);
  });

  it("are not loaded by starting any service, the labels service included", async () => {
    const { loadServiceSchema } = await import("../../../services/index");
    for (const name of ["gateway", "auth", "wallet", "parcels", "labels", "notifications", "webhooks"] as const) {
      await loadServiceSchema(name);
    }
    expect(loaded).toEqual([]);
  });

  it("load with the first label, once, and render it", async () => {
    const { renderers } = await import("../../../services/labels/renderers");
    const [first, second]: Renderers[] = await Promise.all([renderers(), renderers()]);
    expect(second).toBe(first);
    expect([...loaded].sort()).toEqual([...HEAVY].sort());

    const pdf = await first.renderLabelFile([label], { format: "a6", startOffset: 0 });
    expect(pdf.contentType).toBe("application/pdf");
    expect(pdf.content.subarray(0, 5).toString("latin1")).toBe("%PDF-");
    expect(first.zplFontDownload()).toMatch(/^~DYE:RPLABEL,A,T,\d+,,[0-9A-F]+\n$/);
    expect(loaded).toHaveLength(HEAVY.length);
  });
});
