// Builds the SDK twice from the same sources with the repository's TypeScript (the package itself
// installs nothing): dist/esm (ES modules) and dist/cjs (CommonJS), each with its declarations.
// Run through `npm run sdk:build` at the repository's root (`npm run build` runs it too).
// `node build.mjs <dir>` builds a copy of the package in <dir> instead (its package.json, README and
// dist/), leaving this one's dist/ alone: a test of the package does not rebuild the files another
// test (the example shop) is loading.
import { execFileSync } from "node:child_process";
import { copyFileSync, mkdirSync, rmSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";

const sdk = join(dirname(fileURLToPath(import.meta.url)), "..");
const tsc = createRequire(join(sdk, "..", "..", "package.json")).resolve("typescript/bin/tsc");
const target = process.argv[2] ? resolve(process.argv[2]) : sdk;
const dist = join(target, "dist");

rmSync(dist, { recursive: true, force: true });
if (target !== sdk) {
  mkdirSync(target, { recursive: true });
  for (const file of ["package.json", "README.md"]) copyFileSync(join(sdk, file), join(target, file));
}
for (const [config, half] of [
  ["tsconfig.esm.json", "esm"],
  ["tsconfig.cjs.json", "cjs"]
]) {
  execFileSync(process.execPath, [tsc, "-p", join(sdk, config), "--outDir", join(dist, half)], { stdio: "inherit" });
}
// Each half says what it is, whatever the consumer's own package.json says.
writeFileSync(join(dist, "esm", "package.json"), JSON.stringify({ type: "module" }) + "\n");
writeFileSync(join(dist, "cjs", "package.json"), JSON.stringify({ type: "commonjs" }) + "\n");
