import type { ServiceBroker } from "moleculer";
import type { Queryable } from "../../lib/db/database";
import { RELAY_METRICS, setMetric } from "../../lib/metrics";

/**
 * Outbox lag for the metrics: the age of the oldest event not yet handed to webhooks and
 * notifications, and how many wait. Read after each relay pass, so it grows while a consumer is
 * down (the pass then sends nothing) and falls back to 0 once everything left.
 */
export async function measureOutboxLag(db: Queryable, broker: ServiceBroker): Promise<void> {
  if (!broker.isMetricsEnabled()) return;
  const [row] = await db.query<{ waiting: number | string; age: number | string | null }>(
    `SELECT count(*) AS waiting, EXTRACT(EPOCH FROM now() - min(created_at)) AS age
       FROM parcels.outbox WHERE dispatched_at IS NULL`
  );
  setMetric(broker, RELAY_METRICS.outboxUndispatched, Number(row?.waiting ?? 0));
  setMetric(broker, RELAY_METRICS.outboxLag, Math.max(0, Number(row?.age ?? 0)));
}
