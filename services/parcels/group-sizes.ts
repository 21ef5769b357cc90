import type { ServiceBroker } from "moleculer";
import { countMetric, RELAY_METRICS } from "../../lib/metrics";

/** "1", "2", "3-4", "5-8", … "33-64", "65+": powers of two, so a few buckets cover GROUP_COMMIT_MAX_BATCH. */
export function sizeBucket(size: number): string {
  if (size <= 2) return String(size);
  let upper = 4;
  while (upper < size && upper < 64) upper *= 2;
  return size > 64 ? "65+" : `${upper / 2 + 1}-${upper}`;
}

/**
 * The sizes of this process's create groups (docs/decisions/0037): counted in the Prometheus
 * counter, and kept here by bucket for `parcels.createGroupSizes`, which the bench reads
 * (bench/report/group-sizes.ts) whether or not metrics are on.
 */
export class GroupSizes {
  private readonly flushes = new Map<string, number>();

  constructor(private readonly broker: ServiceBroker) {}

  readonly record = (size: number): void => {
    const size_bucket = sizeBucket(size);
    this.flushes.set(size_bucket, (this.flushes.get(size_bucket) ?? 0) + 1);
    countMetric(this.broker, RELAY_METRICS.createGroupFlushes, { size: size_bucket });
  };

  /** Flushes by size bucket since the start. */
  snapshot(): Record<string, number> {
    return Object.fromEntries(this.flushes);
  }
}
