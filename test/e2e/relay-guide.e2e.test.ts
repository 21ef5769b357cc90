import { execFile } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { promisify } from "node:util";
import { shellBlocksOf } from "../helpers/markdown";
import { freePort, ROOT, RunningProcess, startProcess } from "../helpers/processes";

/**
 * docs/relay-points/guide.md, "A day at the counter": its shell blocks, as written and in order,
 * run with bash against the embedded system started with SMS_PROVIDER=file, as the guide says.
 * A guide whose commands no longer work fails here.
 */

const GUIDE = path.join(ROOT, "docs", "relay-points", "guide.md");

describe("the relay points guide, run as written (npm start)", () => {
  let proc: RunningProcess;
  let dataDir: string;
  let base: string;
  let env: Record<string, string>;

  beforeAll(async () => {
    dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "relay-guide-"));
    const port = await freePort();
    base = `http://127.0.0.1:${port}`;
    proc = startProcess(process.execPath, [path.join(ROOT, "dist", "bin", "start.js")], {
      PORT: String(port),
      DATA_DIR: dataDir,
      SMS_PROVIDER: "file"
    });
    const key = (await proc.waitForOutput(/curl -s -H "Authorization: ApiKey (rp_live_\w+)"/, 60_000))[1];
    const token = (await proc.waitForOutput(/Back-office token \(Authorization: Bearer …\): (\S+)/))[1];
    env = { PATH: process.env.PATH ?? "", HOME: process.env.HOME ?? "", BASE: base, DATA_DIR: dataDir, BO: token, KEY: key };
  }, 90_000);

  afterAll(async () => {
    await proc?.stop();
    fs.rmSync(dataDir, { recursive: true, force: true });
  });

  test("a day at the counter: every block succeeds and the till closes with a difference of 0", async () => {
    const blocks = shellBlocksOf(fs.readFileSync(GUIDE, "utf8"), "## A day at the counter");
    expect(blocks.length).toBeGreaterThanOrEqual(5);
    const script = ["set -euo pipefail", ...blocks].join("\n");
    const { stdout } = await promisify(execFile)("bash", ["-c", script], { env, cwd: dataDir, timeout: 60_000 });

    const me = JSON.parse(stdout.slice(stdout.indexOf("{"), stdout.indexOf("}") + 1));
    expect(me).toEqual({ relayCode: "DZ-16-ALGER-CENTRE", name: expect.any(String), capacity: 150, onShelf: 0, holdingDays: 7 });
    expect(stdout).toContain('"recipientHint": "A. ••56"');
    expect(stdout).toContain('"recipientHint": "K. ••07"');
    expect(stdout).toContain('"status": "DELIVERED"');
    expect(stdout).toContain('"status": "RETURN_PENDING"');
    expect(stdout).toContain('"dispatched": 1');
    const closing = JSON.parse(stdout.slice(stdout.lastIndexOf("{\n")));
    expect(closing).toMatchObject({ expectedDzd: 1500, countedDzd: 1500, differenceDzd: 0, count: 1 });
    // The PIN went to the SMS file, and nowhere in what the counter's calls answered.
    const sms = fs.readFileSync(path.join(dataDir, "sms-outbox.jsonl"), "utf8");
    const pin = /Code de retrait: (\d{6})/.exec(sms)![1];
    expect(stdout).not.toContain(`"${pin}"`);
  }, 90_000);
});
