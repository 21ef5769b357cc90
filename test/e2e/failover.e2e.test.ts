import { spawnSync } from "node:child_process";
import os from "node:os";
import path from "node:path";
import { randomBytes } from "node:crypto";
import { checkInvariants } from "../../bench/chaos/checks";
import { Answer, createWithRetries, CreateRecord } from "../../bench/chaos/load";
import { merchants } from "./merchant-helpers";
import { inProcessSystem } from "../helpers/in-process-system";
import { ROOT } from "../helpers/processes";

/**
 * Issue 46, the CI's short failover (the long one is `npm run chaos`): the system on the local HA
 * stack (scripts/ha: Patroni's three PostgreSQL nodes in synchronous mode behind HAProxy, three
 * NATS servers), 200 creates at c8 with Idempotency-Keys and retries, and the PostgreSQL primary
 * killed -9 once 50 of them were acknowledged. Then: every 201 exists once under its key, no key
 * made two parcels, the money invariant holds, every event reached the outbox and was dispatched.
 * The stack gets ports and a directory of its own, so that it never meets a running one.
 */
const TOOLS = ["patroni", "etcd", "haproxy", "nats-server", "redis-server"];
const missing = TOOLS.filter(tool => spawnSync("sh", ["-c", `command -v ${tool}`]).status !== 0);
if (missing.length > 0 && process.env.CI === "true")
  throw new Error(`the failover test needs ${missing.join(", ")} (.ci/run installs them)`);
if (missing.length > 0) process.stderr.write(`\n[notice] failover test skipped: ${missing.join(", ")} not installed\n`);

const HA_ENV = {
  HA_DIR: path.join(os.tmpdir(), `relay-ha-test-${randomBytes(4).toString("hex")}`),
  HA_ETCD_PORT: "23890",
  HA_PG_PORT: "5450",
  HA_PG_NODE_PORTS: "5451 5452 5453",
  HA_PATRONI_PORTS: "8111 8112 8113",
  HA_NATS_PORTS: "4241 4242 4243",
  HA_NATS_ROUTE_PORTS: "6241 6242 6243",
  HA_REDIS_PORT: "6391"
};
const ha = (script: string, ...args: string[]) =>
  spawnSync("bash", [path.join(ROOT, "scripts", "ha", script), ...args], { encoding: "utf8", env: { ...process.env, ...HA_ENV } });

(missing.length === 0 ? describe : describe.skip)("a PostgreSQL primary killed under creates (HA stack)", () => {
  let stack: Record<string, string> = {};
  // Before the system's own beforeAll (hooks run in order), with the time an election of three takes.
  beforeAll(() => {
    const started = ha("start.sh");
    if (started.status !== 0) throw new Error(`scripts/ha/start.sh failed:\n${started.stderr}`);
    stack = Object.fromEntries(
      started.stdout
        .trim()
        .split("\n")
        .map(line => line.split(/=(.*)/s).slice(0, 2) as [string, string])
    );
  }, 180_000);
  const sut = inProcessSystem(async () => {
    return {
      env: { ...stack, NAMESPACE: `relay-ha-${randomBytes(3).toString("hex")}`, DATABASE_POOL_SIZE: "8" },
      url: stack.DATABASE_URL,
      drop: async () => void ha("stop.sh", "--clean")
    };
  });
  const m = merchants(sut.system);

  test("200 creates, one primary kill: nothing acknowledged is lost, nothing retried is doubled, money holds", async () => {
    const merchant = await m.create("Failover SARL", 1_000_000);
    const key = (await m.bo().createKey(merchant.orgId, { rateLimitPerMinute: 100_000 })).key;
    const answers: Answer[] = [];
    const creates: CreateRecord[] = [];
    let next = 0;
    let killed = "";
    const giveUpAt = Date.now() + 120_000;
    await Promise.all(
      Array.from({ length: 8 }, async () => {
        while (next < 200) {
          next++;
          const record = await createWithRetries([sut.system().baseUrl], key, answers, giveUpAt);
          creates.push(record);
          if (!killed && creates.filter(c => c.parcelId).length >= 50) killed = ha("kill.sh", "pg-primary").stdout.trim() || "none";
        }
      })
    );
    expect(killed).toMatch(/^pg[123]$/);
    // Every create was answered 201 in the end: the client's retries carried it over the election.
    expect(creates.filter(c => c.parcelId === null).map(c => c.statuses)).toEqual([]);
    // Some were refused with 503 meanwhile (and never with a 500).
    expect(answers.some(a => a.status === 503)).toBe(true);
    expect(answers.filter(a => a.status === 500)).toEqual([]);
    // The outbox relay and the sweeper settle what the kill left: wait until the outbox is drained.
    let results = await checkInvariants(stack.DATABASE_URL, merchant.orgId, creates);
    for (let i = 0; i < 60 && results.some(([, violations]) => violations.length > 0); i++) {
      await new Promise(resolve => setTimeout(resolve, 500));
      results = await checkInvariants(stack.DATABASE_URL, merchant.orgId, creates);
    }
    expect(Object.fromEntries(results)).toEqual(Object.fromEntries(results.map(([name]) => [name, []])));
  }, 240_000);
});
