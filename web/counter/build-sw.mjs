// After the counter app is bundled: copies the barcode decoder's .wasm beside it (served by us,
// never a CDN), then builds the service worker with the list of every file it precaches and a
// version made of their contents, so that any change to the app is a new worker (a byte-identical
// worker is never reinstalled, and its old cache would be served for ever).
import { build } from "esbuild";
import { createHash } from "node:crypto";
import { copyFileSync, readdirSync, readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

const here = dirname(fileURLToPath(import.meta.url));
const require = createRequire(import.meta.url);

/** The decoder's file name, the one web/counter/camera/decoder.ts asks the ponyfill to load. */
export const DECODER_WASM = "zxing_reader.wasm";

export default async function buildServiceWorker(outdir) {
  copyFileSync(require.resolve(`zxing-wasm/reader/${DECODER_WASM}`), join(outdir, DECODER_WASM));

  const files = readdirSync(outdir)
    .filter(name => name !== "sw.js" && !name.endsWith(".map"))
    .sort();
  const version = createHash("sha256");
  for (const name of files) version.update(name).update(readFileSync(join(outdir, name)));

  await build({
    entryPoints: [join(here, "sw.ts")],
    outfile: join(outdir, "sw.js"),
    bundle: true,
    format: "iife",
    minify: true,
    target: ["es2022", "chrome100", "safari15"],
    legalComments: "none",
    logLevel: "warning",
    define: {
      __PRECACHE__: JSON.stringify(files),
      __VERSION__: JSON.stringify(version.digest("hex").slice(0, 16))
    }
  });
}
