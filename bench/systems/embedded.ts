import { randomBytes } from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import { cleanEnv, ROOT, startService, waitForHttpOk } from "../proc";
import { freePort, RunningSystem } from "./system";

export interface StartOptions {
  logLevel: string;
  logDir: string;
  /** Extra arguments for node itself (the profiler's --inspect). */
  nodeArgs?: string[];
  /** Keep DATA_DIR after stop (the load rows read the stopped system's database); the caller removes it. */
  keepData?: boolean;
}

/** `node dist/bin/start.js` on a throw-away DATA_DIR: every service in one process, PGlite on disk. */
export async function startEmbedded(options: StartOptions): Promise<RunningSystem> {
  const dataDir = fs.mkdtempSync(path.join(options.logDir, "embedded-data-"));
  const port = await freePort();
  const backofficeToken = `bo_${randomBytes(16).toString("hex")}`;
  const service = startService(
    "embedded",
    process.execPath,
    [...(options.nodeArgs ?? []), path.join(ROOT, "dist", "bin", "start.js")],
    cleanEnv({
      PORT: String(port),
      DATA_DIR: dataDir,
      BACKOFFICE_TOKEN: backofficeToken,
      LOG_LEVEL: options.logLevel,
      RATE_LIMIT_PER_MINUTE: "1000000",
      // The label row downloads far more than an address may in production.
      LABEL_DOWNLOADS_PER_MINUTE: "1000000",
      // The webhook row's receiver is on this machine.
      WEBHOOK_ALLOW_PRIVATE: "true"
    }),
    options.logDir
  );
  const baseUrl = `http://127.0.0.1:${port}`;
  try {
    // A wait, not a measure: a fresh PGlite cluster on a loaded two-core machine has taken over a minute.
    await waitForHttpOk(`${baseUrl}/readyz`, 180_000, [service]);
  } catch (err) {
    await service.stop();
    throw err;
  }
  return {
    mode: "embedded",
    baseUrl,
    backofficeToken,
    services: [service],
    databaseUrl: null,
    encryptionKey: null,
    cpuWatches: [{ label: "embedded", pids: () => [service.pid] }],
    dataDir,
    async stop() {
      await service.stop();
      if (!options.keepData) fs.rmSync(dataDir, { recursive: true, force: true });
    }
  };
}
