// After the courier app is bundled: the barcode decoder's .wasm beside it, then the service worker
// that precaches it all (web/shared/build-sw.mjs).
import { buildServiceWorker, copyDecoder } from "../shared/build-sw.mjs";

export default async function buildCourierExtras(outdir) {
  copyDecoder(outdir);
  await buildServiceWorker(outdir, "courier");
}
