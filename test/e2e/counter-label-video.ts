import { boundsOf, filledRectPaths, rasterise, readPages, Rect } from "../helpers/label-pdf-reading";

/**
 * A camera's view of a real label, for Chromium's fake video capture
 * (--use-file-for-fake-video-capture): the label PDF's own barcode drawing (its filled rectangles,
 * as pdfkit wrote them) painted black on white, centred in a 640×480 frame, as a one-frame Y4M
 * (grey: the chroma planes are neutral). Debian's runner has no PDF rasteriser (pdftoppm), and the
 * barcodes are all the decoder looks at.
 */
const WIDTH = 640;
const HEIGHT = 480;

/** The Code 128 (bars of one height) or the QR (a square of equal modules) drawn on the label's first page. */
export function labelBarcode(pdf: Buffer, which: "code128" | "qr"): Rect[] {
  const [page] = readPages(pdf);
  const paths = filledRectPaths(page.content);
  const found = paths.find(path => {
    if (path.length < 20) return false;
    if (which === "code128") return path.every(rect => rect.y === path[0].y && rect.height === path[0].height && rect.height > 20);
    const bounds = boundsOf(path);
    return path.every(rect => rect.height === path[0].height) && Math.abs(bounds.width - bounds.height) < 0.01;
  });
  if (!found) throw new Error(`no ${which} drawn on the label`);
  return found;
}

export function barcodeVideo(rects: Rect[]): Buffer {
  const bounds = boundsOf(rects);
  // As large as the frame allows with a quiet margin of 10 points around the symbol.
  const margin = 10;
  const scale = Math.min((WIDTH - 40) / (bounds.width + 2 * margin), (HEIGHT - 40) / (bounds.height + 2 * margin));
  const image = rasterise(rects, scale, margin);
  const y = Buffer.alloc(WIDTH * HEIGHT, 255);
  const left = Math.floor((WIDTH - image.width) / 2);
  const top = Math.floor((HEIGHT - image.height) / 2);
  for (let row = 0; row < image.height; row++) {
    for (let col = 0; col < image.width; col++) y[(top + row) * WIDTH + left + col] = image.luminance[row * image.width + col];
  }
  const chroma = Buffer.alloc((WIDTH / 2) * (HEIGHT / 2) * 2, 128);
  return Buffer.concat([Buffer.from(`YUV4MPEG2 W${WIDTH} H${HEIGHT} F10:1 Ip A1:1 C420jpeg\nFRAME\n`, "latin1"), y, chroma]);
}
