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

/** The part of pdfkit's document state that holds its fonts (not in its typings). */
interface PdfKitFontState {
  _font?: unknown;
  _fontFamilies?: Record<string, unknown>;
  _fontCount?: number;
}

type EmbeddedFontConstructor = new (document: PDFKit.PDFDocument, font: fontkit.Font, id: string) => object;

function isConstructor(value: unknown): value is EmbeddedFontConstructor {
  return typeof value === "function";
}

function fontStateOf(doc: PDFKit.PDFDocument): PdfKitFontState {
  return doc as unknown as PdfKitFontState;
}

let embeddedFontClass: EmbeddedFontConstructor | null | undefined;

/**
 * pdfkit parses a font anew for every document (`doc.font(buffer)` calls `fontkit.create`), and
 * the first Arabic layout then decodes the GSUB/GPOS tables: about 3 ms per label. pdfkit has no
 * public way to hand it a parsed font, so we take its embedded-font class from a probe document
 * and build each document's font around the one parsed fontkit object. Sharing is safe because a
 * document is drawn synchronously and each embedded font keeps its own subset. Should a pdfkit
 * release change these internals, `useUnicodeFont` falls back to the public (slower) path.
 */
function sharedEmbeddedFontClass(): EmbeddedFontConstructor | null {
  if (embeddedFontClass !== undefined) return embeddedFontClass;
  embeddedFontClass = null;
  try {
    const probe = new PDFDocument({ autoFirstPage: false });
    probe.font(loadFont("regular").data);
    const current = fontStateOf(probe)._font;
    const candidate = typeof current === "object" && current !== null ? current.constructor : undefined;
    if (isConstructor(candidate) && fontStateOf(probe)._fontFamilies) embeddedFontClass = candidate;
  } catch {
    embeddedFontClass = null;
  }
  return embeddedFontClass;
}

/** Whether documents reuse the process-wide parsed font (true with the pdfkit versions we test). */
export function sharesParsedFonts(): boolean {
  return sharedEmbeddedFontClass() !== null;
}

/** Selects the Unicode font of that weight in `doc`, embedding it (as a subset) on first use. */
export function useUnicodeFont(doc: PDFKit.PDFDocument, weight: FontWeight): void {
  const name = `LabelUnicode-${weight}`;
  const state = fontStateOf(doc);
  const families = state._fontFamilies;
  const EmbeddedFont = sharedEmbeddedFontClass();
  if (families && EmbeddedFont && typeof state._fontCount === "number") {
    // pdfkit's own id scheme ("F" and a counter): it derives the subset tag from the id's digits.
    if (!(name in families)) families[name] = new EmbeddedFont(doc, loadFont(weight).font, `F${++state._fontCount}`);
  } else {
    // Registering is a name-to-buffer entry; pdfkit parses the buffer once per document.
    doc.registerFont(name, loadFont(weight).data);
  }
  doc.font(name);
}

/** Advance width of one directional run in ems, as fontkit shapes it (what a printer using this font prints). */
export function unicodeRunWidthEm(run: string, weight: FontWeight): number {
  const { font } = loadFont(weight);
  return font.layout(run).advanceWidth / font.unitsPerEm;
}
