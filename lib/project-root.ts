import fs from "node:fs";
import path from "node:path";

let cached: string | undefined;

/** The folder holding package.json, whether we run from the sources (tests) or from dist/. */
export function projectRoot(): string {
  if (cached) return cached;
  let dir = __dirname;
  while (!fs.existsSync(path.join(dir, "package.json"))) {
    const parent = path.dirname(dir);
    if (parent === dir) throw new Error("package.json not found above " + __dirname);
    dir = parent;
  }
  cached = dir;
  return dir;
}
