import fs from "node:fs";
import path from "node:path";
import { brokenLinks, documentationFiles, headingAnchors, markdownLinks } from "../helpers/markdown";
import { ROOT } from "../helpers/processes";

/** Issue 20: the README is a front door to docs/; a link to a missing file or heading must fail `npm test`. */
describe("relative links in README.md and docs/", () => {
  test("the README stays a front door: at most 300 lines, the rest is in docs/", () => {
    expect(fs.readFileSync(path.join(ROOT, "README.md"), "utf8").split("\n").length).toBeLessThanOrEqual(300);
  });

  test("it finds the documentation to check", () => {
    const files = documentationFiles();
    expect(files).toContain("README.md");
    expect(files.filter(f => f.startsWith("docs/")).length).toBeGreaterThan(20);
  });

  test("every relative link names a file inside the repository, and every #anchor one of its headings", () => {
    expect(documentationFiles().flatMap(file => brokenLinks(file))).toEqual([]);
  });

  test("the README's table of the docs links every guide (decision records are reached from their index)", () => {
    const linked = new Set(markdownLinks(fs.readFileSync(path.join(ROOT, "README.md"), "utf8")).map(link => link.target));
    const guides = documentationFiles().filter(f => f.startsWith("docs/") && !/^docs\/decisions\/\d{4}-/.test(f));
    expect(guides.filter(f => !linked.has(f))).toEqual([]);
  });

  test("the decisions index links every decision record", () => {
    const index = "docs/decisions/README.md";
    const linked = new Set(markdownLinks(fs.readFileSync(path.join(ROOT, index), "utf8")).map(link => `docs/decisions/${link.target}`));
    const records = documentationFiles().filter(f => /^docs\/decisions\/\d{4}-/.test(f));
    expect(records.length).toBeGreaterThan(15);
    expect(records.filter(f => !linked.has(f))).toEqual([]);
  });
});

describe("the link checker itself", () => {
  const files: Record<string, string> = {
    "README.md": "# Title\n\nSee [the keys](docs/guide.md#the-api-keys-part), [the guide](docs/guide.md) and [docs](docs/).\n",
    "docs/guide.md": [
      "# Guide",
      "## The API: keys, part",
      "## `Code` heading",
      "## Twice",
      "## Twice",
      "[up](../README.md#title) [here](#code-heading) [again](#twice-1) [web](https://example.com/x) `[span](nowhere.md)`",
      "```sh",
      "# not a heading",
      "[not a link](nowhere.md)",
      "```"
    ].join("\n\n")
  };
  const reader = (set: Record<string, string>) => (relative: string) => set[relative] ?? (relative === "docs" ? "" : null);

  test("links that resolve are not reported (code blocks, code spans and web links are not links to check)", () => {
    expect(brokenLinks("README.md", reader(files))).toEqual([]);
    expect(brokenLinks("docs/guide.md", reader(files))).toEqual([]);
  });

  test("a missing file, a missing heading and a link leaving the repository are each reported", () => {
    const broken = {
      ...files,
      "README.md": "[a](docs/missing.md)\n[b](docs/guide.md#no-such-heading)\n[c](../shared/SPEC.md)\n[d](docs/../../x.md)\n"
    };
    expect(brokenLinks("README.md", reader(broken))).toEqual([
      "README.md:1 docs/missing.md: no such file",
      "README.md:2 docs/guide.md#no-such-heading: no heading with that anchor",
      "README.md:3 ../shared/SPEC.md: leaves the repository",
      "README.md:4 docs/../../x.md: leaves the repository"
    ]);
  });

  test("anchors follow GitHub's slugs: markup and punctuation dropped, spaces to hyphens, repeats numbered", () => {
    expect([...headingAnchors(files["docs/guide.md"])]).toEqual(["guide", "the-api-keys-part", "code-heading", "twice", "twice-1"]);
  });
});
