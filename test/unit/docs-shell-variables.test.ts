import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";

/**
 * The guides' shell walks name the same things the same way, so that a newcomer who exported
 * them for one guide can paste the next: the API key is `$KEY`, the back-office token `$BO`, the
 * base URL `$BASE` (issue 26: the claims guide had `$LIVE` and `$API`).
 */

const ROOT = path.resolve(__dirname, "..", "..");
const GUIDES = [
  "README.md",
  ...["docs/merchants", "docs/operations", "docs/relay-points"].flatMap(dir =>
    readdirSync(path.join(ROOT, dir))
      .filter(name => name.endsWith(".md"))
      .map(name => `${dir}/${name}`)
  )
];

/** The system's own variables (a token given to `npm start`, not a shell's handle on it). */
const CONFIG_VARIABLES = new Set(
  [...readFileSync(path.join(ROOT, "docs/operations/configuration.md"), "utf8").matchAll(/^\| `([A-Z][A-Z0-9_]*)`/gm)].map(m => m[1])
);

const EXPECTED_NAME: [RegExp, string][] = [
  [/^rp_(live|sandbox)_/, "KEY"],
  [/^bo_/, "BO"],
  [/^\$\{?BASE|^https?:\/\/localhost/, "BASE"]
];

/** `NAME=value` assignments in the guide's sh blocks whose value is a key, a token or the base URL. */
function assignments(markdown: string): { name: string; value: string }[] {
  const found: { name: string; value: string }[] = [];
  for (const block of markdown.matchAll(/```(?:sh|bash|text)\n([\s\S]*?)```/g)) {
    for (const match of block[1].matchAll(/(?:^|\s)([A-Z][A-Z0-9_]*)=(\S+)/gm)) found.push({ name: match[1], value: match[2] });
  }
  return found;
}

describe("the guides' shell variables", () => {
  it.each(GUIDES)("%s names the key $KEY, the back-office token $BO and the base URL $BASE", guide => {
    const wrong: string[] = [];
    for (const { name, value } of assignments(readFileSync(path.join(ROOT, guide), "utf8"))) {
      const expected = EXPECTED_NAME.find(([pattern]) => pattern.test(value.replace(/^["']/, "")))?.[1];
      if (expected && name !== expected && !CONFIG_VARIABLES.has(name)) {
        wrong.push(`${name}=${value} (call it ${expected})`);
      }
    }
    expect(wrong).toEqual([]);
  });
});
