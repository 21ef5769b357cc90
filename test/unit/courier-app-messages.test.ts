import fs from "node:fs";
import path from "node:path";
import { ar } from "../../web/courier/i18n/ar";
import { en } from "../../web/courier/i18n/en";
import { fr } from "../../web/courier/i18n/fr";
import { ROOT } from "../helpers/processes";

/**
 * The courier app's words (web/courier/i18n/): each error line is about a code the API really
 * answers (a typo would leave the courier with "unexpected error"), and no message is left empty or
 * untranslated in Arabic or English.
 */
const errorCodes = new Set(
  [...fs.readFileSync(path.join(ROOT, "lib/errors.ts"), "utf8").matchAll(/^\s+([A-Z_]+): \d{3},/gm)].map(m => m[1])
);

describe("the courier app's messages", () => {
  test("every error message is for a code of lib/errors.ts (or the app's own NETWORK and UNKNOWN)", () => {
    const codes = Object.keys(fr)
      .filter(key => key.startsWith("err_"))
      .map(key => key.slice(4));
    expect(codes.length).toBeGreaterThan(15);
    expect(codes.filter(code => !errorCodes.has(code) && !["NETWORK", "UNKNOWN"].includes(code))).toEqual([]);
  });

  test("every message is written in each language, with the same values to fill", () => {
    const values = (text: string) => [...text.matchAll(/\{(\w+)\}/g)].map(m => m[1]).sort();
    for (const [name, messages] of Object.entries({ ar, en })) {
      for (const [key, text] of Object.entries(fr)) {
        const other = messages[key as keyof typeof fr];
        expect({ name, key, empty: other.trim() === "" }).toEqual({ name, key, empty: false });
        expect({ name, key, values: values(other) }).toEqual({ name, key, values: values(text) });
      }
    }
    // Arabic is not French left in place.
    expect(
      Object.keys(fr).filter(
        key => ar[key as keyof typeof fr] === fr[key as keyof typeof fr] && /[a-zé]{4}/.test(fr[key as keyof typeof fr])
      )
    ).toEqual([]);
  });
});
