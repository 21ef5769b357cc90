import fs from "node:fs";
import path from "node:path";
import { ROOT } from "../helpers/processes";

/**
 * The counter app explains every relay error in one line (web/counter/i18n/), and the shop's page
 * lists each of those lines (docs/relay-points/counter-app.md). A code the relay guide documents
 * without a message in the app would reach the shop as "unexpected error".
 */
const read = (file: string) => fs.readFileSync(path.join(ROOT, file), "utf8");
const codesIn = (text: string, pattern: RegExp) => new Set([...text.matchAll(pattern)].map(match => match[1]));

const appCodes = codesIn(read("web/counter/i18n/fr.ts"), /^\s+err_([A-Z_]+):/gm);
const errorCodes = codesIn(read("lib/errors.ts"), /^\s+([A-Z_]+): \d{3},/gm);

describe("the counter app's messages", () => {
  test("every error code in the relay guide has a message in the app", () => {
    const documented = [...codesIn(read("docs/relay-points/guide.md"), /`([A-Z][A-Z_]+)`/g)].filter(code => errorCodes.has(code));
    expect(documented.length).toBeGreaterThan(10);
    expect(documented.filter(code => !appCodes.has(code))).toEqual([]);
  });

  test("the shop's page explains each message the app can show", () => {
    const page = codesIn(read("docs/relay-points/counter-app.md"), /^\| `([A-Z_]+)` \|/gm);
    expect([...appCodes].filter(code => !page.has(code))).toEqual([]);
    expect([...page].filter(code => !appCodes.has(code))).toEqual([]);
  });
});
