import type * as fontkit from "fontkit";
import PDFDocument from "pdfkit";
import { unicodeFont, unicodeFontData } from "./fonts";

/**
 * pdfkit opens every font anew in every document: it reads and parses the AFM metrics of each
 * standard font (about 0.8 ms each, three per label) and parses the TrueType font, whose first
 * Arabic layout then decodes the GSUB/GPOS tables (about 3 ms). Together that is most of a label's
 * time. pdfkit has no public way to hand a document an already parsed font, so this module builds
 * each document's font objects around fonts parsed once per process, using the font classes of
 * probe documents and pdfkit's table of open fonts.
 *
 * Sharing is safe: the parsed metrics are only read, a document is drawn and ended without
 * yielding, and each document keeps its own font ids, subsets and PDF objects. Should a pdfkit
 * release change these internals, every function here falls back to pdfkit's public path, which
 * is correct, only slower; a test tells when that happens.
 */

export type StandardFontName = "Helvetica" | "Helvetica-Bold" | "Courier-Bold";

type EmbeddedFontConstructor = new (document: PDFKit.PDFDocument, font: fontkit.Font, id: string) => object;

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null;
}

function isConstructor(value: unknown): value is EmbeddedFontConstructor {
  return typeof value === "function";
}

/** pdfkit's table of the fonts a document has opened, by name. */
function fontTableOf(doc: PDFKit.PDFDocument): Record<string, unknown> | null {
  return "_fontFamilies" in doc && isRecord(doc._fontFamilies) ? doc._fontFamilies : null;
}

/** The font a document has selected last. */
function currentFontOf(doc: PDFKit.PDFDocument): Record<string, unknown> | null {
  return "_font" in doc && isRecord(doc._font) ? doc._font : null;
}

/** The next font id in pdfkit's own scheme ("F" and a counter): it derives a subset's tag from the digits. */
function nextFontId(doc: PDFKit.PDFDocument): string | null {
  if (!("_fontCount" in doc) || typeof doc._fontCount !== "number") return null;
  doc._fontCount += 1;
  return `F${doc._fontCount}`;
}

/** Puts a font object made by `make` into the document's font table under `name`, once. */
function addSharedFont(doc: PDFKit.PDFDocument, name: string, make: (id: string) => object | null): void {
  const table = fontTableOf(doc);
  if (!table || name in table) return;
  const id = nextFontId(doc);
  const font = id ? make(id) : null;
  if (font) table[name] = font;
}

function hasFont(doc: PDFKit.PDFDocument, name: string): boolean {
  const table = fontTableOf(doc);
  return table !== null && name in table;
}

const standardTemplates = new Map<StandardFontName, Record<string, unknown> | null>();

/** A standard font object opened (and parsed) once, in a probe document, and never used there. */
function standardTemplate(name: StandardFontName): Record<string, unknown> | null {
  if (!standardTemplates.has(name)) {
    let template: Record<string, unknown> | null = null;
    try {
      const probe = new PDFDocument({ autoFirstPage: false, font: name });
      const font = currentFontOf(probe);
      if (font && "font" in font && "document" in font && fontTableOf(probe) !== null) template = font;
    } catch {
      template = null;
    }
    standardTemplates.set(name, template);
  }
  return standardTemplates.get(name) ?? null;
}

/** Selects a standard PDF font (nothing embedded), sharing its parsed metrics between documents. */
export function useStandardFont(doc: PDFKit.PDFDocument, name: StandardFontName): void {
  addSharedFont(doc, name, id => {
    const template = standardTemplate(name);
    return template ? Object.assign(Object.create(Object.getPrototypeOf(template)), template, { document: doc, id }) : null;
  });
  doc.font(name);
}

let embeddedFontClass: EmbeddedFontConstructor | null | undefined;

function sharedEmbeddedFontClass(): EmbeddedFontConstructor | null {
  if (embeddedFontClass === undefined) {
    embeddedFontClass = null;
    try {
      const probe = new PDFDocument({ autoFirstPage: false, font: "" });
      probe.font(unicodeFontData());
      const candidate = currentFontOf(probe)?.constructor;
      if (isConstructor(candidate) && fontTableOf(probe) !== null) embeddedFontClass = candidate;
    } catch {
      embeddedFontClass = null;
    }
  }
  return embeddedFontClass;
}

/** Whether documents reuse the fonts parsed once per process (true with the pdfkit versions we test). */
export function sharesParsedFonts(): boolean {
  return sharedEmbeddedFontClass() !== null && standardTemplate("Helvetica") !== null;
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

/** Selects the bundled Unicode font, embedded in the document as a subset. */
export function useUnicodeFont(doc: PDFKit.PDFDocument): void {
  const name = "LabelUnicode";
  addSharedFont(doc, name, id => {
    const EmbeddedFont = sharedEmbeddedFontClass();
    if (!EmbeddedFont) return null;
    const font = unicodeFont();
    forgetGlyphs(font);
    return new EmbeddedFont(doc, font, id);
  });
  // The public path: a name-to-buffer entry that pdfkit opens, and parses, once per document.
  if (!hasFont(doc, name)) doc.registerFont(name, unicodeFontData());
  doc.font(name);
}
