import { execFile } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { promisify } from "node:util";
import { allShellBlocksOf, shellBlocksOf } from "./markdown";
import { freePort, ROOT, RunningProcess, startProcess } from "./processes";

/**
 * A guide's curl walk, run as a reader would: `npm start` (embedded, SMS to a file, a fresh data
 * folder), the environment its blocks expect (BASE, DATA_DIR, BO, KEY), then one section's ```sh
 * blocks, as written and in order, under `set -euo pipefail`.
 */
export interface GuideSystem {
  env: Record<string, string>;
  dataDir: string;
  /** The section's shell blocks run in one bash; at least `minBlocks` of them. */
  walk(guide: string, heading: string, minBlocks: number): Promise<string>;
  /**
   * Every shell block of the whole page, in order (whatever sections are added later), after
   * `prelude` (shell functions the test defines, e.g. to record each answer's status).
   */
  walkAll(guide: string, minBlocks: number, prelude?: string): Promise<string>;
  stop(): Promise<void>;
}

export async function startForGuide(name: string): Promise<GuideSystem> {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), `${name}-`));
  const port = await freePort();
  const proc: RunningProcess = startProcess(process.execPath, [path.join(ROOT, "dist", "bin", "start.js")], {
    PORT: String(port),
    DATA_DIR: dataDir,
    SMS_PROVIDER: "file"
  });
  const key = (await proc.waitForOutput(/curl -s -H "Authorization: ApiKey (rp_live_\w+)"/, 60_000))[1];
  const token = (await proc.waitForOutput(/Back-office token \(Authorization: Bearer …\): (\S+)/))[1];
  // The demo network's staff keys, printed under the demo keys (issue 44): the network guide uses them.
  const courierKey = (await proc.waitForOutput(/courier key: (rp_staff_\w+)/))[1];
  const hubKey = (await proc.waitForOutput(/hub key: +(rp_staff_\w+)/))[1];
  const base = `http://127.0.0.1:${port}`;
  const env = {
    PATH: process.env.PATH ?? "",
    HOME: process.env.HOME ?? "",
    BASE: base,
    DATA_DIR: dataDir,
    BO: token,
    KEY: key,
    COURIER_KEY: courierKey,
    HUB_KEY: hubKey
  };
  const runBlocks = async (blocks: string[]) => {
    const script = ["set -euo pipefail", ...blocks].join("\n");
    const { stdout } = await promisify(execFile)("bash", ["-c", script], { env, cwd: dataDir, timeout: 90_000 });
    return stdout;
  };
  return {
    env,
    dataDir,
    async walk(guide, heading, minBlocks) {
      const blocks = shellBlocksOf(fs.readFileSync(path.join(ROOT, guide), "utf8"), heading);
      expect(blocks.length).toBeGreaterThanOrEqual(minBlocks);
      return runBlocks(blocks);
    },
    async walkAll(guide, minBlocks, prelude = "") {
      const blocks = allShellBlocksOf(fs.readFileSync(path.join(ROOT, guide), "utf8"));
      expect(blocks.length).toBeGreaterThanOrEqual(minBlocks);
      return runBlocks([prelude, ...blocks]);
    },
    async stop() {
      await proc.stop();
      fs.rmSync(dataDir, { recursive: true, force: true });
    }
  };
}
