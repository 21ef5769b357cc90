import { LabelData, renderZpl, zplFontDownload } from "../../../services/labels/render";
import { unicodeFontData } from "../../../services/labels/render/fonts";

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

function formatsOf(zpl: string): string[] {
  return zpl
    .split("^XZ")
    .slice(0, -1)
    .map(format => `${format}^XZ`);
}

/** The ^FD data of every field, as sent. */
function fieldData(format: string): string[] {
  return Array.from(format.matchAll(/\^FD(.*?)\^FS/g), match => match[1]);
}

/** The field (from ^FO to ^FS) that carries exactly this data. */
function fieldWith(format: string, data: string): string | undefined {
  return format.split("\n").find(line => line.endsWith(`^FD${data}^FS`));
}

describe("renderZpl", () => {
  it("writes one ^XA…^XZ format per label, each setting UTF-8, advanced text and the 4×6 in, 203 dpi size", () => {
    const labels = [label, { ...label, trackingNumber: "RP000000017DZ" }, { ...label, trackingNumber: "RP000000025DZ" }];
    const zpl = renderZpl(labels);
    expect(zpl.match(/\^XA/g)).toHaveLength(3);
    expect(zpl.match(/\^XZ/g)).toHaveLength(3);
    const formats = formatsOf(zpl);
    formats.forEach((format, index) => {
      expect(format.trimStart().startsWith("^XA")).toBe(true);
      expect(format.indexOf("^XA")).toBe(format.lastIndexOf("^XA"));
      for (const command of ["^CI28", "^PA1,1,1,1", "^PW812", "^LL1218"]) expect(format).toContain(command);
      expect(format).toContain(`^BCN,200,N,N,N,A^FH^FD${labels[index].trackingNumber}^FS`);
      expect(format).toMatch(new RegExp(`\\^BQN,2,8\\^FH\\^FDQA,${labels[index].trackingNumber}\\^FS`));
    });
  });

  it("is well formed: every line a command, every field placed with ^FO and closed with ^FS", () => {
    const [format] = formatsOf(renderZpl([{ ...label, sandbox: true }]));
    const fields = format.split("\n").filter(line => line.includes("^FO"));
    expect(fields.length).toBeGreaterThan(15);
    for (const line of format.split("\n")) {
      expect(line).toMatch(/^\^[A-Z@][A-Z0-9@]/);
      if (line.includes("^FD")) expect(fields).toContain(line);
    }
    for (const field of fields) {
      expect(field).toMatch(/^(\^BY[\d,]+)?\^FO\d+,\d+\^/);
      expect(field.match(/\^FO/g)).toHaveLength(1);
      expect(field.match(/\^FS/g)).toHaveLength(1);
      expect(field.endsWith("^FS")).toBe(true);
    }
  });

  it("prints what the PDF label prints: relay, weight, cash to collect, sender, date, tracking number", () => {
    const [format] = formatsOf(renderZpl([label]));
    const data = fieldData(format);
    for (const text of [
      "DZ-16-ALGER-CENTRE",
      "Librairie Didouche",
      "مكتبة ديدوش مراد",
      "42 Rue Didouche Mourad, Alger Centre",
      "Alger Centre",
      "الجزائر الوسطى",
      "1,25 kg (1 250 g)",
      "COD: 1 500,00 DZD - to collect",
      "From: Boutique Yasmine SARL",
      "2024-05-01",
      "RP123456785DZ"
    ]) {
      expect(data).toContain(text);
    }
    expect(data.join(" ")).not.toMatch(/SANDBOX/);
  });

  it("prints the wilaya in a reversed box beside the code, which leaves it room, and names it on both city lines", () => {
    const [format] = formatsOf(
      renderZpl([{ ...label, relayCode: "DZ-28-BOU-SAADA", relayCity: "Bou Saâda", relayCityAr: "بوسعادة", relayWilaya: "68" }])
    );
    expect(format).toContain("^FO652,142^GB120,76,76^FS");
    expect(fieldWith(format, "WILAYA")).toContain("^FR");
    expect(fieldWith(format, "68")).toMatch(/^\^FO652,166\^A0N,\d+,\d+\^FB120,1,0,C,0\^FR/);
    expect(fieldWith(format, "DZ-28-BOU-SAADA")).toContain("^FB596,1,");
    expect(fieldData(format)).toEqual(expect.arrayContaining(["Bou Saâda", "بوسعادة"]));
    const [suburb] = formatsOf(renderZpl([{ ...label, relayWilaya: "16" }]));
    expect(fieldData(suburb)).toEqual(expect.arrayContaining(["Alger Centre, Alger", "الجزائر الوسطى، الجزائر"]));
    const [none] = formatsOf(renderZpl([label]));
    expect(fieldData(none)).not.toContain("WILAYA");
    expect(fieldWith(none, "DZ-16-ALGER-CENTRE")).toContain("^FB732,1,");
  });

  it("sends Arabic in reading order in the Unicode font, right-aligned, and Latin in font 0", () => {
    const [format] = formatsOf(renderZpl([label]));
    expect(fieldWith(format, "مكتبة ديدوش مراد")).toMatch(/\^A@N,\d+,\d+,E:RPLABEL\.TTF\^FB\d+,1,0,R,0\^FH\^FD/);
    expect(fieldWith(format, "Librairie Didouche")).toMatch(/\^A0N,\d+,\d+\^FB\d+,1,0,L,0\^FH\^FD/);
    const [withResidentFont] = formatsOf(renderZpl([label], { unicodeFont: "E:TT0003M_.FNT" }));
    expect(fieldWith(withResidentFont, "مكتبة ديدوش مراد")).toContain("^A@N,38,38,E:TT0003M_.FNT");
  });

  it("prints no COD box when there is nothing to collect, and marks sandbox labels in reverse at top and bottom", () => {
    for (const codAmountDzd of [null, 0]) {
      const [format] = formatsOf(renderZpl([{ ...label, codAmountDzd, sandbox: true }]));
      expect(format).not.toContain("COD");
      const marks = format.split("\n").filter(line => line.endsWith("^FDSANDBOX - NOT FOR SHIPPING^FS"));
      expect(marks).toHaveLength(2);
      for (const mark of marks) expect(mark).toContain("^FR");
    }
  });

  it("cannot be broken out of by a name holding ZPL characters", () => {
    const zpl = renderZpl([{ ...label, relayName: "Relais ^XZ^XA~JR_x", senderName: "A\\&B" }]);
    expect(zpl.match(/\^XA/g)).toHaveLength(1);
    expect(zpl.match(/\^XZ/g)).toHaveLength(1);
    expect(zpl).not.toContain("~JR");
    expect(fieldData(zpl)).toContain("Relais _5EXZ_5EXA_7EJR_5Fx");
    // In a field block "\&" would start a new line; a backslash is doubled instead.
    expect(fieldData(zpl)).toContain("From: A\\\\&B");
  });

  it("cuts what cannot fit instead of letting the printer overprint it, and shrinks the relay code instead of cutting it", () => {
    const [format] = formatsOf(
      renderZpl([
        {
          ...label,
          relayName: "Relais Point Colis ".repeat(20),
          relayNameAr: "مكتبة ديدوش مراد ".repeat(20),
          relayCode: "DZ-16-BIR-MOURAD-RAIS-SUPERETTE"
        }
      ])
    );
    const data = fieldData(format);
    const latin = data.find(text => text.startsWith("Relais Point Colis"));
    expect(latin?.endsWith("...")).toBe(true);
    expect(latin?.length).toBeLessThan(60);
    const arabic = data.find(text => text.startsWith("مكتبة"));
    expect(arabic?.endsWith("…")).toBe(true);
    expect(fieldWith(format, "DZ-16-BIR-MOURAD-RAIS-SUPERETTE")).toMatch(/\^A0N,(\d+),\1\^FB732,1,/);
    const codeHeight = Number(/\^A0N,(\d+),\d+\^FB732,1,0,L,0\^FH\^FDDZ-16/.exec(format)?.[1]);
    expect(codeHeight).toBeLessThan(64);
    expect(codeHeight * 0.6 * "DZ-16-BIR-MOURAD-RAIS-SUPERETTE".length).toBeLessThanOrEqual(732);
  });

  it("refuses an empty batch and more than 100 labels", () => {
    expect(() => renderZpl([])).toThrow(RangeError);
    expect(() => renderZpl(Array.from({ length: 101 }, () => label))).toThrow(RangeError);
  });
});

describe("zplFontDownload", () => {
  it("stores the bundled Unicode font on the printer as E:RPLABEL.TTF, in ASCII hex", () => {
    const font = unicodeFontData();
    const command = zplFontDownload();
    const match = /^~DYE:RPLABEL,A,T,(\d+),,([0-9A-F]+)\n$/.exec(command);
    expect(match).not.toBeNull();
    expect(Number(match?.[1])).toBe(font.length);
    expect(Buffer.from(match?.[2] ?? "", "hex").equals(font)).toBe(true);
  });
});
