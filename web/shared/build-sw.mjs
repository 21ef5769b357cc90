// After an app is bundled (web/build.mjs `after`): copies the barcode decoder's .wasm beside it
// (served by us, never a CDN), then builds the service worker (web/shared/sw.ts) with the list of
// every file it precaches and a version made of their contents, so that any change to the app is a
// new worker (a byte-identical worker is never reinstalled, and its old cache would be served for ever).
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

/** What the bundles built after an app share: minified, for the browsers the apps support. */
export const BROWSER = {
  bundle: true,
  minify: true,
  target: ["es2022", "chrome100", "safari15"],
  legalComments: "none",
  logLevel: "warning"
};

export function copyDecoder(outdir) {
  copyFileSync(require.resolve(`zxing-wasm/reader/${DECODER_WASM}`), join(outdir, DECODER_WASM));
}

/**
 * What follows an app's bundle: the decoder's .wasm beside it, its prefetch.js built on its own (no
 * splitting: a chunk shared with main.js would cost a round trip; decision 0049), then the worker
 * that precaches it all. `appDir` is the app's source folder (its prefetch.ts).
 */
export async function buildAppExtras(outdir, app, appDir) {
  copyDecoder(outdir);
  await build({ ...BROWSER, entryPoints: [join(appDir, "prefetch.ts")], outfile: join(outdir, "prefetch.js"), format: "esm" });
  await buildServiceWorker(outdir, app);
}

/** The worker of the app `app` ("counter", "courier"), precaching everything in `outdir` but itself. */
export async function buildServiceWorker(outdir, app) {
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
      __VERSION__: JSON.stringify(version.digest("hex").slice(0, 16)),
      __APP__: JSON.stringify(app)
    }
  });
}
