import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { http } from "../helpers/http";
import { freePort, ROOT, RunningProcess, startProcess } from "../helpers/processes";

/** The first curl line of the banner, the one a newcomer pastes. */
const CURL_LINE = /^ {2}curl -s -H "Authorization: ApiKey rp_live_\w+" http:\/\/\S+\/api\/partner\/v1\/health$/m;
const MAX_LINES_TO_CURL = 40;
/** How long the screen is watched after the banner, doing nothing: a wait, not a measured duration. */
const SETTLE_MS = 3_000;

/**
 * Issue 20, acceptance 3, and issue 23, acceptance 1: what `npm start` shows on a fresh data
 * folder at the default level. The version, the mode, the URLs, the demo keys and a curl line fit
 * on one screen; no line of the start-up carries a request id; nothing is logged at info after the
 * banner until a request comes; and the SSRF guard is on (the banner says how to open it).
 */
describe("the first screen of npm start (fresh data folder, default log level)", () => {
  let proc: RunningProcess;
  let dataDir: string;
  let base: string;
  let token: string;
  let banner: string;

  beforeAll(async () => {
    dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "relay-first-screen-"));
    const port = await freePort();
    base = `http://127.0.0.1:${port}`;
    // What `npm start` runs once it has built: only a port and a data folder, the level left to its default.
    proc = startProcess(process.execPath, [path.join(ROOT, "dist", "bin", "start.js")], { PORT: String(port), DATA_DIR: dataDir });
    await proc.waitForOutput(CURL_LINE, 180_000);
    // The banner is written at once; the lines after the curl line may come in the same breath.
    await proc.waitForOutput(/\/api\/partner\/v1\/parcels\n/, 10_000);
    banner = proc.output();
    token = /Back-office token \(Authorization: Bearer …\): (\S+)/.exec(banner)![1];
  }, 200_000);

  afterAll(async () => {
    await proc?.stop();
    fs.rmSync(dataDir, { recursive: true, force: true });
  });

  const linesToCurl = () => {
    const lines = banner.split("\n");
    return lines.slice(0, lines.findIndex(line => CURL_LINE.test(line)) + 1);
  };

  test(`at most ${MAX_LINES_TO_CURL} lines up to the curl line: version, mode, URLs, demo keys`, () => {
    const screen = linesToCurl();
    // The screen itself in the report when it is too long.
    expect({ tooLong: screen.length > MAX_LINES_TO_CURL, screen }).toEqual({ tooLong: false, screen });
    const text = screen.join("\n");
    expect(text).toMatch(/relay-parcels is running: version \d+\.\d+\.\d+, embedded mode/);
    for (const label of ["Partner API", "API reference", "Tracking page", "Back-office API", "Metrics"]) {
      expect(text).toMatch(new RegExp(`^ {2}${label} +\\S`, "m"));
    }
    expect(text).toMatch(/^ {2}sandbox key: rp_sandbox_\w+$/m);
    expect(text).toMatch(/^ {2}Back-office token \(Authorization: Bearer …\): \S+$/m);
    // The route table is for LOG_LEVEL=debug.
    expect(text).not.toMatch(/=> \w+\.\w+/);
  });

  test("no start-up line carries a request id", () => {
    expect(banner).not.toContain("[req=");
  });

  test("nothing at info after the banner until a request comes", async () => {
    await new Promise(resolve => setTimeout(resolve, SETTLE_MS));
    const afterBanner = proc.output().slice(banner.length);
    expect(afterBanner.split("\n").filter(line => / INFO /.test(line))).toEqual([]);
  });

  test("the SSRF guard is on: the banner gives the line that opens it, and a loopback webhook URL is a 400", async () => {
    expect(banner).toContain("\n  WEBHOOK_ALLOW_PRIVATE=true npm start\n");
    const bo = { Authorization: `Bearer ${token}` };
    const org = await http(base, "POST", "/api/backoffice/v1/organizations", { headers: bo, body: { name: "Garde SSRF" } });
    expect(org.status).toBe(201);
    for (const url of ["http://127.0.0.1:9/hook", "http://localhost:9/hook", "http://[::1]:9/hook"]) {
      const res = await http(base, "PUT", `/api/backoffice/v1/organizations/${org.body.id}/webhook`, {
        headers: bo,
        body: { url, secret: "s".repeat(32) }
      });
      expect({ url, status: res.status, code: res.body.code }).toEqual({ url, status: 400, code: "VALIDATION_FAILED" });
      expect(res.body.details[0].message).toMatch(/\(loopback\)$/);
    }
  });
});
