import { ChildProcess, spawn } from "node:child_process";
import path from "node:path";
import { LineSplitter } from "./log-lines";

export interface ChildSpec {
  name: string;
  env: Record<string, string>;
}

export interface ChildExit {
  name: string;
  pid: number;
  code: number | null;
  signal: NodeJS.Signals | null;
  /** Exited after the runner asked it to stop. */
  asked: boolean;
  /** Still running when the grace period ended: killed with SIGKILL. */
  killed: boolean;
}

export interface SupervisorOptions {
  graceMs: number;
  onLine: (name: string, stream: "stdout" | "stderr", line: string) => void;
  /** A child exited while nobody asked it to. */
  onUnexpectedExit: (exit: ChildExit) => void;
}

interface Running {
  name: string;
  child: ChildProcess;
  exited: Promise<ChildExit>;
  state: { killed: boolean };
}

const START_SCRIPT = path.join(__dirname, "..", "start.js");
const ORPHAN_GUARD = path.join(__dirname, "orphan-guard.js");

export const cleanlyStopped = (exit: ChildExit) => exit.asked && !exit.killed && exit.code === 0;

/** Starts `node dist/bin/start.js` once per spec and stops them all together. */
export class Supervisor {
  private readonly running: Running[] = [];
  private stopping: Promise<ChildExit[]> | null = null;

  constructor(private readonly options: SupervisorOptions) {}

  start(specs: ChildSpec[]): void {
    for (const spec of specs) this.running.push(this.spawnOne(spec));
  }

  processes(): Array<{ name: string; pid: number }> {
    return this.running.map(r => ({ name: r.name, pid: r.child.pid ?? -1 }));
  }

  get isStopping(): boolean {
    return this.stopping !== null;
  }

  /** SIGTERM to every child still running, SIGKILL to those left after the grace period. Idempotent. */
  stopAll(): Promise<ChildExit[]> {
    this.stopping ??= this.stopEveryone();
    return this.stopping;
  }

  private async stopEveryone(): Promise<ChildExit[]> {
    for (const r of this.running) signal(r.child, "SIGTERM");
    const timer = setTimeout(() => {
      for (const r of this.running) {
        if (r.child.exitCode === null && r.child.signalCode === null) {
          r.state.killed = true;
          signal(r.child, "SIGKILL");
        }
      }
    }, this.options.graceMs);
    const exits = await Promise.all(this.running.map(r => r.exited));
    clearTimeout(timer);
    return exits;
  }

  private spawnOne(spec: ChildSpec): Running {
    const child = spawn(process.execPath, ["--require", ORPHAN_GUARD, START_SCRIPT], {
      env: spec.env,
      stdio: ["ignore", "pipe", "pipe"],
      // Its own process group: a terminal's Ctrl-C reaches the runner only, which forwards it once.
      detached: true
    });
    const splitters = {
      stdout: new LineSplitter(line => this.options.onLine(spec.name, "stdout", line)),
      stderr: new LineSplitter(line => this.options.onLine(spec.name, "stderr", line))
    };
    // Decoded by the stream, so that a character split across two chunks arrives whole.
    child.stdout!.setEncoding("utf8").on("data", (chunk: string) => splitters.stdout.push(chunk));
    child.stderr!.setEncoding("utf8").on("data", (chunk: string) => splitters.stderr.push(chunk));
    const state = { killed: false };
    const exited = new Promise<ChildExit>(resolve => {
      // "close", not "exit": the output pipes are drained by then, so no last line is lost.
      child.once("close", (code, signalName) => {
        splitters.stdout.flush();
        splitters.stderr.flush();
        const exit: ChildExit = {
          name: spec.name,
          pid: child.pid ?? -1,
          code,
          signal: signalName,
          asked: this.stopping !== null,
          killed: state.killed
        };
        if (!exit.asked) this.options.onUnexpectedExit(exit);
        resolve(exit);
      });
      child.once("error", err => {
        this.options.onLine(spec.name, "stderr", `could not start: ${err.message}`);
      });
    });
    return { name: spec.name, child, exited, state };
  }
}

function signal(child: ChildProcess, name: NodeJS.Signals): void {
  if (child.exitCode !== null || child.signalCode !== null) return;
  try {
    child.kill(name);
  } catch {
    // Gone in the meantime.
  }
}
