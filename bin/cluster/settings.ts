import { randomBytes } from "node:crypto";
import path from "node:path";

/** What `npm run start:cluster` runs with: every value has a default and an environment variable. */
export interface ClusterSettings {
  transporter: string;
  databaseUrl: string;
  redisUrl: string;
  namespace: string;
  dataDir: string;
  /** One gateway per port. */
  gatewayPorts: number[];
  webhooksWorkers: number;
  /** When set, the first of consecutive ports, one per process; otherwise free ports are picked. */
  healthPortBase: number | null;
  metricsPortBase: number | null;
  publicBaseUrl: string;
  stopGraceMs: number;
}

export class ClusterUsageError extends Error {}

export const USAGE = `Usage: npm run start:cluster [-- --fresh-namespace] [-- --ha]

Runs every service as its own process over the local NATS, PostgreSQL and Redis: auth, wallet,
parcels, labels, notifications, two webhooks workers, logistics and two gateways. Ctrl-C stops them all.

  --fresh-namespace   a new NATS namespace (relay-<random>), so that this cluster never mixes
                      with another one on the same NATS
  --ha                on the local high-availability stack (scripts/ha/start.sh: Patroni's three
                      PostgreSQL nodes behind HAProxy, three NATS servers, a Redis of its own),
                      started first unless it runs; npm run ha:stop stops it

Environment (every one optional; anything else is passed to every process):
  TRANSPORTER             nats://127.0.0.1:4222
  DATABASE_URL            postgres://postgres@127.0.0.1:5432/relay (created if missing)
  REDIS_URL               redis://127.0.0.1:6379
  NAMESPACE               relay
  DATA_DIR                ./data/cluster: generated secrets (kept across restarts), demo marker
  PORT                    3000: first gateway; the second listens on PORT+1
  CLUSTER_GATEWAY_PORTS   e.g. 3000,3001,3002: one gateway per port (overrides PORT)
  CLUSTER_WEBHOOKS_WORKERS 2
  HEALTH_PORT, METRICS_PORT  first of consecutive ports, one per process (default: probes on free
                          ports, no metrics)
  PUBLIC_BASE_URL         http://localhost:<first gateway port>
  CLUSTER_STOP_GRACE_MS   20000: after Ctrl-C, how long a process may take before SIGKILL
  BACKOFFICE_TOKEN, ENCRYPTION_KEY, LABEL_URL_SECRET, PICKUP_PASS_SIGNING_KEY
                          generated once into DATA_DIR/secrets.json`;

function port(name: string, raw: string): number {
  const value = Number(raw);
  if (!Number.isInteger(value) || value < 1 || value > 65535) throw new ClusterUsageError(`${name}: "${raw}" is not a port`);
  return value;
}

function positiveInteger(name: string, raw: string | undefined, fallback: number): number {
  if (raw === undefined || raw.trim() === "") return fallback;
  const value = Number(raw);
  if (!Number.isInteger(value) || value < 1) throw new ClusterUsageError(`${name} must be a positive integer (got "${raw}")`);
  return value;
}

const given = (env: NodeJS.ProcessEnv, name: string): string | undefined => (env[name]?.trim() ? env[name]!.trim() : undefined);

export function clusterSettings(env: NodeJS.ProcessEnv, args: string[]): ClusterSettings {
  const unknown = args.filter(arg => arg !== "--fresh-namespace" && arg !== "--ha");
  if (unknown.length > 0) throw new ClusterUsageError(`unknown argument ${unknown[0]}\n\n${USAGE}`);
  const firstPort = port("PORT", given(env, "PORT") ?? "3000");
  const gatewayPorts = given(env, "CLUSTER_GATEWAY_PORTS")
    ?.split(",")
    .map(p => port("CLUSTER_GATEWAY_PORTS", p.trim())) ?? [firstPort, firstPort + 1];
  if (new Set(gatewayPorts).size !== gatewayPorts.length) throw new ClusterUsageError("CLUSTER_GATEWAY_PORTS: a port appears twice");
  const optionalPort = (name: string) => (given(env, name) ? port(name, given(env, name)!) : null);
  return {
    transporter: given(env, "TRANSPORTER") ?? "nats://127.0.0.1:4222",
    databaseUrl: given(env, "DATABASE_URL") ?? "postgres://postgres@127.0.0.1:5432/relay",
    redisUrl: given(env, "REDIS_URL") ?? "redis://127.0.0.1:6379",
    namespace: args.includes("--fresh-namespace") ? `relay-${randomBytes(4).toString("hex")}` : (given(env, "NAMESPACE") ?? "relay"),
    dataDir: path.resolve(given(env, "DATA_DIR") ?? path.join("data", "cluster")),
    gatewayPorts,
    webhooksWorkers: positiveInteger("CLUSTER_WEBHOOKS_WORKERS", given(env, "CLUSTER_WEBHOOKS_WORKERS"), 2),
    healthPortBase: optionalPort("HEALTH_PORT"),
    metricsPortBase: optionalPort("METRICS_PORT"),
    publicBaseUrl: given(env, "PUBLIC_BASE_URL") ?? `http://localhost:${gatewayPorts[0]}`,
    stopGraceMs: positiveInteger("CLUSTER_STOP_GRACE_MS", given(env, "CLUSTER_STOP_GRACE_MS"), 20_000)
  };
}
