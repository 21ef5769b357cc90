import zlib from "node:zlib";

/** Reading back what pdfkit wrote, for the label tests: page boxes and the drawing operators. */

export interface PdfPage {
  mediaBox: number[];
  content: string;
}

export interface Rect {
  x: number;
  y: number;
  width: number;
  height: number;
}

/** Pages in order, each with its MediaBox and its inflated content stream. */
export function readPages(pdf: Buffer): PdfPage[] {
  const raw = pdf.toString("latin1");
  const pages: PdfPage[] = [];
  for (const page of raw.matchAll(/\/Type \/Page\n\/Parent \d+ 0 R\n\/MediaBox \[([^\]]+)\]\n\/Contents (\d+) 0 R/g)) {
    const object = new RegExp(`\\n${page[2]} 0 obj\\n<<\\n/Length (\\d+)\\n/Filter /FlateDecode\\n>>\\nstream\\n`).exec(raw);
    if (!object) throw new Error(`content stream ${page[2]} not found`);
    const start = object.index + object[0].length;
    const content = zlib.inflateSync(pdf.subarray(start, start + Number(object[1]))).toString("latin1");
    pages.push({ mediaBox: page[1].split(" ").map(Number), content });
  }
  return pages;
}

/** Every filled path made only of rectangles (`re` … `f`), in page coordinates from the top left. */
export function filledRectPaths(content: string): Rect[][] {
  const paths: Rect[][] = [];
  let current: Rect[] = [];
  for (const line of content.split("\n")) {
    const rect = /^(-?[\d.]+) (-?[\d.]+) (-?[\d.]+) (-?[\d.]+) re$/.exec(line);
    if (rect) {
      current.push({ x: Number(rect[1]), y: Number(rect[2]), width: Number(rect[3]), height: Number(rect[4]) });
    } else if (line === "f") {
      if (current.length > 0) paths.push(current);
      current = [];
    } else if (/^(S|n|f\*|B|b)$/.test(line) || / [ml]$/.test(line)) {
      current = [];
    }
  }
  return paths;
}

/** Where each text object starts, in page coordinates from the top left (pdfkit flips the page). */
export function textOrigins(content: string, pageHeight: number): Array<{ x: number; y: number }> {
  return Array.from(content.matchAll(/^1 0 0 1 (-?[\d.]+) (-?[\d.]+) Tm$/gm), match => ({
    x: Number(match[1]),
    y: pageHeight - Number(match[2])
  }));
}

export function boundsOf(rects: Rect[]): Rect {
  const left = Math.min(...rects.map(rect => rect.x));
  const top = Math.min(...rects.map(rect => rect.y));
  const right = Math.max(...rects.map(rect => rect.x + rect.width));
  const bottom = Math.max(...rects.map(rect => rect.y + rect.height));
  return { x: left, y: top, width: right - left, height: bottom - top };
}

export function intersects(a: Rect, b: Rect): boolean {
  return a.x < b.x + b.width && b.x < a.x + a.width && a.y < b.y + b.height && b.y < a.y + a.height;
}

/**
 * Paints rectangles (in points) black on a white image with `pixelsPerPoint` resolution and a
 * white margin, as a luminance array for a barcode reader.
 */
export function rasterise(
  rects: Rect[],
  pixelsPerPoint: number,
  margin: number
): { luminance: Uint8ClampedArray; width: number; height: number } {
  const bounds = boundsOf(rects);
  const width = Math.ceil((bounds.width + 2 * margin) * pixelsPerPoint);
  const height = Math.ceil((bounds.height + 2 * margin) * pixelsPerPoint);
  const luminance = new Uint8ClampedArray(width * height).fill(255);
  for (const rect of rects) {
    const x0 = Math.round((rect.x - bounds.x + margin) * pixelsPerPoint);
    const x1 = Math.round((rect.x + rect.width - bounds.x + margin) * pixelsPerPoint);
    const y0 = Math.round((rect.y - bounds.y + margin) * pixelsPerPoint);
    const y1 = Math.round((rect.y + rect.height - bounds.y + margin) * pixelsPerPoint);
    for (let y = y0; y < y1; y++) luminance.fill(0, y * width + x0, y * width + x1);
  }
  return { luminance, width, height };
}

/** Stroked straight lines (`x y m`, `x y l`, then `S`), as rectangles of no thickness. */
export function strokedLines(content: string): Rect[] {
  const lines: Rect[] = [];
  const lineOps = content.matchAll(/^(-?[\d.]+) (-?[\d.]+) m\n(-?[\d.]+) (-?[\d.]+) l$/gm);
  for (const [, x1, y1, x2, y2] of lineOps) {
    const [ax, ay, bx, by] = [x1, y1, x2, y2].map(Number);
    lines.push({ x: Math.min(ax, bx), y: Math.min(ay, by), width: Math.abs(bx - ax), height: Math.abs(by - ay) });
  }
  return lines;
}
