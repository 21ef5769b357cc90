import type { BrokerOptions } from "moleculer";
import type { AppConfig } from "./lib/config";
import { logFormatter } from "./lib/log-format";
import { QuietStartConsoleLogger } from "./lib/quiet-start-logger";
import { RelayMetricsMiddleware } from "./lib/metrics";
import { AnnounceMiddleware } from "./lib/readiness";
import { ValidationMiddleware } from "./middlewares/validation.middleware";
import { NatsPacketsMiddleware } from "./middlewares/nats-packets.middleware";
import { CoalescedSendsMiddleware } from "./middlewares/coalesced-sends.middleware";

/**
 * Spans go to Moleculer's Console exporter, or in Zipkin's format to TRACING_URL: Zipkin itself,
 * Jaeger's Zipkin-compatible collector port, or an OpenTelemetry Collector's zipkin receiver
 * (Moleculer has no OTLP exporter; its Jaeger one needs the retired jaeger-client package).
 * Every span carries the request id (Moleculer's `requestID` tag, the gateway's X-Request-Id).
 */
function tracingOptions(tracing: AppConfig["tracing"]): BrokerOptions["tracing"] {
  if (tracing.exporter === "none") return { enabled: false };
  const exporter =
    tracing.exporter === "console"
      ? ({ type: "Console" } as const)
      : ({ type: "Zipkin", options: { baseURL: tracing.url ?? undefined, interval: 5 } } as const);
  return {
    enabled: true,
    exporter,
    sampling: { rate: tracing.sampleRate },
    events: true,
    tags: { action: { meta: ["idempotencyKey"] } }
  };
}

/**
 * Lines on stdout, in the short or the JSON format. Where one process runs every service
 * (embedded), the framework's start-up chatter is written at debug, so that the first screen is
 * the banner (lib/quiet-start-logger.ts); a pod of one service keeps its few start-up lines.
 */
function consoleLogger(config: AppConfig): BrokerOptions["logger"] {
  const options = {
    level: config.logLevel,
    formatter: logFormatter(config.logFormat),
    colors: config.logFormat !== "json" && Boolean(process.stdout.isTTY),
    moduleColors: false
  };
  // Moleculer's typings know a formatter of (type, args) only; it is called with the bindings and helpers too.
  type ConsoleOptions = ConstructorParameters<typeof QuietStartConsoleLogger>[0];
  return config.embedded ? new QuietStartConsoleLogger(options as unknown as ConsoleOptions) : { type: "Console", options };
}

/** The one place broker options come from; every field is driven by the environment (DESIGN §4). */
export function brokerOptions(config: AppConfig): BrokerOptions {
  return {
    namespace: config.namespace,
    nodeID: config.nodeId,
    // A URL string ("nats://host:4222") is accepted by Moleculer though its typings list only names.
    transporter: (config.transporter ?? undefined) as BrokerOptions["transporter"],
    logger: consoleLogger(config),
    requestTimeout: 10_000,
    // Retries are decided by each flow (the saga, the outbox relay), never blindly by the broker.
    retryPolicy: { enabled: false },
    // At SIGTERM a node first tells the others it runs nothing, then waits stopDelay before it
    // refuses calls: long enough for that news to reach every gateway over the transporter.
    registry: { strategy: "RoundRobin", preferLocal: true, stopDelay: 1_000 },
    // Joi validation replaces fastest-validator (STYLE: one schema gives the type and the check).
    validator: false,
    // CoalescedSends: the packets of one event-loop turn leave in one socket write (its file says why).
    middlewares: [ValidationMiddleware, RelayMetricsMiddleware, AnnounceMiddleware, NatsPacketsMiddleware, CoalescedSendsMiddleware],
    metrics: config.metricsPort
      ? { enabled: true, reporter: { type: "Prometheus", options: { port: config.metricsPort, path: "/metrics" } } }
      : { enabled: false },
    tracing: tracingOptions(config.tracing),
    transit: { disableReconnect: false },
    // Let in-flight requests finish on SIGTERM before the pod goes away.
    tracking: { enabled: true, shutdownTimeout: config.shutdownTimeoutMs }
  };
}
