import relayPoints from "../../resources/relay-points.json";
import { directoryText, isDirectoryText } from "../../lib/directory-text";
import { validateWith } from "../../lib/validation";
import { Joi } from "../../lib/joi";

const schema = Joi.object({ name: directoryText(200).required() });
const verdict = (name: string) => {
  const result = validateWith(schema, { name });
  return "problems" in result ? result.problems.map(p => p.message) : "accepted";
};

describe("directory text: one line, not markup alone (lib/directory-text.ts)", () => {
  test.each([
    "Librairie Didouche",
    "مكتبة ديدوش",
    "Épicerie <img src=x onerror=alert(1)>",
    'Kiosque "><svg onload=alert(1)> Hydra',
    "Tabac 24/7",
    // Text between tags is text: every surface shows it as written.
    "<script>alert(1)</script>",
    "0",
    "<b>1</b>",
    "a<b",
    "Café « Le Coin »",
    "Nom\u200Fمع علامة"
  ])("accepted: %j", name => {
    expect(verdict(name)).toBe("accepted");
  });

  test.each([
    ["<img src=x onerror=alert(1)>", "not markup or punctuation alone"],
    ["<script>", "not markup or punctuation alone"],
    ['"><svg onload=alert(1)>', "not markup or punctuation alone"],
    ["  ", "not markup or punctuation alone"],
    ["<<>>", "not markup or punctuation alone"],
    ["Nom\tTab", "no control, line-break or text-direction characters"],
    ["Ligne\nDeux", "no control, line-break or text-direction characters"],
    ["Nom\u0085C1", "no control, line-break or text-direction characters"],
    ["Nom\u2028Sep", "no control, line-break or text-direction characters"],
    ["Boutique\u202Eevil", "no control, line-break or text-direction characters"],
    ["Boutique\u2067isolée", "no control, line-break or text-direction characters"],
    ["\uFEFFBOM", "no control, line-break or text-direction characters"]
  ])("refused: %j (%s)", (name, why) => {
    const problems = verdict(name);
    expect(problems).not.toBe("accepted");
    expect((problems as string[]).join(" ")).toContain(why);
  });

  test("reads a long hostile string in linear time: a pattern that backtracks would hang this test", () => {
    expect(verdict(`${"<>".repeat(5_000)}!`)).not.toBe("accepted");
    expect(isDirectoryText(`${"<a".repeat(5_000)}`)).toBe(true);
  });

  test("every name, city and address of the shipped directory obeys it", () => {
    const texts = (relayPoints as Record<string, unknown>[]).flatMap(p =>
      ["name", "nameAr", "city", "cityAr", "address"].map(field => p[field]).filter((v): v is string => typeof v === "string")
    );
    expect(texts.length).toBeGreaterThan(100);
    expect(texts.filter(text => !isDirectoryText(text))).toEqual([]);
  });
});
