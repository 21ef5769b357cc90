import type { Bench } from "../context";
import type { PlainRequest } from "../load/request";
import { measureInterleaved } from "../measure";
import { runBenchScript } from "../scripts";
import type { Row } from "../report/results";
import { LoadStats, statsOfLatencies } from "../stats";
import { backoffice, CREATE_BODY, Merchant } from "../systems/merchant";
import { RunningSystem } from "../systems/system";

export const AXIOS = "plain axios";

/** services/webhooks.service.ts settings.concurrency: the POSTs one webhooks worker has in flight. */
const WEBHOOK_SENDER_CONCURRENCY = 8;
/** Each repetition moves every parcel on, so that each trigger is a real status change. */
const STATUS_CYCLE = ["READY_FOR_PICKUP", "PICKED_UP", "IN_TRANSIT", "DELIVERED"];
const DRAIN_TIMEOUT_MS = 180_000;

interface ReceiverStats {
  count: number;
  lastAt: number;
  sampleBody: string;
  sampleHeaders: Record<string, string>;
  arrivals: Record<string, number>;
}

async function receiverStats(url: string): Promise<ReceiverStats> {
  return (await fetch(`${url}/_bench/stats`)).json() as Promise<ReceiverStats>;
}

async function resetReceiver(url: string): Promise<void> {
  await fetch(`${url}/_bench/reset`, { method: "POST" });
}

async function received(url: string, count: number): Promise<ReceiverStats> {
  const deadline = Date.now() + DRAIN_TIMEOUT_MS;
  for (;;) {
    const stats = await receiverStats(url);
    if (stats.count >= count) return stats;
    if (Date.now() > deadline) throw new Error(`only ${stats.count} of ${count} webhooks reached the receiver`);
    await new Promise(r => setTimeout(r, 50));
  }
}

interface FixedCountAnswer extends LoadStats {
  startedAt: number;
  answeredAt: number[];
  statuses: Record<string, number>;
}

function fire(requests: PlainRequest[], concurrency: number): Promise<FixedCountAnswer> {
  return runBenchScript<FixedCountAnswer>("load/fixed-count.js", { requests, concurrency });
}

/**
 * Webhook delivery rate. N sandbox parcels exist (their parcel.created webhooks already drained);
 * each repetition fires one sandbox trigger-event per parcel (separate process, 16 at a time) and
 * counts from the first trigger until the receiver holds all N webhooks: trigger → outbox →
 * webhooks.enqueue → worker → signed POST. Per-event latency: trigger's 202 answer → arrival.
 * Baseline: N plain axios POSTs of a captured webhook body, at the worker's concurrency (8), to the
 * same receiver.
 */
export async function webhookRow(bench: Bench, system: RunningSystem, merchant: Merchant): Promise<Row> {
  const n = bench.options.webhookEvents;
  const title = `webhook delivery, ${n} events — ${system.mode}`;
  const receiver = await bench.webhookReceiver();
  await backoffice(system.baseUrl, system.backofficeToken, "PUT", `/organizations/${merchant.organizationId}/webhook`, {
    url: `${receiver.url}/hooks`,
    secret: "bench-webhook-secret-0123456789"
  });
  const partner = `${system.baseUrl}/api/partner/v1`;
  const auth = { Authorization: `ApiKey ${merchant.sandboxKey}` };

  bench.progress.next(`${title} · creating ${n} sandbox parcels`);
  await resetReceiver(receiver.url);
  const creates = await fire(
    Array.from({ length: n }, () => ({ method: "POST", url: `${partner}/parcels`, headers: auth, body: CREATE_BODY })),
    bench.options.connections
  );
  if (creates.errors > 0) throw new Error(`creating sandbox parcels: ${JSON.stringify(creates.statuses)}`);
  bench.progress.next(`${title} · waiting for their parcel.created webhooks`);
  const created = await received(receiver.url, n);
  const parcelIds = Object.keys(created.arrivals);
  const sample = { body: created.sampleBody, headers: created.sampleHeaders };

  let rep = 0;
  const ours = async (): Promise<LoadStats> => {
    await resetReceiver(receiver.url);
    const toStatus = STATUS_CYCLE[rep++ % STATUS_CYCLE.length];
    const triggers = await fire(
      parcelIds.map(id => ({
        method: "POST",
        url: `${partner}/sandbox/parcels/${id}/trigger-event`,
        headers: auth,
        body: JSON.stringify({ toStatus })
      })),
      bench.options.connections
    );
    const done = await received(receiver.url, parcelIds.length - triggers.errors);
    const seconds = (done.lastAt - triggers.startedAt) / 1000;
    const latencies = parcelIds.map((id, i) => done.arrivals[id] - triggers.answeredAt[i]).filter(ms => Number.isFinite(ms));
    return { ...statsOfLatencies(latencies, seconds, triggers.errors), rate: done.count / seconds };
  };
  const axios = async (): Promise<LoadStats> => {
    await resetReceiver(receiver.url);
    const headers = Object.fromEntries(
      Object.entries(sample.headers).filter(([name]) => name.startsWith("x-relay-") || name.startsWith("webhook-"))
    );
    const sent = await runBenchScript<{ startedAt: number; errors: number; latencies: number[] }>("baselines/axios-posts.js", {
      url: `${receiver.url}/hooks`,
      body: sample.body,
      headers,
      count: parcelIds.length,
      concurrency: WEBHOOK_SENDER_CONCURRENCY
    });
    const done = await received(receiver.url, parcelIds.length - sent.errors);
    const seconds = (done.lastAt - sent.startedAt) / 1000;
    return { ...statsOfLatencies(sent.latencies, seconds, sent.errors), rate: done.count / seconds };
  };
  const [measuredOurs, measuredAxios] = await measureInterleaved(
    [
      { name: "ours", run: ours },
      { name: AXIOS, run: axios }
    ],
    bench.options.reps,
    bench.progress,
    title
  );
  return bench.addRow({
    id: `webhooks.${system.mode}`,
    title,
    unit: "events/s",
    ours: measuredOurs,
    baselines: [measuredAxios],
    target: { kind: "ratio", baseline: AXIOS, min: 0.5 },
    note: `events/s from the first trigger-event to the last webhook at the receiver; p50/p99 = trigger answered → webhook arrived. ${AXIOS}: ${WEBHOOK_SENDER_CONCURRENCY} concurrent POSTs (the worker's concurrency), p50/p99 = POST round trip.`
  });
}
