import { ChildProcess, spawn } from "node:child_process";
import { randomBytes } from "node:crypto";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";

export const ROOT = path.resolve(__dirname, "..", "..");
/** Compiled bench scripts live beside this file in dist/bench. */
export const BENCH_DIST = __dirname;

/** A clean environment plus `extra`: a developer's DATABASE_URL or TRANSPORTER must not leak into a run. */
export function cleanEnv(extra: Record<string, string>): NodeJS.ProcessEnv {
  return { PATH: process.env.PATH ?? "", HOME: process.env.HOME ?? "", ...extra };
}

export interface Service {
  name: string;
  child: ChildProcess;
  pid: number;
  logFile: string;
  log(): string;
  stop(): Promise<void>;
}

/**
 * Starts a long-running process whose output goes to a file, not a pipe: reading a pipe would cost
 * the orchestrator CPU on a machine where every cycle is measured.
 */
export function startService(name: string, command: string, args: string[], env: NodeJS.ProcessEnv, logDir: string): Service {
  const logFile = path.join(logDir, `${name}.log`);
  const fd = fs.openSync(logFile, "w");
  const child = spawn(command, args, { cwd: ROOT, env, stdio: ["ignore", fd, fd] });
  fs.closeSync(fd);
  const exited = new Promise<void>(resolve => child.once("exit", () => resolve()));
  return {
    name,
    child,
    pid: child.pid ?? -1,
    logFile,
    log: () => (fs.existsSync(logFile) ? fs.readFileSync(logFile, "utf8") : ""),
    async stop() {
      if (child.exitCode !== null || child.signalCode !== null) return;
      child.kill("SIGTERM");
      const timer = setTimeout(() => child.kill("SIGKILL"), 15_000);
      await exited;
      clearTimeout(timer);
    }
  };
}

export function isRunning(service: Service): boolean {
  return service.child.exitCode === null && service.child.signalCode === null;
}

export async function waitUntil(what: string, check: () => Promise<boolean> | boolean, timeoutMs: number, alive?: Service[]): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    if (await check()) return;
    const dead = (alive ?? []).find(s => !isRunning(s));
    if (dead) throw new Error(`${dead.name} exited while waiting for ${what}:\n${dead.log().slice(-3000)}`);
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise(r => setTimeout(r, 100));
  }
}

export async function waitForHttpOk(url: string, timeoutMs: number, alive?: Service[]): Promise<void> {
  await waitUntil(
    url,
    async () => {
      try {
        return (await fetch(url)).status === 200;
      } catch {
        return false;
      }
    },
    timeoutMs,
    alive
  );
}

export interface Finished {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** Runs a command to its end and collects what it printed. */
export function runCommand(command: string, args: string[], options: { env?: NodeJS.ProcessEnv; cwd?: string } = {}): Promise<Finished> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { cwd: options.cwd ?? ROOT, env: options.env ?? process.env, stdio: ["ignore", "pipe", "pipe"] });
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", c => (stdout += c));
    child.stderr.on("data", c => (stderr += c));
    child.once("error", reject);
    child.once("close", code => resolve({ code, stdout, stderr }));
  });
}

export const RESULT_MARK = "BENCH_JSON ";

/**
 * A script's input travels in a file named by BENCH_INPUT_FILE: an environment variable holding a
 * thousand requests would exceed the kernel's limit on one (E2BIG). The script deletes it once read.
 */
export function inputEnv(input: object): NodeJS.ProcessEnv {
  const file = path.join(os.tmpdir(), `relay-bench-input-${randomBytes(6).toString("hex")}.json`);
  fs.writeFileSync(file, JSON.stringify(input));
  return { ...process.env, BENCH_INPUT_FILE: file };
}

/** Runs one of the compiled bench scripts with a JSON input; it answers one `BENCH_JSON {...}` line. */
export async function runBenchScript<T>(script: string, input: object): Promise<T> {
  const done = await runCommand(process.execPath, [path.join(BENCH_DIST, script)], {
    env: inputEnv(input)
  });
  const line = done.stdout.split("\n").find(l => l.startsWith(RESULT_MARK));
  if (done.code !== 0 || !line) {
    throw new Error(`${script} failed (exit ${done.code}):\n${done.stderr.slice(-3000)}${done.stdout.slice(-1000)}`);
  }
  return JSON.parse(line.slice(RESULT_MARK.length)) as T;
}

/**
 * A bench script started ahead of time: it does its slow set-up (PGlite's initdb) while something
 * unmeasured happens, says "ready", and starts measuring when told to.
 */
export interface PreparedScript<T> {
  ready: Promise<void>;
  start(): Promise<T>;
  /** Ends it if it is still waiting (the run failed before its turn). */
  cancel(): void;
}

export function prepareBenchScript<T>(script: string, input: object): PreparedScript<T> {
  const child = spawn(process.execPath, [path.join(BENCH_DIST, script)], {
    cwd: ROOT,
    env: inputEnv(input),
    stdio: ["pipe", "pipe", "pipe"]
  });
  let stdout = "";
  let stderr = "";
  child.stderr.on("data", c => (stderr += c));
  const exited = new Promise<number | null>(resolve => child.once("close", code => resolve(code)));
  const ready = new Promise<void>((resolve, reject) => {
    child.stdout.on("data", c => {
      stdout += c;
      if (stdout.includes("ready\n")) resolve();
    });
    void exited.then(code => reject(new Error(`${script} exited (${code}) before it was ready:\n${stderr.slice(-3000)}`)));
  });
  ready.catch(() => undefined);
  return {
    ready,
    async start() {
      await ready;
      child.stdin.end("go\n");
      const code = await exited;
      const line = stdout.split("\n").find(l => l.startsWith(RESULT_MARK));
      if (code !== 0 || !line) throw new Error(`${script} failed (exit ${code}):\n${stderr.slice(-3000)}`);
      return JSON.parse(line.slice(RESULT_MARK.length)) as T;
    },
    cancel() {
      if (child.exitCode === null && child.signalCode === null) child.kill("SIGTERM");
    }
  };
}

/** In a prepared script: set-up is done; wait for the orchestrator's go. */
export function readyThenWaitForGo(): Promise<void> {
  process.stdout.write("ready\n");
  return new Promise(resolve => {
    process.stdin.on("data", chunk => {
      if (String(chunk).includes("go")) resolve();
    });
  });
}

/** For the scripts above: their input, and how they answer. */
export function scriptInput<T>(): T {
  const file = process.env.BENCH_INPUT_FILE;
  if (!file) throw new Error("this script is started by npm run bench (BENCH_INPUT_FILE is missing)");
  const input = JSON.parse(fs.readFileSync(file, "utf8")) as T;
  fs.rmSync(file, { force: true });
  return input;
}

export function answer(result: object): void {
  process.stdout.write(`${RESULT_MARK}${JSON.stringify(result)}\n`);
}

export function readRssMb(pid: number): number {
  try {
    const status = fs.readFileSync(`/proc/${pid}/status`, "utf8");
    const kb = /VmRSS:\s+(\d+) kB/.exec(status);
    return kb ? Number(kb[1]) / 1024 : 0;
  } catch {
    return 0;
  }
}

/** Samples the summed RSS of some processes every 200 ms; `stop` answers the peak in MB. */
export function sampleRss(pids: number[]): { stop: () => number } {
  let peak = 0;
  const sample = () => {
    peak = Math.max(peak, pids.reduce((sum, pid) => sum + readRssMb(pid), 0));
  };
  sample();
  const timer = setInterval(sample, 200);
  return {
    stop() {
      clearInterval(timer);
      sample();
      return peak;
    }
  };
}
