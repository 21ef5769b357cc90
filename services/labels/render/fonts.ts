import fs from "node:fs";
import * as fontkit from "fontkit";

/**
 * Cairo Regular (SIL Open Font License 1.1) covers Arabic and Latin in one file, so a mixed name
 * such as "مكتبة ديدوش — Alger Centre" needs no font switching inside a line. It also keeps one
 * glyph per letter form instead of composing letters from dot marks, which is what lets PDF readers
 * extract and search the Arabic text as the letters it was written with. One weight only: each
 * embedded font costs a label about 0.8 ms, so bold Arabic is drawn with an outline instead.
 */
const UNICODE_FONT_FILE = "@expo-google-fonts/cairo/400Regular/Cairo_400Regular.ttf";

interface LoadedFont {
  data: Buffer;
  font: fontkit.Font;
}

let loaded: LoadedFont | undefined;

/** Read and parsed once per process: parsing the OpenType tables costs more than a whole Latin label. */
function loadFont(): LoadedFont {
  if (loaded) return loaded;
  const file = require.resolve(UNICODE_FONT_FILE);
  const data = fs.readFileSync(file);
  const font = fontkit.create(data);
  if (!("layout" in font)) throw new Error(`${file} is a font collection, not a font`);
  loaded = { data, font };
  return loaded;
}

/** The parsed font, shared by every document and every ZPL measurement of the process. */
export function unicodeFont(): fontkit.Font {
  return loadFont().font;
}

export function unicodeFontData(): Buffer {
  return loadFont().data;
}

export function unicodeFontHasGlyph(codePoint: number): boolean {
  return loadFont().font.hasGlyphForCodePoint(codePoint);
}

/**
 * The OpenType features for Arabic and Latin runs: the script's defaults less kerning. Cairo kerns
 * with glyph offsets, which pdfkit writes as text moves, and PDF readers then cut a word in two
 * when extracting it. A fresh object per call: fontkit writes the features it applied into it.
 */
export function shapingFeatures(): Record<string, boolean> {
  return { kern: false };
}

/** Advance width of one directional run in ems, as fontkit shapes it (what a printer using this font prints). */
export function unicodeRunWidthEm(run: string): number {
  const { font } = loadFont();
  return font.layout(run, shapingFeatures()).advanceWidth / font.unitsPerEm;
}
