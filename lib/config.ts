import path from "node:path";
import { CorsPolicy, parseCorsOrigins } from "./http/cors";
import { Brand, brandOf } from "./brand";
import {
  checkBaseUrl,
  checkDatabaseUrl,
  checkFraction,
  checkName,
  checkOneOf,
  checkTransporter,
  checkUrl,
  ConfigError
} from "./config-checks";

export type ServiceName = "gateway" | "auth" | "wallet" | "parcels" | "labels" | "notifications" | "webhooks" | "logistics";

export const ALL_SERVICES: readonly ServiceName[] = [
  "gateway",
  "auth",
  "wallet",
  "parcels",
  "labels",
  "notifications",
  "webhooks",
  "logistics"
];

/** Everything the process is configured with, read once from the environment (DESIGN §4). */
export interface AppConfig {
  port: number;
  publicBaseUrl: string;
  /** BRAND_NAME, BRAND_COLOR, BRAND_LOGO_URL: what recipients see on pages, SMS and labels (lib/brand.ts). */
  brand: Brand;
  transporter: string | null;
  databaseUrl: string | null;
  databasePoolSize: number;
  dataDir: string;
  /** PGlite's shared_buffers in MB (embedded only): WebAssembly memory the process never gives back. */
  embeddedSharedBuffersMb: number;
  /** How often the embedded autovacuum reads PGlite's table statistics, ms (0: off); lib/db/pglite-autovacuum.ts. */
  embeddedAutovacuumIntervalMs: number;
  redisUrl: string | null;
  rateLimitPerMinute: number;
  /** How long a gateway may reuse a resolved API key without asking auth (0: never); revocations reach it at once anyway. */
  principalCacheTtlMs: number;
  /** Label downloads per minute and client address (a pre-signed URL carries no key to count by). */
  labelDownloadsPerMinute: number;
  /** Public tracking lookups (API and /track pages) per minute and client address: nobody holds a key there. */
  publicTrackingPerMinute: number;
  /** Public relay-point searches (the checkout picker's) per minute per client address. */
  publicSearchPerMinute: number;
  /** Per-address limits count an IPv6 client by this prefix (its /64 by default), an IPv4 client by its address. */
  addressLimitIpv6Prefix: number;
  /** Relay-API requests per minute and agent key (a counter scans in bursts: more than a merchant's default). */
  relayRateLimitPerMinute: number;
  /** Browser origins allowed to call the APIs (CORS); none by default. */
  cors: CorsPolicy;
  http: {
    /** The whole request, body included, must arrive within this time (slow-body clients). */
    requestTimeoutMs: number;
    /** The headers must arrive within this time (slowloris). */
    headersTimeoutMs: number;
    keepAliveTimeoutMs: number;
    /** On stop, how long idle kept-alive connections stay open for their clients' next request (services/gateway/http/idle-drain.ts). */
    drainIdleMs: number;
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
  /** Issue 48: personal data is erased this many days after a parcel's final status (an SMS's: after it was written). */
  piiRetentionDays: number;
  /** Issue 48: a parcel's status history is compacted onto the parcel this many days after its final status (≥ piiRetentionDays). */
  historyCompactDays: number;
  /** Issue 48: an erased SMS's row is deleted this many days after it was written (≥ piiRetentionDays). */
  smsLogRetentionDays: number;
  sweepIntervalMs: number;
  /** Days a parcel waits at its relay point before it goes back (HOLDING_DAYS); per relay point where the directory says so. */
  /** Issue 21: a delivered parcel may be returned this many days after its delivery. */
  returnWindowDays: number;
  /** Issue 21: a return code is valid this many days (expiresAt). */
  returnCodeDays: number;
  /** Issue 26: code SMS a visitor can ask for (redirect codes), per phone number over any 24 hours, across its parcels. */
  smsCodesPerPhonePerDay: number;
  holdingDays: number;
  /** How long before the pick-up deadline the recipient is reminded (SMS) and the merchant told (webhook). */
  pickupReminderHours: number;
  /** A return (expiry or refusal) costs this share of the price paid, charged to the merchant's wallet. */
  returnFeePercent: number;
  /** A parcel in the network (PICKED_UP, IN_TRANSIT) with no status change for this many days may be claimed as lost. */
  lostAfterDays: number;
  /** The most a claim compensates, in DZD, whatever the declared value. */
  claimCapDzd: number;
  /** Pause between two passes over deadlines (reminders, expiries) and return fees; an expiry is acted on within this. */
  holdingIntervalMs: number;
  /** A relay point closed today or within this many days refuses new parcels (409 RELAY_CLOSED). */
  closureNoticeDays: number;
  /**
   * Issue 43: where a counter may hand a parcel over offline against the PIN checked on the phone
   * (a pickup pass needs none of this). COD parcels (OFFLINE_PIN_FOR_COD), parcels declared above
   * OFFLINE_PIN_MAX_DECLARED_VALUE_DZD, and beyond OFFLINE_PIN_HANDOVERS_PER_DEVICE_PER_DAY get no verifier.
   */
  offlinePin: { forCod: boolean; maxDeclaredValueDzd: number; perDevicePerDay: number };
  /**
   * Issue 44: merchants' pickups. A window is at least `minWindowHours` long; a pickup for today
   * is taken until `sameDayCutoff` (HH:MM, Africa/Algiers); Friday is no pickup day unless
   * `onFriday`; a pickup may be cancelled until `cancelBeforeHours` before its window opens.
   */
  pickups: { minWindowHours: number; sameDayCutoff: string; onFriday: boolean; cancelBeforeHours: number };
  /**
   * Issue 44 D: a parcel a courier or a hub holds (PICKED_UP, IN_TRANSIT) with no scan for
   * `investigationHours` is investigated (parcel.investigation_opened); for `lostDays`, it is LOST
   * and a claim is opened for the merchant. The loss pass runs every `passIntervalMs`.
   */
  loss: { investigationHours: number; lostDays: number; passIntervalMs: number };
  outboxIntervalMs: number;
  /** After a create, the outbox relay's pass waits this long so that several create groups' events share it (decision 0045). */
  outboxCreateDelayMs: number;
  /** Group commit on the create path (lib/group-commit.ts): items per flush, and items allowed to wait. */
  groupCommit: { maxBatch: number; maxQueue: number; gatherOneTurn: boolean };
  /** How long a create group starting from idle waits for the last group's callers (GroupCommitOptions.gatherMs). */
  createGatherMs: number;
  /** Test systems only (services/wallet/fault-points.ts): while this file exists, the wallet holds its debits' answers. Null: inert. */
  testHoldDebitsFile: string | null;
  webhookWorkerIntervalMs: number;
  webhookTimeoutMs: number;
  webhookAllowPrivate: boolean;
  sms: {
    provider: "log" | "http" | "file";
    httpUrl: string | null;
    httpToken: string | null;
  };
  /** Spans exported by Moleculer's tracer; off unless TRACING_EXPORTER names an exporter. */
  tracing: {
    exporter: TracingExporter;
    /** Collector base URL (Zipkin API: Zipkin, Jaeger's or an OpenTelemetry Collector's Zipkin receiver). */
    url: string | null;
    /** Share of requests traced, 0 to 1. */
    sampleRate: number;
  };
  /** Longest wait for in-flight requests at shutdown (SIGTERM), before services stop. */
  shutdownTimeoutMs: number;
  /** Embedded = PGlite in DATA_DIR; secrets may then be generated and kept in DATA_DIR. */
  embedded: boolean;
  secrets: {
    backofficeToken: string | undefined;
    encryptionKey: string | undefined;
    labelUrlSecret: string | undefined;
    /** PICKUP_PASS_SIGNING_KEY: the hex of the 32-byte Ed25519 seed that signs pickup passes (issue 43). */
    pickupPassSigningKey: string | undefined;
  };
}

export { ConfigError };

export const TRACING_EXPORTERS = ["none", "console", "zipkin", "jaeger"] as const;
export type TracingExporter = (typeof TRACING_EXPORTERS)[number];

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

/** A time of day, HH:MM (24 h). */
function clockTime(env: NodeJS.ProcessEnv, name: string, fallback: string): string {
  const raw = optional(env, name) ?? fallback;
  if (!/^([01]\d|2[0-3]):[0-5]\d$/.test(raw)) throw new ConfigError(`${name} must be a time of day HH:MM (got "${raw}")`);
  return raw;
}

const LOG_LEVELS = ["fatal", "error", "warn", "info", "debug", "trace"] as const;

function smsProvider(raw: string | null): AppConfig["sms"]["provider"] {
  if (raw === null || raw === "log") return "log";
  if (raw === "http" || raw === "file") return raw;
  throw new ConfigError(`SMS_PROVIDER must be "log", "http" or "file" (got "${raw}")`);
}

/** A folder, or `memory://…` for a throw-away embedded database (tests), which is no path. */
function dataDirOf(raw: string): string {
  return raw.startsWith("memory://") ? raw : path.resolve(raw);
}

function httpLimits(env: NodeJS.ProcessEnv, embedded: boolean): AppConfig["http"] {
  const requestTimeoutMs = integer(env, "HTTP_REQUEST_TIMEOUT_MS", 30_000, 1_000, 600_000);
  const headersTimeoutMs = integer(env, "HTTP_HEADERS_TIMEOUT_MS", 10_000, 1_000, 600_000);
  if (headersTimeoutMs > requestTimeoutMs) {
    throw new ConfigError("HTTP_HEADERS_TIMEOUT_MS must not be longer than HTTP_REQUEST_TIMEOUT_MS");
  }
  const keepAliveTimeoutMs = integer(env, "HTTP_KEEP_ALIVE_TIMEOUT_MS", 5_000, 100, 600_000);
  return {
    requestTimeoutMs,
    headersTimeoutMs,
    keepAliveTimeoutMs,
    // Behind a balancer (distributed) a stopping gateway's clients move to another; embedded there
    // is no other, and Ctrl-C should not wait for a browser's idle connection.
    drainIdleMs: integer(env, "HTTP_DRAIN_IDLE_MS", embedded ? 0 : keepAliveTimeoutMs, 0, 600_000),
    maxBodyBytes: integer(env, "HTTP_MAX_BODY_BYTES", 65_536, 1_024, 16_777_216),
    trustProxyHops: integer(env, "TRUST_PROXY_HOPS", 0, 0, 10)
  };
}

/**
 * Issue 48 (decisions 0061, 0062): personal data goes first; the history and the SMS log, which
 * hold none of it by then, go no earlier.
 */
function retentionDays(env: NodeJS.ProcessEnv): Pick<AppConfig, "piiRetentionDays" | "historyCompactDays" | "smsLogRetentionDays"> {
  const piiRetentionDays = integer(env, "PII_RETENTION_DAYS", 180, 1, 3_650);
  const historyCompactDays = integer(env, "HISTORY_COMPACT_DAYS", 365, 1, 3_650);
  const smsLogRetentionDays = integer(env, "SMS_LOG_RETENTION_DAYS", 365, 1, 3_650);
  for (const [name, days] of [
    ["HISTORY_COMPACT_DAYS", historyCompactDays],
    ["SMS_LOG_RETENTION_DAYS", smsLogRetentionDays]
  ] as const) {
    if (days < piiRetentionDays)
      throw new ConfigError(`${name} must not be shorter than PII_RETENTION_DAYS (${days} < ${piiRetentionDays})`);
  }
  return { piiRetentionDays, historyCompactDays, smsLogRetentionDays };
}

function smsSettings(env: NodeJS.ProcessEnv): AppConfig["sms"] {
  const provider = smsProvider(optional(env, "SMS_PROVIDER"));
  const httpUrl = checkUrl("SMS_HTTP_URL", optional(env, "SMS_HTTP_URL"), ["http:", "https:"], "an absolute http(s) URL");
  if (provider === "http" && httpUrl === null) throw new ConfigError("SMS_HTTP_URL is required when SMS_PROVIDER=http");
  return { provider, httpUrl, httpToken: optional(env, "SMS_HTTP_TOKEN") };
}

function tracingSettings(env: NodeJS.ProcessEnv): AppConfig["tracing"] {
  const exporter = checkOneOf("TRACING_EXPORTER", optional(env, "TRACING_EXPORTER"), TRACING_EXPORTERS, "none");
  const url = checkUrl("TRACING_URL", optional(env, "TRACING_URL"), ["http:", "https:"], "the collector's http(s) base URL");
  if ((exporter === "zipkin" || exporter === "jaeger") && url === null) {
    throw new ConfigError(`TRACING_URL is required when TRACING_EXPORTER=${exporter} (e.g. http://jaeger-collector:9411)`);
  }
  return { exporter, url, sampleRate: checkFraction("TRACING_SAMPLE_RATE", optional(env, "TRACING_SAMPLE_RATE"), 1) };
}

/**
 * Reads and checks every variable (docs/operations/configuration.md): a bad value is a ConfigError naming
 * the variable. Secrets are shape-checked per service at start (bin/service-config.ts).
 */
export function loadConfig(env: NodeJS.ProcessEnv = process.env): AppConfig {
  const port = integer(env, "PORT", 3000, 0, 65535);
  const databaseUrl = checkDatabaseUrl(optional(env, "DATABASE_URL"));
  const logLevel = checkOneOf("LOG_LEVEL", optional(env, "LOG_LEVEL"), LOG_LEVELS, "info");
  const logFormat = checkOneOf("LOG_FORMAT", optional(env, "LOG_FORMAT"), ["short", "json"] as const, "short");
  const metricsPort = optional(env, "METRICS_PORT");
  return {
    port,
    publicBaseUrl: checkBaseUrl("PUBLIC_BASE_URL", optional(env, "PUBLIC_BASE_URL") ?? `http://localhost:${port}`).replace(/\/+$/, ""),
    brand: brandOf({ name: optional(env, "BRAND_NAME"), color: optional(env, "BRAND_COLOR"), logoUrl: optional(env, "BRAND_LOGO_URL") }),
    transporter: checkTransporter(optional(env, "TRANSPORTER")),
    databaseUrl,
    databasePoolSize: integer(env, "DATABASE_POOL_SIZE", 10, 1, 200),
    dataDir: dataDirOf(optional(env, "DATA_DIR") ?? "./data"),
    embeddedSharedBuffersMb: integer(env, "EMBEDDED_SHARED_BUFFERS_MB", 8, 1, 1024),
    embeddedAutovacuumIntervalMs: integer(env, "EMBEDDED_AUTOVACUUM_INTERVAL_MS", 2_000, 0, 3_600_000),
    redisUrl: checkUrl("REDIS_URL", optional(env, "REDIS_URL"), ["redis:", "rediss:"], "a Redis URL"),
    rateLimitPerMinute: integer(env, "RATE_LIMIT_PER_MINUTE", 60, 1, 1_000_000),
    principalCacheTtlMs: integer(env, "PRINCIPAL_CACHE_TTL_MS", 60_000, 0, 3_600_000),
    labelDownloadsPerMinute: integer(env, "LABEL_DOWNLOADS_PER_MINUTE", 120, 1, 1_000_000),
    publicTrackingPerMinute: integer(env, "PUBLIC_TRACKING_PER_MINUTE", 30, 1, 1_000_000),
    publicSearchPerMinute: integer(env, "PUBLIC_SEARCH_PER_MINUTE", 120, 1, 1_000_000),
    addressLimitIpv6Prefix: integer(env, "RATE_LIMIT_IPV6_PREFIX", 64, 32, 128),
    relayRateLimitPerMinute: integer(env, "RELAY_RATE_LIMIT_PER_MINUTE", 120, 1, 1_000_000),
    cors: corsOrigins(optional(env, "CORS_ORIGINS")),
    http: httpLimits(env, databaseUrl === null),
    services: parseServices(optional(env, "SERVICES")),
    namespace: checkName("NAMESPACE", optional(env, "NAMESPACE")) ?? "relay",
    nodeId: checkName("NODE_ID", optional(env, "NODE_ID")) ?? undefined,
    logLevel,
    logFormat,
    metricsPort: metricsPort === null ? null : integer(env, "METRICS_PORT", 0, 1, 65535),
    healthPort: optional(env, "HEALTH_PORT") === null ? null : integer(env, "HEALTH_PORT", 0, 1, 65535),
    pendingSweepAfterSeconds: integer(env, "PENDING_SWEEP_AFTER_SECONDS", 30, 0, 86_400),
    ...retentionDays(env),
    sweepIntervalMs: integer(env, "SWEEP_INTERVAL_MS", 10_000, 50, 3_600_000),
    holdingDays: integer(env, "HOLDING_DAYS", 7, 1, 60),
    pickupReminderHours: integer(env, "PICKUP_REMINDER_HOURS", 48, 0, 24 * 60),
    returnFeePercent: integer(env, "RETURN_FEE_PERCENT", 50, 0, 100),
    lostAfterDays: integer(env, "LOST_AFTER_DAYS", 10, 1, 365),
    claimCapDzd: integer(env, "CLAIM_CAP_DZD", 150_000, 0, 10_000_000),
    returnWindowDays: integer(env, "RETURN_WINDOW_DAYS", 14, 1, 365),
    returnCodeDays: integer(env, "RETURN_CODE_DAYS", 14, 1, 90),
    smsCodesPerPhonePerDay: integer(env, "SMS_CODES_PER_PHONE_PER_DAY", 10, 1, 1000),
    // Deadlines are acted on within 10 s (issue 18): a pass every 2 s leaves room for a slow one.
    holdingIntervalMs: integer(env, "HOLDING_INTERVAL_MS", 2_000, 50, 60_000),
    closureNoticeDays: integer(env, "CLOSURE_NOTICE_DAYS", 2, 0, 30),
    offlinePin: {
      forCod: flag(env, "OFFLINE_PIN_FOR_COD", false),
      maxDeclaredValueDzd: integer(env, "OFFLINE_PIN_MAX_DECLARED_VALUE_DZD", 5_000, 0, 10_000_000),
      perDevicePerDay: integer(env, "OFFLINE_PIN_HANDOVERS_PER_DEVICE_PER_DAY", 3, 0, 1_000)
    },
    pickups: {
      minWindowHours: integer(env, "PICKUP_MIN_WINDOW_HOURS", 2, 1, 24),
      sameDayCutoff: clockTime(env, "PICKUP_SAME_DAY_CUTOFF", "15:00"),
      onFriday: flag(env, "PICKUP_ON_FRIDAY", false),
      cancelBeforeHours: integer(env, "PICKUP_CANCEL_BEFORE_HOURS", 1, 0, 48)
    },
    loss: {
      investigationHours: integer(env, "LOSS_INVESTIGATION_HOURS", 48, 1, 24 * 30),
      lostDays: integer(env, "LOSS_LOST_DAYS", 7, 1, 365),
      // Silence is counted in hours: a pass a minute is plenty, and reads an index of a few rows.
      passIntervalMs: integer(env, "LOSS_PASS_INTERVAL_MS", 60_000, 50, 3_600_000)
    },
    outboxIntervalMs: integer(env, "OUTBOX_INTERVAL_MS", 500, 10, 60_000),
    outboxCreateDelayMs: integer(env, "OUTBOX_CREATE_DELAY_MS", 50, 0, 1_000),
    groupCommit: {
      maxBatch: integer(env, "GROUP_COMMIT_MAX_BATCH", 64, 1, 1_000),
      maxQueue: integer(env, "GROUP_COMMIT_MAX_QUEUE", 2_000, 1, 1_000_000),
      // Embedded, the database runs on this thread: see GroupCommitOptions.gatherOneTurn.
      gatherOneTurn: databaseUrl === null
    },
    // Embedded, nothing arrives while PGlite runs a flush on this thread: gatherOneTurn does that job.
    createGatherMs: databaseUrl === null ? 0 : integer(env, "GROUP_COMMIT_GATHER_MS", 4, 0, 100),
    testHoldDebitsFile: optional(env, "TEST_HOLD_DEBITS_FILE"),
    webhookWorkerIntervalMs: integer(env, "WEBHOOK_WORKER_INTERVAL_MS", 500, 10, 60_000),
    webhookTimeoutMs: integer(env, "WEBHOOK_TIMEOUT_MS", 15_000, 100, 60_000),
    // Off unless asked for, embedded too: `docker run` of the image is embedded mode, and a guard
    // that is off there turns a webhook test-send into a read of the operator's network.
    webhookAllowPrivate: flag(env, "WEBHOOK_ALLOW_PRIVATE", false),
    sms: smsSettings(env),
    tracing: tracingSettings(env),
    shutdownTimeoutMs: integer(env, "SHUTDOWN_TIMEOUT_MS", 10_000, 0, 600_000),
    embedded: databaseUrl === null,
    secrets: {
      backofficeToken: optional(env, "BACKOFFICE_TOKEN") ?? undefined,
      encryptionKey: optional(env, "ENCRYPTION_KEY") ?? undefined,
      labelUrlSecret: optional(env, "LABEL_URL_SECRET") ?? undefined,
      pickupPassSigningKey: optional(env, "PICKUP_PASS_SIGNING_KEY") ?? undefined
    }
  };
}
