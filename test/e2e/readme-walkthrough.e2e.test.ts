import { execFile } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { http } from "../helpers/http";
import { documentationFiles, markedBlocks } from "../helpers/markdown";
import { freePort, ROOT, RunningProcess, startProcess } from "../helpers/processes";

/**
 * Issue 20: the README's first parcel, the getting-started guide after it, then every block of docs/
 * marked `<!-- runnable -->`, are run as written —
 * real bash, real curl — against `npm start`, so that the commands a newcomer pastes first cannot
 * drift from the code. Only what `npm start` prints is put in: the keys and token the documents'
 * `export` lines stand in for, and the port.
 */

const readText = (file: string) => fs.readFileSync(path.join(ROOT, file), "utf8");
const README = readText("README.md");
const GETTING_STARTED = readText("docs/merchants/getting-started.md");
const DOCUMENTED_BASE = "http://localhost:3000";

interface Printed {
  liveKey: string;
  sandboxKey: string;
  backofficeToken: string;
}

/** `export KEY=rp_sandbox_…` stands for the value npm start printed that starts with `rp_sandbox_`. */
function printedValue(placeholder: string, printed: Printed): string {
  const value = [printed.sandboxKey, printed.liveKey, printed.backofficeToken].find(v => placeholder !== "" && v.startsWith(placeholder));
  if (!value) throw new Error(`a documented export stands for "${placeholder}…", which npm start does not print`);
  return value;
}

/** The shell text of the blocks, with each placeholder export given its printed value and the documented port ours. */
function runnable(code: string, printed: Printed, port: number): { script: string; exported: Record<string, string> } {
  const exported: Record<string, string> = {};
  const script = code
    .replace(/^export (\w+)=(\S*)….*$/gm, (_line, name: string, placeholder: string) => {
      exported[name] = printedValue(placeholder, printed);
      return `export ${name}='${exported[name]}'`;
    })
    .split(DOCUMENTED_BASE)
    .join(`http://localhost:${port}`);
  return { script, exported };
}

interface Run {
  code: number;
  stdout: string;
  stderr: string;
  /** One per curl request made, in order, from curl's own report. */
  answers: Array<{ status: number; method: string; url: string }>;
}

/** Runs the script in bash with `curl` reporting each answer's status on stderr (the commands' own output untouched). */
function runInBash(script: string, cwd: string, env: Record<string, string>): Promise<Run> {
  const reportingCurl = `curl() { command curl -w '%{stderr}HTTP %{http_code} %{method} %{url_effective}\\n' "$@"; }`;
  const full = ["set -euo pipefail", reportingCurl, script].join("\n");
  return new Promise(resolve => {
    execFile("bash", ["-c", full], { cwd, env: { PATH: process.env.PATH ?? "", HOME: os.tmpdir(), ...env } }, (error, stdout, stderr) => {
      const answers = [...stderr.matchAll(/^HTTP (\d{3}) (\S+) (\S+)$/gm)].map(m => ({ status: Number(m[1]), method: m[2], url: m[3] }));
      resolve({ code: error ? Number(error.code ?? 1) : 0, stdout, stderr, answers });
    });
  });
}

/** The curl commands written in the documents (one in a loop is written once and runs more often). */
const curlCommands = (code: string) => (code.match(/\bcurl\b/g) ?? []).length;

/** A README banner line as a pattern: `<name>` and `prefix…` stand for printed values, the port is ours. */
function bannerLinePattern(line: string, port: number): RegExp {
  const parts = line.split(/(<[^>]+>|[A-Za-z0-9_]+…)/);
  const pattern = parts
    .map((part, i) => {
      if (i % 2 === 0)
        return part
          .split(DOCUMENTED_BASE)
          .join(`http://localhost:${port}`)
          .replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
      return part.startsWith("<") ? "\\S+" : `${part.slice(0, -1)}\\S+`;
    })
    .join("");
  return new RegExp(`^${pattern}$`, "m");
}

describe("the README's first parcel, run as written against npm start", () => {
  let proc: RunningProcess;
  let dataDir: string;
  let workDir: string;
  let port: number;
  let printed: Printed;
  let exported: Record<string, string> = {};

  beforeAll(async () => {
    dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "relay-readme-data-"));
    workDir = fs.mkdtempSync(path.join(os.tmpdir(), "relay-readme-work-"));
    port = await freePort();
    // `npm start` without its prestart build: the run built dist/ already, and a second tsc writing
    // dist/ while other suites' processes load it could hand them a half-written file.
    proc = startProcess("npm", ["start", "--silent", "--ignore-scripts"], { PORT: String(port), DATA_DIR: dataDir });
    // A guard, not a measure: a machine shared by several runs has taken minutes to start everything.
    await proc.waitForOutput(/^Wallets: .*$/m, 240_000);
    const out = proc.output();
    const found = (pattern: RegExp) => {
      const match = pattern.exec(out);
      if (!match) throw new Error(`npm start did not print ${pattern}:\n${out.slice(-3000)}`);
      return match[1];
    };
    printed = {
      liveKey: found(/live key:\s+(rp_live_\w+)/),
      sandboxKey: found(/sandbox key:\s+(rp_sandbox_\w+)/),
      backofficeToken: found(/Back-office token \(Authorization: Bearer …\): (\S+)/)
    };
  }, 270_000);

  afterAll(async () => {
    await proc?.stop();
    fs.rmSync(dataDir, { recursive: true, force: true });
    fs.rmSync(workDir, { recursive: true, force: true });
  });

  test("the banner the README shows is what npm start prints, line by line", () => {
    const [banner] = markedBlocks(README, "first-parcel-banner");
    const lines = banner.code.split("\n").filter(line => line.trim() !== "");
    expect(lines.length).toBeGreaterThan(5);
    const missing = lines.filter(line => !bannerLinePattern(line, port).test(proc.output()));
    expect(missing).toEqual([]);
  });

  test("the README's commands run, every curl answers 2xx, the parcel exists and its label is a PDF", async () => {
    const blocks = markedBlocks(README, "first-parcel");
    expect(blocks.length).toBeGreaterThanOrEqual(4);
    expect(blocks.map(b => b.language)).toEqual(blocks.map(() => "sh"));
    const code = blocks.map(b => b.code).join("\n");
    const prepared = runnable(code, printed, port);
    exported = prepared.exported;
    expect(Object.keys(exported)).toContain("KEY");

    const run = await runInBash(prepared.script, workDir, exported);
    expect({ code: run.code, stderr: run.stderr }).toEqual({ code: 0, stderr: expect.any(String) });
    expect(run.answers.length).toBe(curlCommands(code));
    expect(run.answers.filter(answer => answer.status < 200 || answer.status > 299)).toEqual([]);
    expect(run.answers.map(a => `${a.method} ${new URL(a.url).pathname}`)).toEqual(
      expect.arrayContaining([
        "GET /api/partner/v1/health",
        "POST /api/partner/v1/parcels",
        expect.stringMatching(/^GET \/labels\/[\w-]+\.pdf$/)
      ])
    );

    const parcel = JSON.parse(fs.readFileSync(path.join(workDir, "parcel.json"), "utf8"));
    expect(parcel).toMatchObject({ status: "CREATED", codAmountDzd: 1500, trackingNumber: expect.stringMatching(/^RP\d{9}DZ$/) });
    const read = await http(`http://127.0.0.1:${port}`, "GET", `/api/partner/v1/parcels/${parcel.id}`, {
      headers: { Authorization: `ApiKey ${printed.sandboxKey}` }
    });
    expect(read.status).toBe(200);
    expect(fs.readFileSync(path.join(workDir, "label.pdf")).subarray(0, 5).toString("latin1")).toBe("%PDF-");
    expect(run.stdout).toContain("%PDF-");
  }, 180_000);

  test("then Getting started's commands, in the same folder: the parcel is delivered and its COD collected", async () => {
    const blocks = markedBlocks(GETTING_STARTED, "runnable");
    expect(blocks.length).toBeGreaterThanOrEqual(2);
    const code = blocks.map(b => b.code).join("\n");
    const prepared = runnable(code, printed, port);
    const parcel = JSON.parse(fs.readFileSync(path.join(workDir, "parcel.json"), "utf8"));

    // The reader still has what the README's steps exported.
    const run = await runInBash(prepared.script, workDir, { ...exported, ...prepared.exported });
    expect({ code: run.code, stderr: run.stderr }).toEqual({ code: 0, stderr: expect.any(String) });
    expect(run.answers.length).toBeGreaterThanOrEqual(curlCommands(code));
    expect(run.answers.filter(answer => answer.status < 200 || answer.status > 299)).toEqual([]);

    const read = await http(`http://127.0.0.1:${port}`, "GET", `/api/partner/v1/parcels/${parcel.id}`, {
      headers: { Authorization: `ApiKey ${printed.sandboxKey}` }
    });
    expect(read.body).toMatchObject({ status: "DELIVERED", codStatus: "COLLECTED" });
    expect(run.stdout).toContain(`"trackingNumber":"${parcel.trackingNumber}"`);
  }, 180_000);

  test("then every other runnable block of docs/, file by file: every curl answers 2xx, no batch item fails", async () => {
    const files = documentationFiles().filter(f => f.startsWith("docs/") && f !== "docs/merchants/getting-started.md");
    const runnableFiles = files.filter(f => markedBlocks(readText(f), "runnable").length > 0);
    expect(runnableFiles).toContain("docs/merchants/api-guide.md");
    for (const file of runnableFiles) {
      const code = markedBlocks(readText(file), "runnable")
        .map(b => b.code)
        .join("\n");
      const prepared = runnable(code, printed, port);
      const run = await runInBash(prepared.script, workDir, { ...exported, ...prepared.exported });
      expect({ file, code: run.code, stderr: run.stderr }).toEqual({ file, code: 0, stderr: expect.any(String) });
      expect({ file, calls: run.answers.length >= curlCommands(code) }).toEqual({ file, calls: true });
      expect({ file, refused: run.answers.filter(answer => answer.status < 200 || answer.status > 299) }).toEqual({ file, refused: [] });
      // A batch answers 200 whatever its items do: a documented batch must not fail an item.
      expect({ file, failedItems: /"failed":[1-9]/.test(run.stdout) }).toEqual({ file, failedItems: false });
    }
  }, 180_000);
});
