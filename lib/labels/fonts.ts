import fs from "node:fs";
import * as fontkit from "fontkit";
import PDFDocument from "pdfkit";

/**
 * Cairo (SIL Open Font License 1.1) covers Arabic and Latin in one file, so a mixed name such as
 * "مكتبة ديدوش — Alger Centre" needs no font switching inside a line. It also keeps one glyph per
 * letter form instead of composing letters from dot marks, which is what lets PDF readers extract
 * and search the Arabic text as the letters it was written with.
 */
const UNICODE_FONT_FILES = {
  regular: "@expo-google-fonts/cairo/400Regular/Cairo_400Regular.ttf",
  bold: "@expo-google-fonts/cairo/700Bold/Cairo_700Bold.ttf"
} as const;

export type FontWeight = keyof typeof UNICODE_FONT_FILES;

interface LoadedFont {
  file: string;
  data: Buffer;
  font: fontkit.Font;
}

const loaded = new Map<FontWeight, LoadedFont>();

/** Read and parsed once per process: parsing the OpenType tables costs more than a whole Latin label. */
function loadFont(weight: FontWeight): LoadedFont {
  const cached = loaded.get(weight);
  if (cached) return cached;
  const file = require.resolve(UNICODE_FONT_FILES[weight]);
  const data = fs.readFileSync(file);
  const font = fontkit.create(data);
  if (!("layout" in font)) throw new Error(`${file} is a font collection, not a font`);
  const entry = { file, data, font };
  loaded.set(weight, entry);
  return entry;
}

export function unicodeFontFile(weight: FontWeight): string {
  return loadFont(weight).file;
}

export function unicodeFontData(weight: FontWeight): Buffer {
  return loadFont(weight).data;
}

export function unicodeFontHasGlyph(codePoint: number, weight: FontWeight): boolean {
  return loadFont(weight).font.hasGlyphForCodePoint(codePoint);
}

type EmbeddedFontConstructor = new (document: PDFKit.PDFDocument, font: fontkit.Font, id: string) => object;

function isConstructor(value: unknown): value is EmbeddedFontConstructor {
  return typeof value === "function";
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null;
}

/** pdfkit's table of the fonts a document has opened, by name (not in its typings). */
function fontTableOf(doc: PDFKit.PDFDocument): Record<string, unknown> | null {
  return "_fontFamilies" in doc && isRecord(doc._fontFamilies) ? doc._fontFamilies : null;
}

/** The next font id in pdfkit's own scheme ("F" and a counter): it derives the subset tag from the digits. */
function nextFontId(doc: PDFKit.PDFDocument): string | null {
  if (!("_fontCount" in doc) || typeof doc._fontCount !== "number") return null;
  doc._fontCount += 1;
  return `F${doc._fontCount}`;
}

let embeddedFontClass: EmbeddedFontConstructor | null | undefined;

/**
 * pdfkit parses a font anew for every document (`doc.font(buffer)` calls `fontkit.create`), and
 * the first Arabic layout then decodes the GSUB/GPOS tables: about 3 ms per label. pdfkit has no
 * public way to hand it a parsed font, so we take its embedded-font class from a probe document
 * and build each document's font around the one parsed fontkit object. Sharing is safe because a
 * document is drawn and ended without yielding, and each embedded font keeps its own subset. Should
 * a pdfkit release change these internals, `useUnicodeFont` falls back to the public (slower) path.
 */
function sharedEmbeddedFontClass(): EmbeddedFontConstructor | null {
  if (embeddedFontClass !== undefined) return embeddedFontClass;
  embeddedFontClass = null;
  try {
    const probe = new PDFDocument({ autoFirstPage: false });
    probe.font(loadFont("regular").data);
    const current = "_font" in probe ? probe._font : undefined;
    const candidate = typeof current === "object" && current !== null ? current.constructor : undefined;
    if (isConstructor(candidate) && fontTableOf(probe) !== null) embeddedFontClass = candidate;
  } catch {
    embeddedFontClass = null;
  }
  return embeddedFontClass;
}

/** Whether documents reuse the process-wide parsed font (true with the pdfkit versions we test). */
export function sharesParsedFonts(): boolean {
  return sharedEmbeddedFontClass() !== null;
}

/**
 * fontkit caches each glyph object with the characters it was first made for, and pdfkit writes
 * those as the text behind the glyph. Subsetting a document makes some glyphs (parts of composite
 * letters) with no characters at all, so each document starts with an empty glyph cache: every
 * glyph it draws then carries its letters. The parsed tables, the costly part, stay.
 */
function forgetGlyphs(font: fontkit.Font): void {
  if ("_glyphs" in font) font._glyphs = {};
}

/** Selects the Unicode font of that weight in `doc`, embedding it (as a subset) on first use. */
export function useUnicodeFont(doc: PDFKit.PDFDocument, weight: FontWeight): void {
  const name = `LabelUnicode-${weight}`;
  const table = fontTableOf(doc);
  const EmbeddedFont = sharedEmbeddedFontClass();
  if (table && EmbeddedFont && !(name in table)) {
    const id = nextFontId(doc);
    if (id) {
      const { font } = loadFont(weight);
      forgetGlyphs(font);
      table[name] = new EmbeddedFont(doc, font, id);
    }
  }
  // The public path, when the shared one is unavailable: a name-to-buffer entry that pdfkit opens
  // (and parses) once per document.
  if (!table || !(name in table)) doc.registerFont(name, loadFont(weight).data);
  doc.font(name);
}

/** Advance width of one directional run in ems, as fontkit shapes it (what a printer using this font prints). */
export function unicodeRunWidthEm(run: string, weight: FontWeight): number {
  const { font } = loadFont(weight);
  return font.layout(run, shapingFeatures()).advanceWidth / font.unitsPerEm;
}

/**
 * The OpenType features for Arabic and Latin runs: the script's defaults less kerning. Cairo kerns
 * with glyph offsets, which pdfkit writes as text moves, and PDF readers then cut a word in two
 * when extracting it. A fresh object per call: fontkit writes the features it applied into it.
 */
export function shapingFeatures(): Record<string, boolean> {
  return { kern: false };
}
