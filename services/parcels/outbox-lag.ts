import type { ServiceBroker } from "moleculer";
import type { Queryable } from "../../lib/db/database";
import { RELAY_METRICS, setMetric } from "../../lib/metrics";

/** The relay passes after every create group; the count walks the outbox's index: once a second is enough. */
const MEASURE_EVERY_MS = 1_000;
const measuredAt = new WeakMap<ServiceBroker, number>();

/**
 * Outbox lag for the metrics: the age of the oldest event not yet handed to webhooks and
 * notifications, and how many wait. Read after a relay pass, at most once a second (the relay also
 * passes every OUTBOX_INTERVAL_MS when idle), so it grows while a consumer is down (the pass then
 * sends nothing) and falls back to 0 once everything left.
 */
export async function measureOutboxLag(db: Queryable, broker: ServiceBroker): Promise<void> {
  if (!broker.isMetricsEnabled()) return;
  const now = performance.now();
  if (now - (measuredAt.get(broker) ?? Number.NEGATIVE_INFINITY) < MEASURE_EVERY_MS) return;
  measuredAt.set(broker, now);
  const [row] = await db.query<{ waiting: number | string; age: number | string | null }>(
    `SELECT count(*) AS waiting, EXTRACT(EPOCH FROM now() - min(created_at)) AS age
       FROM parcels.outbox WHERE dispatched_at IS NULL`
  );
  setMetric(broker, RELAY_METRICS.outboxUndispatched, Number(row?.waiting ?? 0));
  setMetric(broker, RELAY_METRICS.outboxLag, Math.max(0, Number(row?.age ?? 0)));
}
