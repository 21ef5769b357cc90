import path from "node:path";

export type ServiceName =
  | "gateway"
  | "auth";

export const ALL_SERVICES: readonly ServiceName[] = ["gateway", "auth"];

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
  services: ServiceName[];
  namespace: string;
  nodeId: string | undefined;
  logLevel: "fatal" | "error" | "warn" | "info" | "debug" | "trace";
  logFormat: "short" | "json";
  metricsPort: number | null;
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
  const names = raw.split(",").map(s => s.trim()).filter(Boolean);
  for (const name of names) {
    if (!(ALL_SERVICES as readonly string[]).includes(name)) {
      throw new ConfigError(`SERVICES: unknown service "${name}" (known: ${ALL_SERVICES.join(", ")})`);
    }
  }
  return names as ServiceName[];
}

const LOG_LEVELS = ["fatal", "error", "warn", "info", "debug", "trace"] as const;

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
    dataDir: path.resolve(optional(env, "DATA_DIR") ?? "./data"),
    redisUrl: optional(env, "REDIS_URL"),
    rateLimitPerMinute: integer(env, "RATE_LIMIT_PER_MINUTE", 60, 1, 1_000_000),
    services: parseServices(optional(env, "SERVICES")),
    namespace: optional(env, "NAMESPACE") ?? "relay",
    nodeId: optional(env, "NODE_ID") ?? undefined,
    logLevel,
    logFormat,
    metricsPort: metricsPort === null ? null : integer(env, "METRICS_PORT", 0, 1, 65535),
    embedded: databaseUrl === null,
    secrets: {
      backofficeToken: optional(env, "BACKOFFICE_TOKEN") ?? undefined,
      encryptionKey: optional(env, "ENCRYPTION_KEY") ?? undefined,
      labelUrlSecret: optional(env, "LABEL_URL_SECRET") ?? undefined
    }
  };
}
