// After the counter app is bundled: the barcode decoder's .wasm, prefetch.js (the day's first reads,
// started early: early-reads.ts) and the service worker that precaches it all (web/shared/build-sw.mjs).
import { dirname } from "node:path";
import { fileURLToPath } from "node:url";
import { buildAppExtras } from "../shared/build-sw.mjs";

export default async function buildCounterExtras(outdir) {
  await buildAppExtras(outdir, "counter", dirname(fileURLToPath(import.meta.url)));
}
