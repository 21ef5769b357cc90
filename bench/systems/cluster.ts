import { randomBytes } from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import { ALL_SERVICES } from "../../lib/config";
import { pidsMatching, pidsWithEnvironment } from "../cpu";
import { cleanEnv, ROOT, startService, waitForHttpOk } from "../proc";
import { createThrowAwayDatabase } from "./postgres";
import { freePort, RunningSystem } from "./system";
import type { StartOptions } from "./embedded";

const NATS_URL = process.env.BENCH_NATS_URL ?? "nats://127.0.0.1:4222";
const REDIS_URL = process.env.BENCH_REDIS_URL ?? "redis://127.0.0.1:6379";

/**
 * `npm run start:cluster` as a merchant's operator runs it (dist/bin/cluster.js: every service in
 * its own process, two gateways, two webhooks workers), on a throw-away database and a fresh NATS
 * namespace. Its whole output (every process's lines, prefixed) goes to one log file.
 */
export async function startCluster(options: StartOptions): Promise<RunningSystem & { gatewayUrls: string[] }> {
  const database = await createThrowAwayDatabase("relay_bench_cluster");
  const dataDir = fs.mkdtempSync(path.join(options.logDir, "cluster-data-"));
  const ports = [await freePort(), await freePort()];
  const backofficeToken = `bo_${randomBytes(16).toString("hex")}`;
  const runner = startService(
    "cluster",
    process.execPath,
    [path.join(ROOT, "dist", "bin", "cluster.js"), "--fresh-namespace"],
    cleanEnv({
      TRANSPORTER: NATS_URL,
      REDIS_URL,
      DATABASE_URL: database.url,
      DATA_DIR: dataDir,
      CLUSTER_GATEWAY_PORTS: ports.join(","),
      BACKOFFICE_TOKEN: backofficeToken,
      RATE_LIMIT_PER_MINUTE: "1000000",
      LOG_LEVEL: options.logLevel
    }),
    options.logDir
  );
  const stop = async () => {
    await runner.stop();
    await database.drop();
    fs.rmSync(dataDir, { recursive: true, force: true });
  };
  const gatewayUrls = ports.map(p => `http://127.0.0.1:${p}`);
  try {
    for (const url of gatewayUrls) await waitForHttpOk(`${url}/readyz`, 180_000, [runner]);
  } catch (err) {
    await stop();
    throw err;
  }
  return {
    mode: "distributed",
    baseUrl: gatewayUrls[0],
    gatewayUrls,
    backofficeToken,
    services: [runner],
    databaseUrl: database.url,
    encryptionKey: null,
    cpuWatches: [
      // Each service's processes (its replicas together), then the backends serving this database.
      ...ALL_SERVICES.map(service => ({ label: service, pids: () => pidsWithEnvironment(`SERVICES=${service}`, database.name) })),
      { label: "postgres", pids: () => pidsMatching(` ${database.name} `) }
    ],
    stop
  };
}
