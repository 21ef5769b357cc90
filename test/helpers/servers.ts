import type { BrokerOptions } from "moleculer";
import { randomBytes } from "node:crypto";
import net from "node:net";

export type ServerName = "postgres" | "redis" | "nats";

export const SERVER_ADDRESSES: Record<ServerName, { host: string; port: number }> = {
  postgres: { host: "127.0.0.1", port: 5432 },
  redis: { host: "127.0.0.1", port: 6379 },
  nats: { host: "127.0.0.1", port: 4222 }
};

export const PG_ADMIN_URL = process.env.TEST_DATABASE_URL ?? "postgres://postgres@127.0.0.1:5432/postgres";
export const REDIS_URL = process.env.TEST_REDIS_URL ?? "redis://127.0.0.1:6379";
export const NATS_URL = process.env.TEST_NATS_URL ?? "nats://127.0.0.1:4222";

export function canConnect(name: ServerName, timeoutMs = 1500): Promise<boolean> {
  const { host, port } = SERVER_ADDRESSES[name];
  return new Promise(resolve => {
    const socket = net.connect({ host, port });
    const done = (ok: boolean) => {
      socket.destroy();
      resolve(ok);
    };
    socket.setTimeout(timeoutMs, () => done(false));
    socket.once("connect", () => done(true));
    socket.once("error", () => done(false));
  });
}

/** Set by the global setup: the servers that answered when the run started. */
export function availableServers(): Set<ServerName> {
  return new Set((process.env.RELAY_TEST_SERVERS ?? "").split(",").filter(Boolean) as ServerName[]);
}

/**
 * A describe block that needs real servers. Outside CI a missing server skips the block with a
 * visible notice; under CI=true the global setup has already failed the run instead.
 */
export function describeWithServers(servers: ServerName[], name: string, body: () => void): void {
  const available = availableServers();
  const missing = servers.filter(s => !available.has(s));
  if (missing.length > 0) {
    process.stderr.write(`\n[notice] skipping "${name}": ${missing.join(", ")} not reachable on localhost\n`);
  }
  (missing.length === 0 ? describe : describe.skip)(name, body);
}

/**
 * The environment every process of one distributed test system shares: the local servers, fresh
 * secrets, and a NATS namespace of its own so that parallel runs on the shared NATS stay apart.
 */
export function distributedEnv(databaseUrl: string, backofficeToken: string, namespacePrefix: string): Record<string, string> {
  return {
    TRANSPORTER: NATS_URL,
    NAMESPACE: `${namespacePrefix}-${randomBytes(4).toString("hex")}`,
    DATABASE_URL: databaseUrl,
    REDIS_URL,
    BACKOFFICE_TOKEN: backofficeToken,
    ENCRYPTION_KEY: randomBytes(32).toString("hex"),
    LABEL_URL_SECRET: randomBytes(32).toString("hex"),
    PICKUP_PASS_SIGNING_KEY: randomBytes(32).toString("hex")
  };
}

/** A test broker on the local NATS, quiet, in `namespace` (one per suite keeps parallel runs apart). */
export function natsBrokerOptions(namespace: string, nodeID: string, extra: BrokerOptions = {}): BrokerOptions {
  // A URL string is accepted by Moleculer though its typings list only names.
  return { nodeID, namespace, transporter: NATS_URL as "NATS", logger: false, ...extra };
}
