import { randomBytes } from "node:crypto";
import { PGlite } from "@electric-sql/pglite";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { backoffice, partner } from "../helpers/http";
import { checkMoneyInvariant } from "../helpers/money-invariant";
import { waitFor } from "../helpers/parcel-events";
import { freePort, ROOT, RunningProcess, startProcess } from "../helpers/processes";

const PARCEL = {
  recipientName: "Crash Fenêtre",
  recipientPhone: "0555 00 00 00",
  weightG: 700,
  destinationRelayCode: "DZ-16-ALGER-CENTRE"
};
const CONCURRENT_CREATES = 200;
/**
 * Debits committed before the kill: the wallet's fault point holds the group that reaches it
 * (services/wallet/fault-points.ts), the creates behind it are in flight. Above GROUP_COMMIT_MAX_BATCH (64), so
 * that groups before the held one were answered and their parcels finished (cutAfterDebit needs them).
 */
const DEBITS_BEFORE_KILL = 100;

/** How many of the newest parcels are put back in the state a kill between debit and finish leaves. */
const CUT_AFTER_DEBIT = 5;

/**
 * A SIGKILL lands between a create's debit and its finish only now and then (the embedded engine
 * commits in groups, and a dead process's last answers are mostly whole creates). So that every
 * run covers that window, the newest parcels are put back in exactly the state such a kill leaves:
 * debited, the row still PENDING, no history line, no event (what finishCreation's transaction
 * had not yet written). Returns their ids.
 */
async function cutAfterDebit(pgdata: string): Promise<string[]> {
  const db = await PGlite.create(pgdata);
  try {
    const { rows } = await db.query<{ id: string }>(
      `SELECT p.id FROM parcels.parcels p JOIN wallet.ledger l ON l.parcel_id = p.id AND l.kind = 'debit'
        WHERE p.status = 'CREATED' ORDER BY p.created_at DESC LIMIT ${CUT_AFTER_DEBIT}`
    );
    const ids = rows.map(r => r.id);
    await db.transaction(async tx => {
      await tx.query("UPDATE parcels.parcels SET status = 'PENDING' WHERE id = ANY($1)", [ids]);
      await tx.query("DELETE FROM parcels.status_history WHERE parcel_id = ANY($1)", [ids]);
      await tx.query("DELETE FROM parcels.outbox WHERE parcel_id = ANY($1)", [ids]);
    });
    return ids;
  } finally {
    await db.close();
  }
}

/**
 * Issue 23, acceptance 3: SIGKILL in the middle of concurrent creates (no Idempotency-Key, as a
 * careless client sends them), then a restart with the default sweeper settings (a PENDING row is
 * settled by the sweeper only once 30 s old). From the restarted system's first answers, every
 * debit in the merchant's ledger has its visible parcel: the creates cut short were settled
 * before the service took any request, not some time later.
 *
 * The kill's moment is set up, not raced (issue 26): a test-only fault point (TEST_HOLD_DEBITS_FILE)
 * holds the wallet's debit group that brings the committed debits to DEBITS_BEFORE_KILL, after its
 * commit and before its answers, and the test kills when the process logs that it holds it: debits
 * committed, their creates unanswered, the others queued behind them — on a fast machine or a slow one.
 */
describe("crash window: SIGKILL during concurrent creates (embedded)", () => {
  let proc: RunningProcess;
  let dataDir: string;
  let env: Record<string, string>;
  const token = `bo_${randomBytes(16).toString("hex")}`;

  beforeAll(async () => {
    dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "relay-crash-window-"));
    env = { PORT: String(await freePort()), DATA_DIR: dataDir, BACKOFFICE_TOKEN: token, TEST_HOLD_DEBITS_FILE: holdFile() };
    await start();
  }, 200_000);

  afterAll(async () => {
    await proc?.stop();
    fs.rmSync(dataDir, { recursive: true, force: true });
  });

  const base = () => `http://127.0.0.1:${env.PORT}`;
  const holdFile = () => path.join(dataDir, "hold-debits");

  /** `node dist/bin/start.js`, kept in `proc` before it is up so that afterAll stops it whatever happens. */
  async function start(): Promise<void> {
    proc = startProcess(process.execPath, [path.join(ROOT, "dist", "bin", "start.js")], env);
    // A loaded CI machine migrates a fresh embedded database slowly: a generous wait, no timing assertion.
    await proc.waitForOutput(/ServiceBroker with \d+ service\(s\) started successfully/, 180_000);
  }

  /** Every item of a paged list, page after page. */
  async function all<T>(call: ReturnType<typeof partner>, listPath: string): Promise<T[]> {
    const items: T[] = [];
    for (let page = 0; ; page++) {
      const res = await call("GET", `${listPath}${listPath.includes("?") ? "&" : "?"}size=100&page=${page}`);
      expect(res.status).toBe(200);
      items.push(...(res.body.items as T[]));
      if (page + 1 >= res.body.totalPages) return items;
    }
  }

  test("from the first answer after the restart, every debit has its visible parcel", async () => {
    const bo = backoffice(base(), token);
    const org = await bo.createOrganization("Fenêtre de Crash SARL");
    const { key } = await bo.createKey(org.id, { rateLimitPerMinute: 100_000 });
    expect((await bo.call("POST", `/organizations/${org.id}/wallet/top-ups`, { amountDzd: 1_000_000 })).status).toBe(201);

    let answered = 0;
    const logMark = proc.output().length;
    fs.writeFileSync(holdFile(), String(DEBITS_BEFORE_KILL));
    const creates = Array.from({ length: CONCURRENT_CREATES }, () =>
      fetch(`${base()}/api/partner/v1/parcels`, {
        method: "POST",
        headers: { Authorization: `ApiKey ${key}`, "Content-Type": "application/json" },
        body: JSON.stringify(PARCEL)
      })
        .then(res => res.arrayBuffer())
        .then(
          () => answered++,
          () => undefined
        )
    );
    await waitFor(
      () => proc.output().slice(logMark),
      log => log.includes("fault point: holding"),
      180_000
    );
    // The groups before the held one answer on their own; enough of them to cut after their debit.
    await waitFor(
      () => answered,
      n => n >= CUT_AFTER_DEBIT,
      180_000
    );
    await proc.stop("SIGKILL");
    fs.rmSync(holdFile());
    await Promise.all(creates);
    expect(answered).toBeLessThan(CONCURRENT_CREATES);
    const cut = await cutAfterDebit(path.join(dataDir, "pgdata"));
    expect(cut).toHaveLength(CUT_AFTER_DEBIT);

    await start();
    const call = partner(base(), key);
    const entries = await all<{ type: string; parcelId: string | null }>(call, "/wallet/entries");
    const parcels = await all<{ id: string }>(call, "/parcels");
    const refunded = new Set(entries.filter(e => e.type === "REFUND").map(e => e.parcelId));
    const charged = entries.filter(e => e.type === "DEBIT" && !refunded.has(e.parcelId)).map(e => e.parcelId);
    const visible = new Set(parcels.map(p => p.id));
    expect(charged.length).toBeGreaterThanOrEqual(DEBITS_BEFORE_KILL);
    expect(charged.filter(id => !visible.has(id!))).toEqual([]);
    expect(cut.filter(id => !visible.has(id))).toEqual([]);
    expect(parcels.length).toBe(charged.length);

    await proc.stop();
    const report = await checkMoneyInvariant({ pgliteDir: path.join(dataDir, "pgdata") });
    expect(report.violations).toEqual([]);
    expect(report.pending).toBe(0);
  }, 400_000);
});
