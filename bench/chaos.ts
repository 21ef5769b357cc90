import { spawn, spawnSync } from "node:child_process";
import path from "node:path";
import readline from "node:readline";
import { projectRoot } from "../lib/project-root";
import { READY_WORD } from "../bin/cluster/banner";
import { Answer, createWithRetries, CreateRecord, topUp } from "./chaos/load";
import { checkInvariants } from "./chaos/checks";
import { counterRound, openCounter, RelayRecord } from "./chaos/relay";
import { idsPerEvent, outboxEvents } from "./chaos/deliveries";
import { Client } from "pg";
import { startReceiver, Receiver } from "../test/helpers/receivers";
import { startSmsInbox, SmsInbox } from "../test/helpers/sms-inbox";

/**
 * `npm run chaos` (issue 46): the services on the local HA stack (`start:cluster -- --ha`), 60 s
 * of creates at c32 with Idempotency-Keys and client retries, top-ups, and a relay point's counter
 * receiving and handing over parcels of the run (chaos/relay.ts), during which the PostgreSQL
 * primary is killed -9 (at 10 s), then one NATS node (30 s), then Redis (45 s). The organisation's
 * webhook endpoint and the SMS gateway are servers in this process. Prints, per fault, the time to
 * the first 201 after it and the answers by status; then checks the invariants and exits 1 when one
 * fails.
 */
const DURATION_MS = Number(process.env.CHAOS_DURATION_MS ?? 60_000);
const CONCURRENCY = Number(process.env.CHAOS_CONCURRENCY ?? 32);
/** Parcels going through the counter at once (each: create, carrier scans, arrival, PIN, hand-over). */
const COUNTER_AGENTS = Number(process.env.CHAOS_COUNTER_AGENTS ?? 8);
/** After the drain period, how long the webhooks may still take to reach the endpoint. */
const WEBHOOK_DRAIN_MS = 120_000;
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

function startCluster(outside: Record<string, string>): Promise<{ ready: Ready; stop: () => Promise<void> }> {
  const child = spawn(process.execPath, [path.join(root, "dist", "bin", "cluster.js"), "--ha", "--fresh-namespace"], {
    env: {
      ...process.env,
      PORT: process.env.CHAOS_PORT ?? "3480",
      DATA_DIR: process.env.CHAOS_DATA_DIR ?? path.join(root, "data", "chaos"),
      LOG_LEVEL: "warn",
      ...outside
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

/** The chaos organisation's endpoint, every event type, on the receiver in this process. */
async function endpoint(base: string, token: string, orgId: string, url: string): Promise<void> {
  const res = await fetch(`${base}/api/backoffice/v1/organizations/${orgId}/webhook-endpoints`, {
    method: "POST",
    headers: { Authorization: `Bearer ${token}`, "Content-Type": "application/json" },
    body: JSON.stringify({ url })
  });
  if (res.status !== 201) throw new Error(`webhook endpoint: ${res.status} ${await res.text()}`);
}

/** Waits (up to WEBHOOK_DRAIN_MS) until every event in the outbox has reached the endpoint at least once. */
async function drainWebhooks(databaseUrl: string, orgId: string, webhooks: Receiver): Promise<void> {
  const db = new Client({ connectionString: databaseUrl });
  await db.connect();
  try {
    const deadline = Date.now() + WEBHOOK_DRAIN_MS;
    while (Date.now() < deadline) {
      const received = idsPerEvent(webhooks.on("/webhooks"));
      if ((await outboxEvents(db, orgId)).every(e => received.has(e.eventId))) return;
      await new Promise(resolve => setTimeout(resolve, 1000));
    }
  } finally {
    await db.end();
  }
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
  const webhooks: Receiver = await startReceiver();
  const sms: SmsInbox = await startSmsInbox();
  // The endpoint is on loopback; the run's counter is COUNTER_AGENTS counters on one agent key, whose
  // budget (120 a minute, sized for one phone) would otherwise answer its retries 429.
  const { ready, stop } = await startCluster({ ...sms.env, WEBHOOK_ALLOW_PRIVATE: "true", RELAY_RATE_LIMIT_PER_MINUTE: "1000000" });
  const databaseUrl = spawnSync("bash", ["-c", `. ${path.join(root, "scripts", "ha", "ha-env.sh")}; ha_database_url`], {
    encoding: "utf8"
  }).stdout.trim();
  const { orgId, key } = await merchant(ready.gateways[0], ready.backofficeToken);
  await endpoint(ready.gateways[0], ready.backofficeToken, orgId, `${webhooks.url}/webhooks`);
  const counter = await openCounter(ready.gateways[0], ready.backofficeToken);
  const relay: RelayRecord[] = [];
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
    toppingUp,
    ...Array.from({ length: COUNTER_AGENTS }, async () => {
      while (Date.now() < end) {
        const record = await counterRound(ready.gateways, ready.backofficeToken, key, counter, sms, { answers, creates }, end + 30_000);
        if (record) relay.push(record);
      }
    })
  ]);
  timers.forEach(clearTimeout);
  // Let the outbox relay and the sweeper settle what the faults left (pending creates, undispatched events).
  await new Promise(resolve => setTimeout(resolve, 45_000));
  await drainWebhooks(databaseUrl, orgId, webhooks);

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
    `\n${creates.length} creates (${created} answered 201, ${retried} retried), ${topUps / 1000} top-ups acknowledged\n`
  );
  const arrived = relay.filter(r => r.arrival?.acknowledged);
  const handedOver = relay.filter(r => r.handover?.acknowledged);
  const retriedOps = relay.flatMap(r => [r.arrival, r.handover]).filter(op => op && op.statuses.length > 1).length;
  process.stdout.write(
    `${relay.length} parcels through the counter: ${arrived.length} arrivals and ${handedOver.length} hand-overs acknowledged ` +
      `(${retriedOps} retried), ${new Set(webhooks.on("/webhooks").map(r => r.headers["webhook-id"])).size} webhooks received ` +
      `(${webhooks.on("/webhooks").length} deliveries)\n\n`
  );

  const results = await checkInvariants(databaseUrl, orgId, creates, { relay, webhooks: webhooks.on("/webhooks") });
  let failed = false;
  for (const [name, violations] of results) {
    failed ||= violations.length > 0;
    process.stdout.write(
      `${violations.length === 0 ? "ok  " : "FAIL"} ${name}${violations.length ? `: ${violations.slice(0, 5).join("; ")}` : ""}\n`
    );
  }
  await stop();
  await Promise.all([webhooks.close(), sms.close()]);
  return failed ? 1 : 0;
}

main().then(
  code => process.exit(code),
  err => {
    process.stderr.write(`chaos: ${(err as Error).stack ?? String(err)}\n`);
    process.exit(2);
  }
);
