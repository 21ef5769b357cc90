import { ChildProcess, spawn } from "node:child_process";
import fs from "node:fs";
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

export async function waitUntil(
  what: string,
  check: () => Promise<boolean> | boolean,
  timeoutMs: number,
  alive?: Service[]
): Promise<void> {
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
