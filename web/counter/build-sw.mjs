// After the counter app is bundled: the barcode decoder's .wasm beside it, prefetch.js (the day's
// first reads, started early: early-reads.ts), then the service worker that precaches it all
// (web/shared/build-sw.mjs).
import { build } from "esbuild";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { BROWSER, buildServiceWorker, copyDecoder } from "../shared/build-sw.mjs";

const here = dirname(fileURLToPath(import.meta.url));

export default async function buildCounterExtras(outdir) {
  copyDecoder(outdir);
  // prefetch.js on its own (no splitting): a chunk shared with main.js would cost a round trip.
  await build({ ...BROWSER, entryPoints: [join(here, "prefetch.ts")], outfile: join(outdir, "prefetch.js"), format: "esm" });
  await buildServiceWorker(outdir, "counter");
}
