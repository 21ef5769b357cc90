import type { Bench } from "../context";
import { measureInterleaved, wrkContender } from "../measure";
import { runBenchScript } from "../scripts";
import type { Measured, Row } from "../report/results";
import { LoadStats, medianOf } from "../stats";
import { RunningSystem, watchOf } from "../systems/system";

export const TEXT_ONLY = "pdfkit text-only page";
const IN_PROCESS = "renderLabelPdf in process";

/** renderLabelPdf (dist/services/labels/render) against a one-page text-only pdfkit document, one loop, one process. */
export async function labelRenderRow(bench: Bench): Promise<{ row: Row; inProcess: Measured }> {
  bench.progress.next(`label render loop vs ${TEXT_ONLY} (${bench.options.reps} × ${bench.options.seconds} s each)`);
  const result = await runBenchScript<{ labels: LoadStats[]; textOnly: LoadStats[] }>("baselines/render-loop.js", {
    seconds: bench.options.seconds,
    reps: bench.options.reps
  });
  const inProcess: Measured = { name: IN_PROCESS, stats: medianOf(result.labels), reps: result.labels };
  const row = bench.addRow({
    id: "label.render",
    title: "label render (renderLabelPdf, in process)",
    unit: "renders/s",
    ours: { ...inProcess, name: "ours" },
    baselines: [{ name: TEXT_ONLY, stats: medianOf(result.textOnly), reps: result.textOnly }],
    target: { kind: "ratio", baseline: TEXT_ONLY, min: 0.3 },
    note: "a serial loop: p50/p99 are the time of one render."
  });
  return { row, inProcess };
}

/** The signed label URL over HTTP: gateway → labels.render → parcels.labelData + auth.getOrganization → PDF. */
export async function labelDownloadRow(bench: Bench, system: RunningSystem, labelUrl: string, inProcess: Measured): Promise<Row> {
  const title = `GET /labels/{id}.pdf (signed URL) — ${system.mode}`;
  const url = labelUrl.replace(/^https?:\/\/[^/]+/, system.baseUrl);
  const [ours] = await measureInterleaved(
    [wrkContender("ours", { method: "GET", url }, bench.shape, watchOf(system))],
    bench.options.reps,
    bench.progress,
    title
  );
  return bench.addRow({
    id: `label.download.${system.mode}`,
    title,
    unit: "req/s",
    ours,
    baselines: [inProcess],
    note: `no target in the issue; beside it, the serial in-process render rate, for scale.`
  });
}
