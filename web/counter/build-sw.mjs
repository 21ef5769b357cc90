// After the counter app is bundled: copies the barcode decoder's .wasm beside it (served by us,
// never a CDN), builds prefetch.js (the day's first reads, started early: early-reads.ts), then
// builds the service worker with the list of every file it precaches and a version made of their contents, so that any change to the app is a new worker (a byte-identical
// worker is never reinstalled, and its old cache would be served for ever).
import { build } from "esbuild";
import { createHash } from "node:crypto";
import { copyFileSync, readdirSync, readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

const here = dirname(fileURLToPath(import.meta.url));
const require = createRequire(import.meta.url);

/** The decoder's file name, the one web/shared/camera/decoder.ts asks the ponyfill to load. */
export const DECODER_WASM = "zxing_reader.wasm";

/** What the two bundles built here share: minified, for the browsers the app supports. */
const BROWSER = { bundle: true, minify: true, target: ["es2022", "chrome100", "safari15"], legalComments: "none", logLevel: "warning" };

export default async function buildServiceWorker(outdir) {
  copyFileSync(require.resolve(`zxing-wasm/reader/${DECODER_WASM}`), join(outdir, DECODER_WASM));
  // prefetch.js on its own (no splitting): a chunk shared with main.js would cost a round trip.
  await build({ ...BROWSER, entryPoints: [join(here, "prefetch.ts")], outfile: join(outdir, "prefetch.js"), format: "esm" });

  const files = readdirSync(outdir)
    .filter(name => name !== "sw.js" && !name.endsWith(".map"))
    .sort();
  const version = createHash("sha256");
  for (const name of files) version.update(name).update(readFileSync(join(outdir, name)));

  await build({
    entryPoints: [join(here, "sw.ts")],
    ...BROWSER,
    outfile: join(outdir, "sw.js"),
    format: "iife",
    define: {
      __PRECACHE__: JSON.stringify(files),
      __VERSION__: JSON.stringify(version.digest("hex").slice(0, 16))
    }
  });
}
