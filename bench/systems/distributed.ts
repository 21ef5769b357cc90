import { randomBytes } from "node:crypto";
import { CpuWatch, pidsMatching } from "../cpu";
import net from "node:net";
import path from "node:path";
import { cleanEnv, ROOT, Service, startService, waitForHttpOk } from "../proc";
import { createThrowAwayDatabase } from "./postgres";
import { freePort, RunningSystem } from "./system";
import type { StartOptions } from "./embedded";

const NATS_URL = process.env.BENCH_NATS_URL ?? "nats://127.0.0.1:4222";
const REDIS_URL = process.env.BENCH_REDIS_URL ?? "redis://127.0.0.1:6379";

/** One service per process, as in production: seven processes on NATS, PostgreSQL and Redis. */
const PROCESSES = ["auth", "wallet", "parcels", "labels", "notifications", "webhooks", "gateway"] as const;

function reachable(url: string): Promise<boolean> {
  const { hostname, port } = new URL(url);
  return new Promise(resolve => {
    const socket = net.connect({ host: hostname, port: Number(port) });
    const done = (ok: boolean) => {
      socket.destroy();
      resolve(ok);
    };
    socket.setTimeout(1500, () => done(false));
    socket.once("connect", () => done(true));
    socket.once("error", () => done(false));
  });
}

export async function distributedServersMissing(): Promise<string[]> {
  const missing: string[] = [];
  if (!(await reachable(NATS_URL))) missing.push(`NATS (${NATS_URL})`);
  if (!(await reachable(REDIS_URL))) missing.push(`Redis (${REDIS_URL})`);
  return missing;
}

/**
 * The distributed system on the local servers: a throw-away database, a fresh NATS namespace
 * (so that other systems on the shared NATS stay apart), fresh secrets; dropped on stop. The scale
 * bench passes a database of its own (`existing`), which stop leaves to it, and the encryption key its
 * kept seed was sealed with.
 */
export async function startDistributed(
  options: StartOptions,
  existing?: { name: string; url: string; encryptionKey?: string }
): Promise<RunningSystem> {
  const database = existing ? { ...existing, drop: async () => undefined } : await createThrowAwayDatabase("relay_bench");
  const port = await freePort();
  const backofficeToken = `bo_${randomBytes(16).toString("hex")}`;
  const encryptionKey = existing?.encryptionKey ?? randomBytes(32).toString("hex");
  const common = {
    TRANSPORTER: NATS_URL,
    NAMESPACE: `bench-${randomBytes(4).toString("hex")}`,
    DATABASE_URL: database.url,
    REDIS_URL,
    BACKOFFICE_TOKEN: backofficeToken,
    ENCRYPTION_KEY: encryptionKey,
    LABEL_URL_SECRET: randomBytes(32).toString("hex"),
    PICKUP_PASS_SIGNING_KEY: randomBytes(32).toString("hex"),
    RATE_LIMIT_PER_MINUTE: "1000000",
    // The public and relay limits too: they answer 429 to a load test otherwise (issue 48's rows).
    PUBLIC_TRACKING_PER_MINUTE: "1000000",
    PUBLIC_SEARCH_PER_MINUTE: "1000000",
    RELAY_RATE_LIMIT_PER_MINUTE: "1000000",
    // The label row downloads far more than an address may in production.
    LABEL_DOWNLOADS_PER_MINUTE: "1000000",
    // The bench's webhook receiver listens on loopback.
    WEBHOOK_ALLOW_PRIVATE: "true",
    LOG_LEVEL: options.logLevel
  };
  const services: Service[] = PROCESSES.map(name =>
    startService(
      `distributed-${name}`,
      process.execPath,
      [...(options.nodeArgs ?? []), path.join(ROOT, "dist", "bin", "start.js")],
      cleanEnv({ ...common, SERVICES: name, NODE_ID: `${name}-1`, ...(name === "gateway" ? { PORT: String(port) } : {}) }),
      options.logDir
    )
  );
  const stop = async () => {
    await Promise.all(services.map(s => s.stop()));
    await database.drop();
  };
  const baseUrl = `http://127.0.0.1:${port}`;
  try {
    await waitForHttpOk(`${baseUrl}/readyz`, 90_000, services);
  } catch (err) {
    await stop();
    throw err;
  }
  const cpuWatches: CpuWatch[] = [
    ...services.map(s => ({ label: s.name.replace(/^distributed-/, ""), pids: () => [s.pid] })),
    // The backends serving this database (a parallel worker that ends within the load is not
    // counted); NATS and Redis are shared with whatever else runs on the machine.
    { label: "postgres", pids: () => pidsMatching(` ${database.name} `) },
    { label: "nats-server", pids: () => pidsMatching("nats-server") },
    { label: "redis-server", pids: () => pidsMatching("redis-server") }
  ];
  const transport = { natsUrl: NATS_URL, namespace: common.NAMESPACE };
  return { mode: "distributed", baseUrl, backofficeToken, services, databaseUrl: database.url, encryptionKey, cpuWatches, transport, stop };
}
