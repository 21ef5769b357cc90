import { CODE128_QUIET_ZONE_MODULES, QR_QUIET_ZONE_MODULES, code128Pattern, qrMatrix } from "./barcodes";
import { unicodeFontData } from "./fonts";
import {
  LabelData,
  SANDBOX_MARK,
  assertPrintable,
  cityAndWilaya,
  distinctSecondName,
  formatDzd,
  formatLabelDate,
  formatWeight,
  hasCashOnDelivery,
  wilayaBox
} from "../../../lib/labels/label-data";
import { assertLabelCount } from "./pdf-document";
import { DEFAULT_ZPL_UNICODE_FONT, ZplTextOptions, escapeFieldData, zplTextField } from "./zpl-text";

export interface ZplOptions {
  /**
   * Printer path of a TrueType font with Arabic glyphs, used for any text font 0 cannot print.
   * Defaults to where `zplFontDownload()` stores the bundled font. Text is measured with the
   * bundled font, so another one (such as the Swiss 721 font many Link-OS printers hold as
   * E:TT0003M_.FNT) may end a line a little early or late.
   */
  unicodeFont?: string;
}

/** 4 × 6 in at 203 dpi. */
const WIDTH = 812;
const HEIGHT = 1218;
const MARGIN = 40;
const CONTENT = WIDTH - 2 * MARGIN;
/** 4 dots = 0.5 mm, GS1's minimum for logistic labels; 3 and 2 only for tracking numbers too long for it. */
const CODE128_MODULE_DOTS = [4, 3, 2];
/** 8 dots = 1 mm per QR module. */
const QR_MODULE_DOTS = 8;
const BAND = 56;

function code128Field(trackingNumber: string, y: number, height: number): string {
  const modules = code128Pattern(trackingNumber).modules;
  // The printer encodes the symbol itself (^BC mode A picks subsets the way bwip-js does), so
  // bwip-js's module count is what centres it.
  const module = CODE128_MODULE_DOTS.find(dots => (modules + 2 * CODE128_QUIET_ZONE_MODULES) * dots <= WIDTH) ?? 1;
  const x = Math.max(CODE128_QUIET_ZONE_MODULES * module, Math.round((WIDTH - modules * module) / 2));
  return `^BY${module},3,${height}^FO${x},${y}^BCN,${height},N,N,N,A^FH^FD${escapeFieldData(trackingNumber)}^FS`;
}

function qrField(trackingNumber: string, right: number, top: number): { command: string; left: number; bottom: number } {
  const side = qrMatrix(trackingNumber).size * QR_MODULE_DOTS;
  const quietZone = QR_QUIET_ZONE_MODULES * QR_MODULE_DOTS;
  const x = right - quietZone - side;
  const y = top + quietZone;
  // "Q" error correction (a quarter of the symbol may be damaged), "A" automatic data mode.
  return {
    command: `^FO${x},${y}^BQN,2,${QR_MODULE_DOTS}^FH^FDQA,${escapeFieldData(trackingNumber)}^FS`,
    left: x - quietZone,
    bottom: y + side + quietZone
  };
}

function labelZpl(label: LabelData, text: ZplTextOptions): string {
  const fields: string[] = [];
  const add = (field: string): void => {
    if (field !== "") fields.push(field);
  };

  if (label.sandbox) {
    fields.push(`^FO0,0^GB${WIDTH},${BAND},${BAND}^FS`);
    add(zplTextField(SANDBOX_MARK, 0, 12, WIDTH, { height: 34, align: "center", reverse: true }, text));
  }
  // As on the PDF (pdf-label.ts): the brand (BRAND_NAME) at the right of the header, the date then on the caption line.
  const date = formatLabelDate(label.createdAt);
  add(zplTextField(`From: ${label.senderName}`, MARGIN, 72, CONTENT - 230, { height: 26 }, text));
  if (label.brandName)
    add(zplTextField(label.brandName, WIDTH - MARGIN - 210, 70, 210, { height: 30, minHeight: 16, align: "right" }, text));
  else add(zplTextField(date, WIDTH - MARGIN - 210, 72, 210, { height: 26, align: "right" }, text));
  fields.push(`^FO${MARGIN},110^GB${CONTENT},3,3^FS`);

  add(zplTextField("DESTINATION RELAY POINT", MARGIN, 124, CONTENT - 220, { height: 20 }, text));
  if (label.brandName) add(zplTextField(date, WIDTH - MARGIN - 210, 122, 210, { height: 22, align: "right" }, text));
  // As on the PDF: the wilaya in a box at the right of the code, which shrinks to leave it room.
  const wilaya = wilayaBox(label);
  const box = { width: 120, gap: 16 };
  if (wilaya) {
    fields.push(`^FO${WIDTH - MARGIN - box.width},142^GB${box.width},76,76^FS`);
    add(zplTextField("WILAYA", WIDTH - MARGIN - box.width, 146, box.width, { height: 18, align: "center", reverse: true }, text));
    add(zplTextField(wilaya, WIDTH - MARGIN - box.width, 166, box.width, { height: 48, align: "center", reverse: true }, text));
  }
  add(zplTextField(label.relayCode, MARGIN, 150, wilaya ? CONTENT - box.width - box.gap : CONTENT, { height: 64, minHeight: 24 }, text));
  let y = 222;
  add(zplTextField(label.relayName, MARGIN, y, CONTENT, { height: 34, minHeight: 24, align: "start" }, text));
  const nameAr = distinctSecondName(label.relayName, label.relayNameAr);
  if (nameAr) {
    y += 44;
    add(zplTextField(nameAr, MARGIN, y, CONTENT, { height: 38, minHeight: 24, align: "start" }, text));
  }
  y += 48;
  if (label.relayAddress?.trim()) {
    add(zplTextField(label.relayAddress, MARGIN, y, CONTENT, { height: 24, maxLines: 2, lineSpacing: 4, align: "start" }, text));
  }
  const cityY = 372;
  const cityAr = distinctSecondName(label.relayCity, label.relayCityAr);
  const half = (CONTENT - 20) / 2;
  // The Latin line, unless only the Arabic city is known (then the wilaya goes on that one).
  const cityLine = cityAr && !label.relayCity?.trim() ? "" : cityAndWilaya(label.relayCity, wilaya, "fr");
  if (cityLine) add(zplTextField(cityLine, MARGIN, cityY, cityAr ? half : CONTENT, { height: 30, minHeight: 20, align: "left" }, text));
  if (cityAr)
    add(
      zplTextField(
        cityAndWilaya(cityAr, wilaya, "ar"),
        WIDTH - MARGIN - half,
        cityY,
        half,
        { height: 34, minHeight: 20, align: "right" },
        text
      )
    );
  fields.push(`^FO${MARGIN},418^GB${CONTENT},3,3^FS`);

  const qr = qrField(label.trackingNumber, WIDTH - 8, 424);
  const leftColumn = qr.left - MARGIN - 12;
  add(zplTextField("WEIGHT", MARGIN, 440, leftColumn, { height: 20 }, text));
  add(zplTextField(formatWeight(label.weightG), MARGIN, 468, leftColumn, { height: 38, minHeight: 22 }, text));
  add(
    zplTextField(
      "Hand-over at the relay against the pick-up SMS and an identity document.",
      MARGIN,
      526,
      leftColumn,
      { height: 22, maxLines: 4, lineSpacing: 4 },
      text
    )
  );
  fields.push(qr.command);

  const codTop = Math.max(qr.bottom + 8, 680);
  if (hasCashOnDelivery(label)) {
    fields.push(`^FO${MARGIN},${codTop}^GB${CONTENT},80,80^FS`);
    add(
      zplTextField(
        `COD: ${formatDzd(label.codAmountDzd)} — to collect`,
        MARGIN + 16,
        codTop + 20,
        CONTENT - 32,
        { height: 42, minHeight: 20, align: "center", reverse: true },
        text
      )
    );
  }
  const barsTop = codTop + 100;
  const barsHeight = 200;
  const trackingY = barsTop + barsHeight + 24;
  fields.push(code128Field(label.trackingNumber, barsTop, barsHeight));
  add(zplTextField(label.trackingNumber, 0, trackingY, WIDTH, { height: 56, minHeight: 24, align: "center" }, text));
  if (label.sandbox) {
    fields.push(`^FO0,${HEIGHT - BAND}^GB${WIDTH},${BAND},${BAND}^FS`);
    add(zplTextField(SANDBOX_MARK, 0, HEIGHT - BAND + 12, WIDTH, { height: 34, align: "center", reverse: true }, text));
  }

  // ^CI28: field data is UTF-8. ^PA1,1,1,1: print a visible box for a missing glyph, lay out
  // bidirectional text, shape Arabic, use the font's OpenType tables.
  return ["^XA", "^CI28", "^PA1,1,1,1", `^PW${WIDTH}`, `^LL${HEIGHT}`, "^LH0,0", ...fields, "^XZ"].join("\n");
}

/**
 * ZPL II for Zebra thermal printers, 4×6 in at 203 dpi, one ^XA…^XZ format per label. The
 * printer encodes the barcodes itself (^BC Code 128, ^BQ QR).
 */
export function renderZpl(labels: readonly LabelData[], options: ZplOptions = {}): string {
  assertLabelCount(labels);
  labels.forEach(assertPrintable);
  const text: ZplTextOptions = { unicodeFont: options.unicodeFont ?? DEFAULT_ZPL_UNICODE_FONT };
  return `${labels.map(label => labelZpl(label, text)).join("\n")}\n`;
}

/**
 * One-time printer set-up: stores the bundled Unicode font (Cairo, OFL 1.1) on the printer's E:
 * drive as RPLABEL.TTF (~DY, TrueType, ASCII hex), where `renderZpl` looks for it by default.
 */
export function zplFontDownload(): string {
  const data = unicodeFontData();
  return `~DYE:RPLABEL,A,T,${data.length},,${data.toString("hex").toUpperCase()}\n`;
}
