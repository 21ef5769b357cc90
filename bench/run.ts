import { ChildProcess, spawn } from "node:child_process";
import fs from "node:fs";
import http from "node:http";
import type { AddressInfo } from "node:net";
import os from "node:os";
import path from "node:path";
import { load, LoadResult, RequestSpec } from "./load";

/**
 * `npm run bench`: throughput and latency of the main partner calls on the embedded system,
 * each printed beside the same load against a bare Node HTTP server answering a fixed JSON body
 * (the floor on this machine, measured in the same run), so numbers from different machines or
 * days can be read against their own baseline.
 */

const TOTAL = Number(process.env.BENCH_REQUESTS ?? 1000);
const CONCURRENCY = Number(process.env.BENCH_CONCURRENCY ?? 16);
const ROOT = path.resolve(__dirname, "..", "..");

function startBaseline(): Promise<{ url: string; close: () => void }> {
  const body = JSON.stringify({ status: "ok", organizationId: "00000000-0000-0000-0000-000000000000" });
  const server = http.createServer((_req, res) => {
    res.writeHead(200, { "Content-Type": "application/json" });
    res.end(body);
  });
  return new Promise(resolve =>
    server.listen(0, "127.0.0.1", () =>
      resolve({ url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, close: () => server.close() })
    )
  );
}

async function startSystem(): Promise<{ child: ChildProcess; url: string; liveKey: string; token: string; dataDir: string }> {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "relay-bench-"));
  const port = 3900 + Math.floor(Math.random() * 90);
  const child = spawn(process.execPath, [path.join(ROOT, "dist", "bin", "start.js")], {
    env: { ...process.env, PORT: String(port), DATA_DIR: dataDir, LOG_LEVEL: "warn", RATE_LIMIT_PER_MINUTE: "1000000" },
    stdio: ["ignore", "pipe", "inherit"]
  });
  let out = "";
  await new Promise<void>((resolve, reject) => {
    child.stdout!.on("data", chunk => {
      out += chunk;
      if (/curl -s -H "Authorization: ApiKey rp_live_/.test(out)) resolve();
    });
    child.once("exit", code => reject(new Error(`system exited (${code})`)));
  });
  return {
    child,
    url: `http://127.0.0.1:${port}`,
    liveKey: /live key:\s+(rp_live_\w+)/.exec(out)![1],
    token: /Back-office token \(Authorization: Bearer …\): (\S+)/.exec(out)![1],
    dataDir
  };
}

function row(name: string, r: LoadResult, baseline: LoadResult): string {
  const rps = r.requests / r.seconds;
  const baseRps = baseline.requests / baseline.seconds;
  return [
    name.padEnd(38),
    String(r.requests).padStart(6),
    String(r.errors).padStart(6),
    rps.toFixed(0).padStart(8),
    r.p50.toFixed(2).padStart(8),
    r.p99.toFixed(2).padStart(8),
    baseRps.toFixed(0).padStart(10),
    `${(baseRps / rps).toFixed(1)}x`.padStart(8)
  ].join(" ");
}

async function main(): Promise<void> {
  const baseline = await startBaseline();
  const system = await startSystem();
  const auth = { Authorization: `ApiKey ${system.liveKey}` };
  try {
    // Enough money for every create of the run.
    const health = (await (await fetch(`${system.url}/api/partner/v1/health`, { headers: auth })).json()) as { organizationId: string };
    await fetch(`${system.url}/api/backoffice/v1/organizations/${health.organizationId}/wallet/top-ups`, {
      method: "POST",
      headers: { Authorization: `Bearer ${system.token}`, "Content-Type": "application/json" },
      body: JSON.stringify({ amountDzd: 5_000_000 })
    });
    const createBody = JSON.stringify({
      recipientName: "Bench Recipient",
      recipientPhone: "0555 12 34 56",
      weightG: 900,
      destinationRelayCode: "DZ-16-ALGER-CENTRE"
    });
    const first = (await (
      await fetch(`${system.url}/api/partner/v1/parcels`, {
        method: "POST",
        headers: { ...auth, "Content-Type": "application/json" },
        body: createBody
      })
    ).json()) as { id: string };

    const scenarios: Array<[string, RequestSpec]> = [
      ["GET /health (auth + rate limit)", { method: "GET", path: "/api/partner/v1/health", headers: auth }],
      ["POST /parcels (saga: debit + outbox)", { method: "POST", path: "/api/partner/v1/parcels", headers: auth, body: () => createBody }],
      ["GET /parcels/{id}", { method: "GET", path: `/api/partner/v1/parcels/${first.id}`, headers: auth }],
      ["GET /parcels?size=20", { method: "GET", path: "/api/partner/v1/parcels?size=20", headers: auth }]
    ];
    process.stdout.write(
      `\nrelay-parcels bench: ${TOTAL} requests per scenario, concurrency ${CONCURRENCY}, embedded mode, ${os.cpus().length} cores, node ${process.version}\n\n`
    );
    process.stdout.write(
      [
        "scenario".padEnd(38),
        "reqs".padStart(6),
        "errors".padStart(6),
        "req/s".padStart(8),
        "p50 ms".padStart(8),
        "p99 ms".padStart(8),
        "base req/s".padStart(10),
        "vs base".padStart(8)
      ].join(" ") + "\n"
    );
    // Warm both up first: the JIT otherwise makes the first scenario's baseline look slow.
    await load(baseline.url, { method: "GET", path: "/" }, 2000, CONCURRENCY);
    await load(system.url, scenarios[0][1], 500, CONCURRENCY);
    for (const [name, spec] of scenarios) {
      const base = await load(baseline.url, { method: "GET", path: "/" }, TOTAL, CONCURRENCY);
      const result = await load(system.url, spec, TOTAL, CONCURRENCY);
      process.stdout.write(row(name, result, base) + "\n");
    }
    process.stdout.write("\nbase = a bare node:http server answering a fixed JSON body, loaded just before each scenario.\n");
  } finally {
    baseline.close();
    system.child.kill("SIGTERM");
    await new Promise(r => system.child.once("exit", r));
    fs.rmSync(system.dataDir, { recursive: true, force: true });
  }
}

main().catch(err => {
  process.stderr.write(`bench failed: ${err instanceof Error ? err.stack : String(err)}\n`);
  process.exit(1);
});
