import { execFile } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { promisify } from "node:util";
import { shellBlocksOf } from "../helpers/markdown";
import { freePort, ROOT, RunningProcess, startProcess } from "../helpers/processes";

/**
 * docs/merchants/customer-returns.md, "A customer's return, with curl": its shell blocks, as
 * written and in order, against `npm start` (embedded, SMS to a file), as a new merchant would run
 * them. Issue 21, acceptance 1 (returns).
 */

const GUIDE = path.join(ROOT, "docs", "merchants", "customer-returns.md");

describe("the customer returns guide, run as written (npm start)", () => {
  let proc: RunningProcess;
  let dataDir: string;
  let env: Record<string, string>;

  beforeAll(async () => {
    dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "returns-guide-"));
    const port = await freePort();
    proc = startProcess(process.execPath, [path.join(ROOT, "dist", "bin", "start.js")], {
      PORT: String(port),
      DATA_DIR: dataDir,
      SMS_PROVIDER: "file"
    });
    const key = (await proc.waitForOutput(/curl -s -H "Authorization: ApiKey (rp_live_\w+)"/, 60_000))[1];
    const token = (await proc.waitForOutput(/Back-office token \(Authorization: Bearer …\): (\S+)/))[1];
    env = {
      PATH: process.env.PATH ?? "",
      HOME: process.env.HOME ?? "",
      BASE: `http://127.0.0.1:${port}`,
      DATA_DIR: dataDir,
      BO: token,
      KEY: key
    };
  }, 90_000);

  afterAll(async () => {
    await proc?.stop();
    fs.rmSync(dataDir, { recursive: true, force: true });
  });

  test("open, code by SMS, drop-off (charged then), the return parcel collected with its PIN; a second return expires free", async () => {
    const blocks = shellBlocksOf(fs.readFileSync(GUIDE, "utf8"), "## A customer's return, with curl");
    expect(blocks.length).toBeGreaterThanOrEqual(7);
    const script = ["set -euo pipefail", ...blocks].join("\n");
    const { stdout } = await promisify(execFile)("bash", ["-c", script], { env, cwd: dataDir, timeout: 90_000 });

    expect(stdout).toContain('"returnRelayCode": "DZ-16-HYDRA"');
    expect(stdout).toContain('"status":"DELIVERED"');
    expect(stdout).toMatch(/"status": "AWAITING_DROP_OFF",\n\s+"returnCode": "[A-HJKMNP-Z2-9]{8}"/);
    expect(stdout).toMatch(/Retour de votre colis RP\d{9}DZ: .* code de retour [A-HJKMNP-Z2-9]{8}\./);
    expect(stdout).toMatch(/"returnCodeSentAt": "20/);
    expect(stdout).toContain('"status":"READY_FOR_PICKUP","weightG":1200');
    expect(stdout).toContain('"status":"DROPPED_OFF"');
    expect(stdout).toMatch(/\{"type":"RETURN_SHIPMENT","amountDzd":\d+/);
    expect(stdout).toContain('"direction":"RETURN"');
    expect(stdout).toMatch(/collection PIN: \d{6}\n/);
    expect(stdout).toContain("return.created return.dropped_off return.ready_for_collection");
    expect(stdout).toContain('{"status":"EXPIRED","returnParcelId":null}');
    expect(stdout.trimEnd().endsWith("1")).toBe(true);
    const [before, after] = /balance ([\d.]+) -> ([\d.-]+)/.exec(stdout)!.slice(1).map(Number);
    expect(after).toBeLessThan(before);
  }, 120_000);
});
