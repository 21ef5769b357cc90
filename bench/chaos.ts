import { spawn, spawnSync } from "node:child_process";
import path from "node:path";
import readline from "node:readline";
import { projectRoot } from "../lib/project-root";
import { READY_WORD } from "../bin/cluster/banner";
import { Answer, createWithRetries, CreateRecord, topUp } from "./chaos/load";
import { checkInvariants } from "./chaos/checks";

/**
 * `npm run chaos` (issue 46): the services on the local HA stack (`start:cluster -- --ha`), 60 s
 * of creates at c32 with Idempotency-Keys and client retries plus top-ups, during which the
 * PostgreSQL primary is killed -9 (at 10 s), then one NATS node (30 s), then Redis (45 s). Prints,
 * per fault, the time to the first 201 after it and the answers by status; then checks the
 * invariants and exits 1 when one fails. Relay arrivals and hand-overs are not in the load yet.
 */
const DURATION_MS = Number(process.env.CHAOS_DURATION_MS ?? 60_000);
const CONCURRENCY = Number(process.env.CHAOS_CONCURRENCY ?? 32);
const FAULTS: Array<{ at: number; name: string; args: string[]; revive?: { after: number; args: (killed: string) => string[] } }> = [
  { at: 10_000, name: "PostgreSQL primary (kill -9)", args: ["pg-primary"], revive: { after: 10_000, args: killed => ["revive", killed] } },
  { at: 30_000, name: "NATS node 2 (kill -9)", args: ["nats", "2"], revive: { after: 10_000, args: () => ["revive", "nats2"] } },
  { at: 45_000, name: "Redis (kill -9)", args: ["redis"], revive: { after: 5_000, args: () => ["revive", "redis"] } }
];

const root = projectRoot();
const ha = (args: string[]) =>
  spawnSync("bash", [path.join(root, "scripts", "ha", "kill.sh"), ...args], { encoding: "utf8" }).stdout.trim();

interface Ready {
  gateways: string[];
  backofficeToken: string;
}

function startCluster(): Promise<{ ready: Ready; stop: () => Promise<void> }> {
  const child = spawn(process.execPath, [path.join(root, "dist", "bin", "cluster.js"), "--ha", "--fresh-namespace"], {
    env: {
      ...process.env,
      PORT: process.env.CHAOS_PORT ?? "3480",
      DATA_DIR: process.env.CHAOS_DATA_DIR ?? path.join(root, "data", "chaos"),
      LOG_LEVEL: "warn"
    },
    stdio: ["ignore", "pipe", "inherit"]
  });
  const stop = () =>
    new Promise<void>(resolve => {
      child.once("exit", () => resolve());
      child.kill("SIGINT");
    });
  return new Promise((resolve, reject) => {
    child.once("exit", code => reject(new Error(`the cluster exited (${code}) before it was ready`)));
    readline.createInterface({ input: child.stdout }).on("line", line => {
      const at = line.indexOf(READY_WORD);
      if (at >= 0) resolve({ ready: JSON.parse(line.slice(at + READY_WORD.length)) as Ready, stop });
    });
  });
}

async function merchant(base: string, token: string): Promise<{ orgId: string; key: string }> {
  const bo = async (p: string, body: unknown) => {
    const res = await fetch(`${base}/api/backoffice/v1${p}`, {
      method: "POST",
      headers: { Authorization: `Bearer ${token}`, "Content-Type": "application/json" },
      body: JSON.stringify(body)
    });
    if (res.status !== 201) throw new Error(`${p}: ${res.status} ${await res.text()}`);
    return (await res.json()) as { id: string; key: string };
  };
  const org = await bo("/organizations", { name: `Chaos ${Date.now()}` });
  const key = await bo(`/organizations/${org.id}/api-keys`, { mode: "live", rateLimitPerMinute: 1_000_000 });
  await bo(`/organizations/${org.id}/wallet/top-ups`, { amountDzd: 10_000_000 });
  return { orgId: org.id, key: key.key };
}

function summary(answers: Answer[], from: number, to: number): string {
  const counts = new Map<number, number>();
  for (const a of answers) if (a.at >= from && a.at < to) counts.set(a.status, (counts.get(a.status) ?? 0) + 1);
  return [...counts]
    .sort(([x], [y]) => x - y)
    .map(([status, n]) => `${status === 0 ? "no answer" : status}: ${n}`)
    .join(", ");
}

async function main(): Promise<number> {
  const { ready, stop } = await startCluster();
  const databaseUrl = spawnSync("bash", ["-c", `. ${path.join(root, "scripts", "ha", "ha-env.sh")}; ha_database_url`], {
    encoding: "utf8"
  }).stdout.trim();
  const { orgId, key } = await merchant(ready.gateways[0], ready.backofficeToken);
  const answers: Answer[] = [];
  const creates: CreateRecord[] = [];
  const start = Date.now();
  const end = start + DURATION_MS;
  const faultTimes: Array<{ name: string; at: number; member: string }> = [];

  const timers = FAULTS.map(fault =>
    setTimeout(() => {
      const member = ha(fault.args);
      faultTimes.push({ name: fault.name, at: Date.now(), member });
      process.stdout.write(`chaos: ${Math.round((Date.now() - start) / 1000)} s: killed ${member}\n`);
      if (fault.revive) setTimeout(() => ha(fault.revive!.args(member)), fault.revive.after);
    }, fault.at)
  );
  let topUps = 0;
  const toppingUp = (async () => {
    while (Date.now() < end) {
      topUps += await topUp(ready.gateways[0], ready.backofficeToken, orgId, answers);
      await new Promise(resolve => setTimeout(resolve, 500));
    }
  })();
  await Promise.all([
    ...Array.from({ length: CONCURRENCY }, async () => {
      while (Date.now() < end) creates.push(await createWithRetries(ready.gateways, key, answers, end + 30_000));
    }),
    toppingUp
  ]);
  timers.forEach(clearTimeout);
  // Let the outbox relay and the sweeper settle what the faults left (pending creates, undispatched events).
  await new Promise(resolve => setTimeout(resolve, 45_000));

  process.stdout.write(
    `\n| fault | writes failing for | first successful write after the fault | answers until the next fault |\n|---|---|---|---|\n`
  );
  faultTimes.forEach((fault, i) => {
    const next = faultTimes[i + 1]?.at ?? end;
    const window = answers.filter(a => a.at >= fault.at && a.at < next).sort((a, b) => a.at - b.at);
    const firstError = window.find(a => a.status !== 201 && a.status !== 200);
    // The first write sent after the failures began and acknowledged: the service is back for new requests.
    const back = firstError ? window.find(a => a.status === 201 && a.sentAt >= firstError.at) : window.find(a => a.status === 201);
    const failing = firstError ? `${(((back?.at ?? next) - firstError.at) / 1000).toFixed(1)} s` : "none";
    const ttfw = back ? `${((back.at - fault.at) / 1000).toFixed(1)} s` : "none";
    process.stdout.write(`| ${fault.name} (${fault.member}) | ${failing} | ${ttfw} | ${summary(answers, fault.at, next)} |\n`);
  });
  const created = creates.filter(c => c.parcelId !== null).length;
  const retried = creates.filter(c => c.statuses.length > 1).length;
  process.stdout.write(
    `\n${creates.length} creates (${created} answered 201, ${retried} retried), ${topUps / 1000} top-ups acknowledged\n\n`
  );

  const results = await checkInvariants(databaseUrl, orgId, creates);
  let failed = false;
  for (const [name, violations] of results) {
    failed ||= violations.length > 0;
    process.stdout.write(
      `${violations.length === 0 ? "ok  " : "FAIL"} ${name}${violations.length ? `: ${violations.slice(0, 5).join("; ")}` : ""}\n`
    );
  }
  await stop();
  return failed ? 1 : 0;
}

main().then(
  code => process.exit(code),
  err => {
    process.stderr.write(`chaos: ${(err as Error).stack ?? String(err)}\n`);
    process.exit(2);
  }
);
