import type { BrokerOptions } from "moleculer";
import type { AppConfig } from "./lib/config";
import { ValidationMiddleware } from "./middlewares/validation.middleware";

/** The one place broker options come from; every field is driven by the environment (DESIGN §4). */
export function brokerOptions(config: AppConfig): BrokerOptions {
  return {
    namespace: config.namespace,
    nodeID: config.nodeId,
    // A URL string ("nats://host:4222") is accepted by Moleculer though its typings list only names.
    transporter: (config.transporter ?? undefined) as BrokerOptions["transporter"],
    logger: {
      type: "Console",
      options: {
        level: config.logLevel,
        formatter: config.logFormat === "json" ? "json" : "short",
        colors: config.logFormat !== "json" && Boolean(process.stdout.isTTY),
        moduleColors: false
      }
    },
    requestTimeout: 10_000,
    // Retries are decided by each flow (the saga, the outbox relay), never blindly by the broker.
    retryPolicy: { enabled: false },
    registry: { strategy: "RoundRobin", preferLocal: true },
    // Joi validation replaces fastest-validator (STYLE: one schema gives the type and the check).
    validator: false,
    middlewares: [ValidationMiddleware],
    metrics: config.metricsPort
      ? { enabled: true, reporter: { type: "Prometheus", options: { port: config.metricsPort, path: "/metrics" } } }
      : { enabled: false },
    tracing: { enabled: false },
    transit: { disableReconnect: false },
    // Let in-flight requests finish on SIGTERM before the pod goes away.
    tracking: { enabled: true, shutdownTimeout: 10_000 }
  };
}
