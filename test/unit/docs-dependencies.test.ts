import fs from "node:fs";
import path from "node:path";
import { ROOT } from "../helpers/processes";

/** The house rule: the docs say why each dependency is there (README for what ships, docs/development for the tools). */
describe("every dependency is named in the docs with its reason", () => {
  const pkg = JSON.parse(fs.readFileSync(path.join(ROOT, "package.json"), "utf8")) as Record<string, Record<string, string>>;
  const tables = ["README.md", "docs/development/dependencies.md"].map(file => fs.readFileSync(path.join(ROOT, file), "utf8"));
  /** A package is named when a table row's first cell has it in backticks (`@types/*` names every type package). */
  const named = new Set(
    tables
      .join("\n")
      .split("\n")
      .filter(line => line.startsWith("| "))
      .flatMap(line => [...line.split("|")[1].matchAll(/`([^`]+)`/g)].map(m => m[1]))
  );
  const isNamed = (name: string) => named.has(name) || (name.startsWith("@types/") && named.has("@types/*"));

  test.each(["dependencies", "devDependencies"])("%s", field => {
    const names = Object.keys(pkg[field]);
    expect(names.length).toBeGreaterThan(5);
    expect(names.filter(name => !isNamed(name))).toEqual([]);
  });

  test("what ships is explained in the README itself", () => {
    const readme = tables[0];
    expect(Object.keys(pkg.dependencies).filter(name => !readme.includes(`\`${name}\``))).toEqual([]);
  });
});
