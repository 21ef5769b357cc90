import { performance } from "node:perf_hooks";
import PDFDocument from "pdfkit";
import { LabelData, renderLabelPdf } from "../../services/labels/render";
import { answer, scriptInput } from "../scripts";
import { LoadStats, statsOfLatencies } from "../stats";

/**
 * Label rendering against pdfkit's own floor, both in one loop in this one process: the project's
 * `renderLabelPdf` (A6, Code 128 + QR from bwip-js, text) and a one-page document with text only.
 */
interface RenderLoopInput {
  seconds: number;
  reps: number;
}

const LABEL: LabelData = {
  trackingNumber: "RP123456785DZ",
  relayCode: "DZ-16-ALGER-CENTRE",
  relayName: "Librairie Didouche",
  relayCity: "Alger Centre",
  weightG: 1200,
  codAmountDzd: 1500,
  senderName: "Boutique Amel",
  createdAt: new Date("2026-01-15T10:00:00Z")
};

function renderTextOnly(): Promise<Buffer> {
  const doc = new PDFDocument({ size: "A6", margin: 14 });
  const chunks: Buffer[] = [];
  const finished = new Promise<Buffer>((resolve, reject) => {
    doc.on("data", (c: Buffer) => chunks.push(c));
    doc.on("end", () => resolve(Buffer.concat(chunks)));
    doc.on("error", reject);
  });
  doc.font("Helvetica-Bold").fontSize(16).text(LABEL.trackingNumber);
  doc.font("Helvetica").fontSize(11);
  doc.text(`${LABEL.relayCode} — ${LABEL.relayName}, ${LABEL.relayCity}`);
  doc.text(`Weight: 1.2 kg   COD: 1 500,00 DZD`);
  doc.text(`Sender: ${LABEL.senderName}   Date: 15/01/2026`);
  doc.end();
  return finished;
}

async function loop(render: () => Promise<Buffer>, seconds: number): Promise<LoadStats> {
  const latencies: number[] = [];
  const start = performance.now();
  const end = start + seconds * 1000;
  while (performance.now() < end) {
    const t = performance.now();
    await render();
    latencies.push(performance.now() - t);
  }
  return statsOfLatencies(latencies, (performance.now() - start) / 1000);
}

async function main(): Promise<void> {
  const input = scriptInput<RenderLoopInput>();
  const label = () => renderLabelPdf(LABEL);
  // Warm the JIT and pdfkit's font metrics before anything counts.
  await loop(label, 1);
  await loop(renderTextOnly, 1);
  const labels: LoadStats[] = [];
  const textOnly: LoadStats[] = [];
  for (let i = 0; i < input.reps; i++) {
    labels.push(await loop(label, input.seconds));
    textOnly.push(await loop(renderTextOnly, input.seconds));
  }
  answer({ labels, textOnly });
}

void main();
