// Builds the SDK twice from the same sources with the repository's TypeScript (the package itself
// installs nothing): dist/esm (ES modules) and dist/cjs (CommonJS), each with its declarations.
// Run through `npm run sdk:build` at the repository's root (`npm run build` runs it too).
import { execFileSync } from "node:child_process";
import { rmSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

const sdk = join(dirname(fileURLToPath(import.meta.url)), "..");
const tsc = createRequire(join(sdk, "..", "..", "package.json")).resolve("typescript/bin/tsc");
const dist = join(sdk, "dist");

rmSync(dist, { recursive: true, force: true });
for (const config of ["tsconfig.esm.json", "tsconfig.cjs.json"]) {
  execFileSync(process.execPath, [tsc, "-p", join(sdk, config)], { stdio: "inherit" });
}
// Each half says what it is, whatever the consumer's own package.json says.
writeFileSync(join(dist, "esm", "package.json"), JSON.stringify({ type: "module" }) + "\n");
writeFileSync(join(dist, "cjs", "package.json"), JSON.stringify({ type: "commonjs" }) + "\n");
