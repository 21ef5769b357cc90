import type { renderLabelFile } from "./render/label-file";
import type { zplFontDownload } from "./render/zpl";

/** What the labels service renders with: everything under render/ that needs pdfkit, fontkit or bwip-js. */
export interface Renderers {
  renderLabelFile: typeof renderLabelFile;
  zplFontDownload: typeof zplFontDownload;
}

let loading: Promise<Renderers> | null = null;

/**
 * The renderers, loaded on the first label rather than at start. pdfkit, fontkit (with brotli)
 * and bwip-js are ~8 MB of V8's old space (an embedded process at rest: 53 → 45 MB of heap used)
 * and ~0.2 s of loading: a process that has not printed a label yet (an embedded start serving
 * API calls, a test suite that boots the system) need not hold them, and every GC walks a smaller
 * heap. The first label waits for the load, once.
 */
export function renderers(): Promise<Renderers> {
  loading ??= Promise.all([import("./render/label-file"), import("./render/zpl")]).then(
    ([file, zpl]) => ({ renderLabelFile: file.renderLabelFile, zplFontDownload: zpl.zplFontDownload }),
    (err: unknown) => {
      // A failed load (a file missing from a broken install) is tried again by the next label.
      loading = null;
      throw err;
    }
  );
  return loading;
}
