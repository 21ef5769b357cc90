import type { Bench } from "../context";
import { readRssMb, sampleRss } from "../rss";
import { prepareBenchScript } from "../scripts";
import type { Measured } from "../report/results";
import { LoadStats, medianOf } from "../stats";
import { startEmbedded } from "../systems/embedded";
import { CREATE_BODY, createMerchant, createParcel, partner } from "../systems/merchant";
import { pidsOf } from "../systems/system";
import { captureBodies } from "./bodies";
import { labelDownloadRow, labelRenderRow } from "./label-rows";
import { listRow } from "./list-row";
import { constantRateRow, createRow, getRow, healthRow, partnerRequest, WIDE_CONNECTIONS } from "./partner-rows";
import { webhookRow } from "./webhook-row";

export const PGLITE_LOOP = "PGlite insert+commit loop";
/** Enough for every parcel a full run creates, live and sandbox. */
const FUNDS_DZD = 20_000_000;

/** Started while the embedded system boots (PGlite's initdb takes seconds), run when its row comes. */
function preparePgliteLoop(bench: Bench): { run: () => Promise<Measured>; cancel: () => void } {
  const prepared = prepareBenchScript<{ reps: LoadStats[] }>("baselines/pglite-insert-loop.js", {
    seconds: bench.options.seconds,
    reps: bench.options.reps
  });
  return {
    async run() {
      bench.progress.next(`${PGLITE_LOOP} (${bench.options.reps} × ${bench.options.seconds} s, separate process)`);
      const { reps } = await prepared.start();
      return { name: PGLITE_LOOP, stats: medianOf(reps), reps };
    },
    cancel: () => prepared.cancel()
  };
}

/** Every row of the embedded system (`npm start`): one process, PGlite in DATA_DIR. */
export async function embeddedPhase(bench: Bench): Promise<void> {
  bench.progress.next("starting the embedded system");
  const pgliteLoop = preparePgliteLoop(bench);
  const system = await startEmbedded({ logLevel: bench.options.logLevel, logDir: bench.logDir }).catch((err: unknown) => {
    pgliteLoop.cancel();
    throw err;
  });
  bench.onClose(() => system.stop());
  const phaseRss = sampleRss(pidsOf(system));
  try {
    const merchant = await createMerchant(system.baseUrl, system.backofficeToken, "Bench Embarqué SARL", FUNDS_DZD);
    const parcel = await createParcel(system.baseUrl, merchant.liveKey);
    const servers = await bench.baselines(await captureBodies(system, merchant, parcel.id));
    const rssAtStart = readRssMb(system.services[0].pid);

    const health = await healthRow(bench, system, merchant, servers, 0.5);
    const get = await getRow(bench, system, merchant, parcel.id, servers, 0.35);
    const pglite = await pgliteLoop.run();
    const create = await createRow(bench, system, merchant, {
      id: "create.embedded",
      title: "POST /parcels — embedded",
      minRatioOfPgbench: 0.1,
      extra: [pglite],
      note: `the target (≥ 10 %) is read against pgbench, as the issue words it; the ${PGLITE_LOOP} (serial, PGlite's single connection) is printed for scale.`
    });
    await createRow(bench, system, merchant, {
      id: `create.embedded.c${WIDE_CONNECTIONS}`,
      title: `POST /parcels, ${WIDE_CONNECTIONS} connections — embedded`,
      minRatioOfPgbench: null,
      connections: WIDE_CONNECTIONS
    });
    const stored = (await partner<{ totalElements: number }>(system.baseUrl, merchant.liveKey, "GET", "/parcels?size=1")).body
      .totalElements;
    await listRow(bench, system, merchant, { id: "list.embedded", stored, minRatioOfSql: null });

    const { inProcess } = await labelRenderRow(bench);
    if (parcel.labelUrl) await labelDownloadRow(bench, system, parcel.labelUrl, inProcess);

    await webhookRow(bench, system, merchant);

    await constantRateRow(bench, system, health, partnerRequest(system, merchant.liveKey, "GET", "/health"), 20);
    await constantRateRow(bench, system, get, partnerRequest(system, merchant.liveKey, "GET", `/parcels/${parcel.id}`), 20);
    await constantRateRow(bench, system, create, partnerRequest(system, merchant.liveKey, "POST", "/parcels", CREATE_BODY), 100);

    const peak = phaseRss.stop();
    const after = readRssMb(system.services[0].pid);
    const rssStats = (rssMb: number): LoadStats => ({ rate: rssMb, p50Ms: 0, p99Ms: 0, count: 0, errors: 0, seconds: 0, rssMb });
    bench.addRow({
      id: "rss.embedded",
      title: "RSS of the embedded process, peak under load",
      unit: "MB",
      ours: { name: "ours", stats: rssStats(peak), reps: [] },
      baselines: [],
      target: { kind: "rss", maxMb: 300 },
      note: `${Math.round(rssAtStart)} MB once started, ${Math.round(peak)} MB at the peak of the loads above, ${Math.round(after)} MB after them.`
    });
  } finally {
    pgliteLoop.cancel();
    phaseRss.stop();
    bench.progress.next("stopping the embedded system");
    await system.stop();
  }
}
