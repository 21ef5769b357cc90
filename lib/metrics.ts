import type { Middleware, ServiceBroker } from "moleculer";

/**
 * The relay's own Prometheus metrics, next to Moleculer's (docs/operations/monitoring.md). Registered in every
 * process, so that each /metrics lists the same names; a process counts only what it does.
 * Everything goes through Moleculer's metrics registry: its Prometheus reporter exports them, and
 * with METRICS_PORT unset (metrics disabled) every call here does nothing.
 */
export const RELAY_METRICS = {
  httpRequests: "relay_http_requests_total",
  rateLimitRejections: "relay_rate_limit_rejections_total",
  rateLimitLocalFallback: "relay_rate_limit_local_fallback",
  sagaCompensations: "relay_saga_compensations_total",
  outboxLag: "relay_outbox_lag_seconds",
  outboxUndispatched: "relay_outbox_undispatched",
  webhookAttempts: "relay_webhook_attempts_total",
  webhookFailures: "relay_webhook_failures_total",
  smsSent: "relay_sms_sent_total",
  smsFailed: "relay_sms_failed_total",
  labelRenders: "relay_label_renders_total",
  createGroupFlushes: "relay_create_group_flushes_total"
} as const;

type MetricName = (typeof RELAY_METRICS)[keyof typeof RELAY_METRICS];
type Labels = Record<string, string>;

const DEFINITIONS: Array<{ type: "counter" | "gauge"; name: MetricName; labelNames: string[]; description: string }> = [
  {
    type: "counter",
    name: RELAY_METRICS.httpRequests,
    labelNames: ["method", "route", "status"],
    description: "HTTP requests answered by the gateway, by route pattern and status"
  },
  {
    type: "counter",
    name: RELAY_METRICS.rateLimitRejections,
    labelNames: ["limit"],
    description: "Requests refused with 429, by limit (key, label downloads, public tracking)"
  },
  {
    type: "gauge",
    name: RELAY_METRICS.rateLimitLocalFallback,
    labelNames: [],
    description: "1 while this gateway counts rate limits alone because Redis is unreachable, 0 otherwise"
  },
  {
    type: "counter",
    name: RELAY_METRICS.sagaCompensations,
    labelNames: ["outcome"],
    description: "Create-parcel saga compensations: refunded at once, or deferred to the sweeper"
  },
  {
    type: "gauge",
    name: RELAY_METRICS.outboxLag,
    labelNames: [],
    description: "Age of the oldest undispatched outbox event, in seconds (0 when none)"
  },
  { type: "gauge", name: RELAY_METRICS.outboxUndispatched, labelNames: [], description: "Outbox events not yet dispatched" },
  {
    type: "counter",
    name: RELAY_METRICS.webhookAttempts,
    labelNames: ["status_class"],
    description: "Webhook delivery attempts, by answer class (2xx, 3xx, 4xx, 5xx, none)"
  },
  {
    type: "counter",
    name: RELAY_METRICS.webhookFailures,
    labelNames: ["status_class"],
    description: "Unsuccessful webhook delivery attempts, by answer class (3xx, 4xx, 5xx, none)"
  },
  { type: "counter", name: RELAY_METRICS.smsSent, labelNames: ["provider"], description: "SMS handed to the provider" },
  { type: "counter", name: RELAY_METRICS.smsFailed, labelNames: ["provider"], description: "SMS the provider refused or never answered" },
  {
    type: "counter",
    name: RELAY_METRICS.createGroupFlushes,
    labelNames: ["size"],
    description: "Flushes of the parcels create group (decision 0037), by group size bucket (1, 2, 3-4, 5-8, ..., 65+)"
  },
  { type: "counter", name: RELAY_METRICS.labelRenders, labelNames: ["format"], description: "Labels rendered (cache misses), by format" }
];

/** Registers the relay's metrics once per broker (a no-op when metrics are disabled). */
export function registerRelayMetrics(broker: ServiceBroker): void {
  if (!broker.isMetricsEnabled()) return;
  for (const definition of DEFINITIONS) {
    if (broker.metrics.hasMetric(definition.name)) continue;
    // Two calls, one per type: the registry's typings choose an overload by the literal type.
    if (definition.type === "counter") broker.metrics.register({ ...definition, type: "counter" });
    else broker.metrics.register({ ...definition, type: "gauge" });
  }
}

export function countMetric(broker: ServiceBroker, name: MetricName, labels: Labels = {}, value = 1): void {
  if (broker.isMetricsEnabled()) broker.metrics.increment(name, labels, value);
}

export function setMetric(broker: ServiceBroker, name: MetricName, value: number, labels: Labels = {}): void {
  if (broker.isMetricsEnabled()) broker.metrics.set(name, value, labels);
}

/** 200 → "2xx"; no answer at all (time-out, refused connection) → "none". */
export function statusClass(status: number | null): string {
  return status === null ? "none" : `${Math.floor(status / 100)}xx`;
}

/** A metrics middleware: registers the relay's metrics as soon as the broker exists. */
export const RelayMetricsMiddleware: Middleware = {
  name: "RelayMetrics",
  created(broker: ServiceBroker) {
    registerRelayMetrics(broker);
  }
};

/** One webhook delivery attempt: counted by answer class, and as a failure unless it was a 2xx. */
export function countWebhookAttempt(broker: ServiceBroker, status: number | null): void {
  const status_class = statusClass(status);
  countMetric(broker, RELAY_METRICS.webhookAttempts, { status_class });
  if (status_class !== "2xx") countMetric(broker, RELAY_METRICS.webhookFailures, { status_class });
}

/** The create-parcel saga's hook: each compensation, refunded at once or left to the sweeper. */
export function compensationCounter(broker: ServiceBroker): (outcome: "refunded" | "deferred") => void {
  return outcome => countMetric(broker, RELAY_METRICS.sagaCompensations, { outcome });
}
