import { DIRECTION_OF, negotiateLanguage } from "../../lib/languages";

describe("negotiateLanguage", () => {
  it("French when nothing is said, or nothing we speak is asked for", () => {
    expect(negotiateLanguage({})).toBe("fr");
    expect(negotiateLanguage({ acceptLanguage: "" })).toBe("fr");
    expect(negotiateLanguage({ acceptLanguage: "de-DE,de;q=0.9,es;q=0.5" })).toBe("fr");
    expect(negotiateLanguage({ acceptLanguage: "*" })).toBe("fr");
  });

  it("follows Accept-Language and its q-values, regional variants included", () => {
    expect(negotiateLanguage({ acceptLanguage: "ar-DZ,ar;q=0.9,fr;q=0.8" })).toBe("ar");
    expect(negotiateLanguage({ acceptLanguage: "en-US,en;q=0.9" })).toBe("en");
    expect(negotiateLanguage({ acceptLanguage: "fr;q=0.5, en;q=0.7, ar;q=0.6" })).toBe("en");
    expect(negotiateLanguage({ acceptLanguage: "ar;q=0, en;q=0.1" })).toBe("en");
    expect(negotiateLanguage({ acceptLanguage: "kab-DZ, ar-DZ;q=0.8, fr-DZ;q=0.9" })).toBe("fr");
    expect(negotiateLanguage({ acceptLanguage: ["de", "ar;q=0.5"] })).toBe("ar");
  });

  it("?lang= wins over the header when it names a language we speak", () => {
    expect(negotiateLanguage({ queryLang: "ar", acceptLanguage: "en" })).toBe("ar");
    expect(negotiateLanguage({ queryLang: " EN ", acceptLanguage: "ar" })).toBe("en");
    expect(negotiateLanguage({ queryLang: ["en", "ar"], acceptLanguage: "fr" })).toBe("en");
    expect(negotiateLanguage({ queryLang: "de", acceptLanguage: "ar" })).toBe("ar");
    expect(negotiateLanguage({ queryLang: "<script>", acceptLanguage: null })).toBe("fr");
  });

  it("Arabic is the one written right to left", () => {
    expect(DIRECTION_OF).toEqual({ fr: "ltr", ar: "rtl", en: "ltr" });
  });
});
