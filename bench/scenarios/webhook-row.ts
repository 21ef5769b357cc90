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
 * Webhook delivery rate, as delivery: N sandbox parcels are created and their parcel.created
 * webhooks drained first, so that every event is committed before the clock starts (what it costs
 * to produce an event is the create row's business). Each repetition replays those events to the
 * endpoint (one back-office call) and counts from the replay until the receiver holds them all:
 * the webhooks worker's claim, signing, POST and mark. Per-event latency: replay → arrival.
 * Baseline: N plain axios POSTs of a captured webhook body, at the worker's concurrency (8), to the
 * same receiver.
 */
export async function webhookRow(bench: Bench, system: RunningSystem, merchant: Merchant): Promise<Row> {
  const n = bench.options.webhookEvents;
  const title = `webhook delivery, ${n} events — ${system.mode}`;
  const receiver = await bench.webhookReceiver();
  const endpoint = await backoffice<{ id: string }>(
    system.baseUrl,
    system.backofficeToken,
    "PUT",
    `/organizations/${merchant.organizationId}/webhook`,
    { url: `${receiver.url}/hooks`, secret: "bench-webhook-secret-0123456789" }
  );
  const partner = `${system.baseUrl}/api/partner/v1`;
  const auth = { Authorization: `ApiKey ${merchant.sandboxKey}` };

  bench.progress.next(`${title} · creating ${n} sandbox parcels`);
  await resetReceiver(receiver.url);
  // The event store's clock and ours are the same machine's; a second of margin for rounding.
  const since = new Date(Date.now() - 1000).toISOString();
  const creates = await fire(
    Array.from({ length: n }, () => ({ method: "POST", url: `${partner}/parcels`, headers: auth, body: CREATE_BODY })),
    bench.options.connections
  );
  if (creates.errors > 0) throw new Error(`creating sandbox parcels: ${JSON.stringify(creates.statuses)}`);
  bench.progress.next(`${title} · waiting for their parcel.created webhooks`);
  const created = await received(receiver.url, n);
  const sample = { body: created.sampleBody, headers: created.sampleHeaders };

  const ours = async (): Promise<LoadStats> => {
    await resetReceiver(receiver.url);
    const startedAt = Date.now();
    const { queued } = await backoffice<{ queued: number }>(
      system.baseUrl,
      system.backofficeToken,
      "POST",
      `/organizations/${merchant.organizationId}/webhook-endpoints/${endpoint.id}/replay`,
      { since, only: "all" }
    );
    const done = await received(receiver.url, queued);
    const seconds = (done.lastAt - startedAt) / 1000;
    const latencies = Object.values(done.arrivals).map(at => at - startedAt);
    return { ...statsOfLatencies(latencies, seconds, 0), rate: done.count / seconds };
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
      count: n,
      concurrency: WEBHOOK_SENDER_CONCURRENCY
    });
    const done = await received(receiver.url, n - sent.errors);
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
    note: `delivery only: the events are committed before the clock starts; events/s from the replay call to the last webhook at the receiver; p50/p99 = replay → webhook arrived. ${AXIOS}: ${WEBHOOK_SENDER_CONCURRENCY} concurrent POSTs (the worker's concurrency), p50/p99 = POST round trip.`
  });
}
