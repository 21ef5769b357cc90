import fc from "fast-check";
import { codePointLength, Joi } from "../../lib/joi";
import { MAX_DEPTH, unsafeTextProblems } from "../../lib/text-safety";

describe("the rule every string obeys", () => {
  test.each([
    ["NUL", "a\u0000b"],
    ["bell", "\u0007"],
    ["escape", "x\u001b[31m"],
    ["vertical tab", "\u000b"],
    ["a lone high surrogate", "\ud800"],
    ["a lone low surrogate", "a\udc00"],
    ["a reversed pair", "\udc00\ud800"]
  ])("refuses %s, naming the field", (_what, text) => {
    expect(unsafeTextProblems({ outer: { name: text } })).toEqual([{ field: "outer.name", message: expect.any(String) }]);
  });

  test("accepts tab, line breaks, accents, Arabic, emoji pairs", () => {
    expect(unsafeTextProblems({ a: "ligne 1\r\nligne 2\tfin", b: "Chéraga — الجزائر", c: "😀👍🏽" })).toEqual([]);
  });

  test("names array items by index, and checks keys", () => {
    expect(unsafeTextProblems({ items: ["ok", "bad\u0000"] })).toEqual([{ field: "items.1", message: expect.any(String) }]);
    expect(unsafeTextProblems({ ["k\u0000"]: 1 })[0].field).toBe("k\\u0000");
  });

  test.each(["__proto__", "constructor", "prototype"])("refuses %s as a field name, at any depth", key => {
    const parsed = JSON.parse(`{"a":{"${key}":{"x":1}}}`) as object;
    expect(unsafeTextProblems(parsed)).toEqual([{ field: `a.${key}`, message: "is not an allowed field name" }]);
  });

  test("bounds nesting", () => {
    let deep: unknown = "x";
    for (let i = 0; i < MAX_DEPTH + 5; i++) deep = [deep];
    expect(unsafeTextProblems({ deep })[0].message).toContain("nested");
  });

  test("any well-formed text without control characters passes, and any with one fails", () => {
    // eslint-disable-next-line no-control-regex -- the characters under test
    const clean = fc.string({ unit: "grapheme" }).filter(s => !/[\u0000-\u0008\u000b\u000c\u000e-\u001f]/.test(s));
    fc.assert(fc.property(clean, s => unsafeTextProblems({ s }).length === 0));
    fc.assert(
      fc.property(clean, fc.integer({ min: 0, max: 8 }), (s, c) => unsafeTextProblems({ s: s + String.fromCharCode(c) }).length === 1)
    );
  });
});

describe("string lengths count code points", () => {
  test("codePointLength", () => {
    expect(codePointLength("")).toBe(0);
    expect(codePointLength("abc")).toBe(3);
    expect(codePointLength("😀".repeat(100))).toBe(100);
    expect(codePointLength("\ud800x")).toBe(2);
    expect(codePointLength("é")).toBe(1);
  });

  test("min, max and length of every Joi string", () => {
    const name = Joi.string().min(2).max(3);
    expect(name.validate("😀😀😀").error).toBeUndefined();
    expect(name.validate("😀😀😀😀").error?.details[0].type).toBe("string.max");
    expect(name.validate("😀").error?.details[0].type).toBe("string.min");
    expect(Joi.string().length(2).validate("😀😀").error).toBeUndefined();
  });

  test("describe() is unchanged, so the OpenAPI document reads the same bounds", () => {
    expect(Joi.string().min(1).max(100).describe().rules).toEqual([
      { name: "min", args: { limit: 1 } },
      { name: "max", args: { limit: 100 } }
    ]);
  });
});
