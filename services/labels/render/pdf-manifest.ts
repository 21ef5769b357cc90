import PDFDocument from "pdfkit";
import { SANDBOX_MARK, formatDzd } from "../../../lib/labels/label-data";
import type { ManifestDocument } from "../../logistics/logistics.contract";
import { code128Pattern, qrMatrix } from "./barcodes";
import { drawCode128, drawQr, placeCode128, placeQr } from "./pdf-barcodes";
import { drawTextLine } from "./pdf-text";

type Doc = PDFKit.PDFDocument;

/** A4 in points. */
const PAGE = { width: 595.28, height: 841.89 } as const;
const MARGIN = 36;
/** A laser printer's resolution: barcode modules snap to whole dots of it. */
const DOTS_PER_INCH = 300;
const INK = "black";
const GREY = "#555555";
const SANDBOX_RED = "#c62828";
const ROW_HEIGHT = 19;
const HEADER_ROW_HEIGHT = 30;

/** What the document says, in French and in Arabic: each heading prints both, the Arabic under or beside the French. */
const TEXT = {
  title: { fr: "Bordereau de remise au coursier", ar: "قائمة تسليم الطرود للناقل" },
  manifest: { fr: "Bordereau", ar: "رقم القائمة" },
  sender: { fr: "Expéditeur", ar: "المرسل" },
  pickupDate: { fr: "Date d'enlèvement", ar: "تاريخ الاستلام" },
  address: { fr: "Adresse d'enlèvement", ar: "عنوان الاستلام" },
  scanOnce: {
    fr: "Un scan de ce code annonce tous les colis de la liste ; chaque colis est confirmé par son scan ou par le comptage.",
    ar: "مسح هذا الرمز مرة واحدة يعلن عن كل الطرود المدرجة؛ ويؤكَّد كل طرد بمسحه أو بالعدّ."
  },
  line: { fr: "N°", ar: "رقم" },
  tracking: { fr: "N° de suivi", ar: "رقم التتبع" },
  recipient: { fr: "Destinataire", ar: "المستلم" },
  relay: { fr: "Point relais", ar: "نقطة الاستلام" },
  cod: { fr: "Contre-remb.", ar: "الدفع عند الاستلام" },
  declared: { fr: "Valeur déclarée", ar: "القيمة المصرح بها" },
  total: { fr: "Total", ar: "المجموع" },
  parcels: { fr: "colis", ar: "عدد الطرود" },
  givenBy: { fr: "Remis par l'expéditeur (nom, signature)", ar: "سلّمه المرسل (الاسم، التوقيع)" },
  takenBy: { fr: "Pris en charge par le coursier (nom, signature)", ar: "استلمه الناقل (الاسم، التوقيع)" },
  page: { fr: "Page", ar: "صفحة" }
} as const;

interface Column {
  key: "line" | "tracking" | "recipient" | "relay" | "cod" | "declared";
  width: number;
  align: "left" | "right";
}

const COLUMNS: Column[] = [
  { key: "line", width: 28, align: "left" },
  { key: "tracking", width: 108, align: "left" },
  { key: "recipient", width: 104, align: "left" },
  { key: "relay", width: 118, align: "left" },
  { key: "cod", width: 83, align: "right" },
  { key: "declared", width: 82.28, align: "right" }
];
const CELL_PADDING = 4;

function rule(doc: Doc, y: number, width = 0.6, color: string = INK): void {
  doc
    .moveTo(MARGIN, y)
    .lineTo(PAGE.width - MARGIN, y)
    .lineWidth(width)
    .stroke(color);
}

const contentWidth = PAGE.width - 2 * MARGIN;

/** The first page's head: title, number, sender, day, address; the QR at the top right, the Code 128 under it all. */
function drawHead(doc: Doc, manifest: ManifestDocument, senderName: string): number {
  let y = MARGIN;
  if (manifest.sandbox) {
    doc.rect(0, 0, PAGE.width, 22).fill(SANDBOX_RED);
    drawTextLine(
      doc,
      SANDBOX_MARK,
      { x: MARGIN, baseline: 15, width: contentWidth },
      { size: 10, weight: "bold", align: "center", color: "white" }
    );
    y += 8;
  }
  const qr = qrMatrix(manifest.number);
  const qrPlace = placeQr(qr, PAGE.width - MARGIN, y - 4, 112, DOTS_PER_INCH);
  drawQr(doc, qr, qrPlace);
  const textWidth = qrPlace.x - qrPlace.quietZone - MARGIN - 8;

  drawTextLine(doc, TEXT.title.fr, { x: MARGIN, baseline: y + 16, width: textWidth }, { size: 17, weight: "bold", minSize: 12 });
  drawTextLine(
    doc,
    TEXT.title.ar,
    { x: MARGIN, baseline: y + 38, width: textWidth },
    { size: 16, weight: "bold", minSize: 11, align: "right" }
  );
  const field = (label: { fr: string; ar: string }, value: string, baseline: number, monospace = false) => {
    drawTextLine(doc, `${label.fr} · ${label.ar}`, { x: MARGIN, baseline, width: 170 }, { size: 8, color: GREY, minSize: 6 });
    drawTextLine(doc, value, { x: MARGIN + 175, baseline, width: textWidth - 175 }, { size: 10, weight: "bold", minSize: 7, monospace });
  };
  field(TEXT.manifest, manifest.number, y + 60, true);
  field(TEXT.sender, senderName, y + 75);
  field(TEXT.pickupDate, manifest.pickupDate, y + 90);
  field(TEXT.address, `${manifest.address.line1}, ${manifest.address.city} (${manifest.address.wilaya})`, y + 105);

  y = Math.max(y + 114, qrPlace.y + qrPlace.height + qrPlace.quietZone);
  const bars = code128Pattern(manifest.number);
  const barsPlace = placeCode128(bars, { x: MARGIN, y, width: contentWidth, height: 44 }, DOTS_PER_INCH);
  drawCode128(doc, bars, barsPlace);
  drawTextLine(doc, manifest.number, { x: MARGIN, baseline: y + 58, width: contentWidth }, { size: 11, monospace: true, align: "center" });
  drawTextLine(
    doc,
    TEXT.scanOnce.fr,
    { x: MARGIN, baseline: y + 72, width: contentWidth },
    { size: 7.5, color: GREY, align: "center", minSize: 6 }
  );
  drawTextLine(
    doc,
    TEXT.scanOnce.ar,
    { x: MARGIN, baseline: y + 85, width: contentWidth },
    { size: 8.5, color: GREY, align: "center", minSize: 6 }
  );
  return y + 96;
}

/** The table's head: each column's French name over its Arabic one. */
function drawTableHead(doc: Doc, top: number): number {
  doc.rect(MARGIN, top, contentWidth, HEADER_ROW_HEIGHT).fill("#e8e8e8");
  let x = MARGIN;
  for (const column of COLUMNS) {
    const box = { x: x + CELL_PADDING, width: column.width - 2 * CELL_PADDING };
    drawTextLine(doc, TEXT[column.key].fr, { ...box, baseline: top + 12 }, { size: 8, weight: "bold", align: column.align, minSize: 6 });
    drawTextLine(doc, TEXT[column.key].ar, { ...box, baseline: top + 25 }, { size: 8.5, align: column.align, minSize: 6 });
    x += column.width;
  }
  return top + HEADER_ROW_HEIGHT;
}

const amount = (value: number | null) => (value === null || value === 0 ? "—" : formatDzd(value));

function drawRow(doc: Doc, line: ManifestDocument["lines"][number], top: number): void {
  const cells: Record<Column["key"], string> = {
    line: String(line.line),
    tracking: line.trackingNumber,
    recipient: line.recipientHint,
    relay: line.relayCode,
    cod: amount(line.codAmountDzd),
    declared: amount(line.declaredValueDzd)
  };
  let x = MARGIN;
  for (const column of COLUMNS) {
    drawTextLine(
      doc,
      cells[column.key],
      { x: x + CELL_PADDING, baseline: top + 13, width: column.width - 2 * CELL_PADDING },
      {
        size: 9,
        align: column.align,
        minSize: 6.5,
        monospace: column.key === "tracking",
        weight: column.key === "tracking" ? "bold" : "regular"
      }
    );
    x += column.width;
  }
  rule(doc, top + ROW_HEIGHT, 0.3, "#999999");
}

function drawTotals(doc: Doc, manifest: ManifestDocument, top: number): number {
  rule(doc, top + 1, 1.2);
  const baseline = top + 16;
  const { parcels, codAmountDzd, declaredValueDzd } = manifest.totals;
  const left = COLUMNS[0].width + COLUMNS[1].width + COLUMNS[2].width + COLUMNS[3].width;
  drawTextLine(
    doc,
    `${TEXT.total.fr} : ${parcels} ${TEXT.parcels.fr}`,
    { x: MARGIN + CELL_PADDING, baseline, width: left / 2 },
    { size: 10, weight: "bold" }
  );
  drawTextLine(
    doc,
    `${TEXT.total.ar} — ${TEXT.parcels.ar}: ${parcels}`,
    { x: MARGIN + left / 2, baseline, width: left / 2 - CELL_PADDING },
    { size: 11, weight: "bold", align: "right" }
  );
  let x = MARGIN + left;
  for (const [value, column] of [
    [codAmountDzd, COLUMNS[4]],
    [declaredValueDzd, COLUMNS[5]]
  ] as const) {
    drawTextLine(
      doc,
      formatDzd(value),
      { x: x + CELL_PADDING, baseline, width: column.width - 2 * CELL_PADDING },
      { size: 9.5, weight: "bold", align: "right", minSize: 6.5 }
    );
    x += column.width;
  }
  return top + 26;
}

const SIGNATURES_HEIGHT = 78;

function drawSignatures(doc: Doc, top: number): void {
  const half = (contentWidth - 16) / 2;
  for (const [index, text] of [TEXT.givenBy, TEXT.takenBy].entries()) {
    const x = MARGIN + index * (half + 16);
    doc
      .rect(x, top, half, SIGNATURES_HEIGHT - 8)
      .lineWidth(0.6)
      .stroke(INK);
    drawTextLine(doc, text.fr, { x: x + 6, baseline: top + 12, width: half - 12 }, { size: 8, minSize: 6 });
    drawTextLine(doc, text.ar, { x: x + 6, baseline: top + 25, width: half - 12 }, { size: 9, minSize: 6, align: "right" });
  }
}

function drawFooter(doc: Doc, manifest: ManifestDocument, page: number, pages: number): void {
  const baseline = PAGE.height - MARGIN + 14;
  rule(doc, baseline - 11, 0.3, "#999999");
  drawTextLine(
    doc,
    `${manifest.number} — ${TEXT.page.fr} ${page}/${pages}`,
    { x: MARGIN, baseline, width: contentWidth / 2 },
    { size: 8, color: GREY }
  );
  drawTextLine(
    doc,
    `${TEXT.page.ar} ${page}/${pages}`,
    { x: MARGIN + contentWidth / 2, baseline, width: contentWidth / 2 },
    {
      size: 8.5,
      color: GREY,
      align: "right"
    }
  );
}

/** How the lines fall on pages: the first page under the head, then full pages; totals and signatures after the last line. */
function pagination(lineCount: number, firstTableTop: number): number[] {
  const bottom = PAGE.height - MARGIN - 14;
  const perPage = (top: number) => Math.floor((bottom - top - HEADER_ROW_HEIGHT) / ROW_HEIGHT);
  const counts: number[] = [];
  let left = lineCount;
  let top = firstTableTop;
  do {
    const fit = perPage(top);
    counts.push(Math.min(fit, left));
    left -= Math.min(fit, left);
    top = MARGIN;
  } while (left > 0);
  // The totals and the signature boxes need room under the last line, or a page of their own.
  const lastTop = counts.length === 1 ? firstTableTop : MARGIN;
  const used = lastTop + HEADER_ROW_HEIGHT + counts[counts.length - 1] * ROW_HEIGHT;
  if (used + 26 + 14 + SIGNATURES_HEIGHT > bottom) counts.push(0);
  return counts;
}

/**
 * A manifest as an A4 PDF (issue 44 B): French and Arabic, one Code 128 and one QR of the
 * manifest's number for the whole list, a line per parcel, the totals, the two signatures. Fonts,
 * Arabic shaping and bidi are the labels' (pdf-text.ts): the recipient's first name may be
 * written in either script.
 */
export async function renderManifestPdf(manifest: ManifestDocument, senderName: string): Promise<Buffer> {
  const doc = new PDFDocument({
    size: [PAGE.width, PAGE.height],
    margin: 0,
    autoFirstPage: false,
    font: "",
    info: { Title: `Manifest ${manifest.number}`, Creator: "relay-parcels" }
  });
  const chunks: Buffer[] = [];
  const finished = new Promise<Buffer>((resolve, reject) => {
    doc.on("data", (chunk: Buffer) => chunks.push(chunk));
    doc.on("end", () => resolve(Buffer.concat(chunks)));
    doc.on("error", reject);
  });
  doc.addPage({ size: [PAGE.width, PAGE.height], margin: 0 });
  const firstTop = drawHead(doc, manifest, senderName) + 6;
  const pages = pagination(manifest.lines.length, firstTop);
  let next = 0;
  let top = firstTop;
  pages.forEach((count, index) => {
    if (index > 0) {
      doc.addPage({ size: [PAGE.width, PAGE.height], margin: 0 });
      top = MARGIN;
    }
    if (count > 0 || index === 0) top = drawTableHead(doc, top);
    for (const line of manifest.lines.slice(next, next + count)) {
      drawRow(doc, line, top);
      top += ROW_HEIGHT;
    }
    next += count;
    if (index === pages.length - 1) {
      top = drawTotals(doc, manifest, top);
      drawSignatures(doc, top + 14);
    }
    drawFooter(doc, manifest, index + 1, pages.length);
  });
  doc.end();
  return finished;
}
