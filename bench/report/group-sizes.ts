import { ServiceBroker } from "moleculer";

/**
 * The create groups' sizes (docs/decisions/0037): how many creates each flush of the parcels
 * create group carried, read from every parcels instance (`parcels.createGroupSizes`) by a
 * throw-away broker on the system's NATS namespace, and printed as a histogram with the share of
 * size-1 flushes — the number that says whether groups fill where it matters.
 */

/** Flushes by size bucket ("1", "2", "3-4", … "65+"), summed over instances. */
export type GroupSizeCounts = Record<string, number>;

const BUCKET_ORDER = ["1", "2", "3-4", "5-8", "9-16", "17-32", "33-64", "65+"];

export async function readGroupSizes(natsUrl: string, namespace: string): Promise<GroupSizeCounts> {
  const broker = new ServiceBroker({
    nodeID: `bench-group-sizes-${process.pid}`,
    namespace,
    transporter: natsUrl as "NATS",
    logger: false
  });
  await broker.start();
  try {
    await broker.waitForServices(["parcels"], 10_000);
    const nodes = broker.registry
      .getServiceList({ onlyAvailable: true })
      .filter(s => s.name === "parcels")
      .map(s => s.nodeID);
    const answers = await Promise.all(
      [...new Set(nodes)].map(nodeID => broker.call<{ flushes: GroupSizeCounts }, object>("parcels.createGroupSizes", {}, { nodeID }))
    );
    return sumCounts(answers.map(a => a.flushes));
  } finally {
    await broker.stop();
  }
}

export function sumCounts(all: GroupSizeCounts[]): GroupSizeCounts {
  const sum: GroupSizeCounts = {};
  for (const counts of all) for (const [bucket, n] of Object.entries(counts)) sum[bucket] = (sum[bucket] ?? 0) + n;
  return sum;
}

/** The flushes since `before` (the counters only grow). */
export function since(before: GroupSizeCounts, after: GroupSizeCounts): GroupSizeCounts {
  return Object.fromEntries(Object.entries(after).map(([bucket, n]) => [bucket, n - (before[bucket] ?? 0)]));
}

/** "create groups (distributed): 412 flushes, size 1: 31 % | 1: 128 ▇▇▇ | 2: 60 ▇ | …" on a few lines. */
export function groupSizeLines(title: string, counts: GroupSizeCounts): string[] {
  const total = Object.values(counts).reduce((a, b) => a + b, 0);
  if (total === 0) return [`${title}: no create group flushed`];
  const widest = Math.max(...Object.values(counts));
  const share = (n: number) => `${Math.round((100 * n) / total)} %`;
  return [
    `${title}: ${total} flushes, ${share(counts["1"] ?? 0)} of them of size 1`,
    ...BUCKET_ORDER.filter(b => (counts[b] ?? 0) > 0).map(
      b => `  size ${b.padStart(5)}: ${String(counts[b]).padStart(6)}  ${"▇".repeat(Math.max(1, Math.round((30 * counts[b]) / widest)))}`
    )
  ];
}
