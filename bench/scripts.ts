import { spawn } from "node:child_process";
import { randomBytes } from "node:crypto";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { BENCH_DIST, ROOT, runCommand } from "./proc";

/**
 * How the orchestrator talks to the bench scripts it runs in separate processes (load generators,
 * baselines): a JSON input in a file, one `BENCH_JSON {...}` line back.
 */

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
