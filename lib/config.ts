import path from "node:path";
import { CorsPolicy, parseCorsOrigins } from "./http/cors";

export type ServiceName = "gateway" | "auth" | "wallet" | "parcels" | "labels" | "notifications" | "webhooks";

export const ALL_SERVICES: readonly ServiceName[] = ["gateway", "auth", "wallet", "parcels", "labels", "notifications", "webhooks"];

/** Everything the process is configured with, read once from the environment (DESIGN §4). */
export interface AppConfig {
  port: number;
  publicBaseUrl: string;
  transporter: string | null;
  databaseUrl: string | null;
  databasePoolSize: number;
  dataDir: string;
  redisUrl: string | null;
  rateLimitPerMinute: number;
  /** How long a gateway may reuse a resolved API key without asking auth (0: never); revocations reach it at once anyway. */
  principalCacheTtlMs: number;
  /** Label downloads per minute and client address (a pre-signed URL carries no key to count by). */
  labelDownloadsPerMinute: number;
  /** Public tracking lookups (API and /track pages) per minute and client address: nobody holds a key there. */
  publicTrackingPerMinute: number;
  /** Browser origins allowed to call the APIs (CORS); none by default. */
  cors: CorsPolicy;
  http: {
    /** The whole request, body included, must arrive within this time (slow-body clients). */
    requestTimeoutMs: number;
    /** The headers must arrive within this time (slowloris). */
    headersTimeoutMs: number;
    keepAliveTimeoutMs: number;
    /** Largest JSON request body, as sent and once decompressed. */
    maxBodyBytes: number;
    /** Proxies in front of the gateway whose X-Forwarded-For entries are trusted (0: none). */
    trustProxyHops: number;
  };
  services: ServiceName[];
  namespace: string;
  nodeId: string | undefined;
  logLevel: "fatal" | "error" | "warn" | "info" | "debug" | "trace";
  logFormat: "short" | "json";
  metricsPort: number | null;
  /** Probe port of every process (`/healthz`, `/readyz`), for pods that have no gateway. */
  healthPort: number | null;
  /** A PENDING parcel older than this is settled by the sweeper (finished or compensated). */
  pendingSweepAfterSeconds: number;
  sweepIntervalMs: number;
  outboxIntervalMs: number;
  webhookWorkerIntervalMs: number;
  webhookTimeoutMs: number;
  webhookAllowPrivate: boolean;
  sms: {
    provider: "log" | "http";
    httpUrl: string | null;
    httpToken: string | null;
  };
  /** Embedded = PGlite in DATA_DIR; secrets may then be generated and kept in DATA_DIR. */
  embedded: boolean;
  secrets: {
    backofficeToken: string | undefined;
    encryptionKey: string | undefined;
    labelUrlSecret: string | undefined;
  };
}

export class ConfigError extends Error {}

function integer(env: NodeJS.ProcessEnv, name: string, fallback: number, min: number, max: number): number {
  const raw = env[name];
  if (raw === undefined || raw === "") return fallback;
  const value = Number(raw);
  if (!Number.isInteger(value) || value < min || value > max) {
    throw new ConfigError(`${name} must be an integer between ${min} and ${max} (got "${raw}")`);
  }
  return value;
}

function optional(env: NodeJS.ProcessEnv, name: string): string | null {
  const raw = env[name];
  return raw === undefined || raw.trim() === "" ? null : raw.trim();
}

function parseServices(raw: string | null): ServiceName[] {
  if (!raw || raw === "all" || raw === "*") return [...ALL_SERVICES];
  const names = raw
    .split(",")
    .map(s => s.trim())
    .filter(Boolean);
  for (const name of names) {
    if (!(ALL_SERVICES as readonly string[]).includes(name)) {
      throw new ConfigError(`SERVICES: unknown service "${name}" (known: ${ALL_SERVICES.join(", ")})`);
    }
  }
  return names as ServiceName[];
}

function corsOrigins(raw: string | null): CorsPolicy {
  try {
    return parseCorsOrigins(raw);
  } catch (err) {
    throw new ConfigError(`CORS_ORIGINS: ${(err as Error).message}`);
  }
}

function flag(env: NodeJS.ProcessEnv, name: string, fallback: boolean): boolean {
  const raw = optional(env, name);
  if (raw === null) return fallback;
  if (/^(1|true|yes|on)$/i.test(raw)) return true;
  if (/^(0|false|no|off)$/i.test(raw)) return false;
  throw new ConfigError(`${name} must be true or false (got "${raw}")`);
}

const LOG_LEVELS = ["fatal", "error", "warn", "info", "debug", "trace"] as const;

function smsProvider(raw: string | null): "log" | "http" {
  if (raw === null || raw === "log") return "log";
  if (raw === "http") return "http";
  throw new ConfigError(`SMS_PROVIDER must be "log" or "http" (got "${raw}")`);
}

/** A folder, or `memory://…` for a throw-away embedded database (tests), which is no path. */
function dataDirOf(raw: string): string {
  return raw.startsWith("memory://") ? raw : path.resolve(raw);
}

function httpLimits(env: NodeJS.ProcessEnv): AppConfig["http"] {
  const requestTimeoutMs = integer(env, "HTTP_REQUEST_TIMEOUT_MS", 30_000, 1_000, 600_000);
  const headersTimeoutMs = integer(env, "HTTP_HEADERS_TIMEOUT_MS", 10_000, 1_000, 600_000);
  if (headersTimeoutMs > requestTimeoutMs) {
    throw new ConfigError("HTTP_HEADERS_TIMEOUT_MS must not be longer than HTTP_REQUEST_TIMEOUT_MS");
  }
  return {
    requestTimeoutMs,
    headersTimeoutMs,
    keepAliveTimeoutMs: integer(env, "HTTP_KEEP_ALIVE_TIMEOUT_MS", 5_000, 100, 600_000),
    maxBodyBytes: integer(env, "HTTP_MAX_BODY_BYTES", 65_536, 1_024, 16_777_216),
    trustProxyHops: integer(env, "TRUST_PROXY_HOPS", 0, 0, 10)
  };
}

export function loadConfig(env: NodeJS.ProcessEnv = process.env): AppConfig {
  const port = integer(env, "PORT", 3000, 0, 65535);
  const databaseUrl = optional(env, "DATABASE_URL");
  const logLevel = (optional(env, "LOG_LEVEL") ?? "info") as AppConfig["logLevel"];
  if (!LOG_LEVELS.includes(logLevel)) throw new ConfigError(`LOG_LEVEL must be one of ${LOG_LEVELS.join(", ")}`);
  const logFormat = optional(env, "LOG_FORMAT") === "json" ? "json" : "short";
  const metricsPort = optional(env, "METRICS_PORT");
  return {
    port,
    publicBaseUrl: (optional(env, "PUBLIC_BASE_URL") ?? `http://localhost:${port}`).replace(/\/+$/, ""),
    transporter: optional(env, "TRANSPORTER"),
    databaseUrl,
    databasePoolSize: integer(env, "DATABASE_POOL_SIZE", 10, 1, 200),
    dataDir: dataDirOf(optional(env, "DATA_DIR") ?? "./data"),
    redisUrl: optional(env, "REDIS_URL"),
    rateLimitPerMinute: integer(env, "RATE_LIMIT_PER_MINUTE", 60, 1, 1_000_000),
    principalCacheTtlMs: integer(env, "PRINCIPAL_CACHE_TTL_MS", 60_000, 0, 3_600_000),
    labelDownloadsPerMinute: integer(env, "LABEL_DOWNLOADS_PER_MINUTE", 120, 1, 1_000_000),
    publicTrackingPerMinute: integer(env, "PUBLIC_TRACKING_PER_MINUTE", 30, 1, 1_000_000),
    cors: corsOrigins(optional(env, "CORS_ORIGINS")),
    http: httpLimits(env),
    services: parseServices(optional(env, "SERVICES")),
    namespace: optional(env, "NAMESPACE") ?? "relay",
    nodeId: optional(env, "NODE_ID") ?? undefined,
    logLevel,
    logFormat,
    metricsPort: metricsPort === null ? null : integer(env, "METRICS_PORT", 0, 1, 65535),
    healthPort: optional(env, "HEALTH_PORT") === null ? null : integer(env, "HEALTH_PORT", 0, 1, 65535),
    pendingSweepAfterSeconds: integer(env, "PENDING_SWEEP_AFTER_SECONDS", 30, 0, 86_400),
    sweepIntervalMs: integer(env, "SWEEP_INTERVAL_MS", 10_000, 50, 3_600_000),
    outboxIntervalMs: integer(env, "OUTBOX_INTERVAL_MS", 500, 10, 60_000),
    webhookWorkerIntervalMs: integer(env, "WEBHOOK_WORKER_INTERVAL_MS", 500, 10, 60_000),
    webhookTimeoutMs: integer(env, "WEBHOOK_TIMEOUT_MS", 15_000, 100, 60_000),
    // Embedded mode is a developer's machine, where the receiver is usually on localhost.
    webhookAllowPrivate: flag(env, "WEBHOOK_ALLOW_PRIVATE", databaseUrl === null),
    sms: {
      provider: smsProvider(optional(env, "SMS_PROVIDER")),
      httpUrl: optional(env, "SMS_HTTP_URL"),
      httpToken: optional(env, "SMS_HTTP_TOKEN")
    },
    embedded: databaseUrl === null,
    secrets: {
      backofficeToken: optional(env, "BACKOFFICE_TOKEN") ?? undefined,
      encryptionKey: optional(env, "ENCRYPTION_KEY") ?? undefined,
      labelUrlSecret: optional(env, "LABEL_URL_SECRET") ?? undefined
    }
  };
}
