import { ChildProcess, spawn } from "node:child_process";
import net from "node:net";
import path from "node:path";

export const ROOT = path.resolve(__dirname, "..", "..");

/**
 * A port no one listens on, for a child process to listen on. Not one the kernel picks (listen on
 * port 0): those come from the range it also gives outgoing connections (32768–60999 on Linux), so
 * any client socket of any suite running beside could take it before the child listens (seen:
 * EADDRINUSE on a metrics port in CI). Random below that range, checked on every interface.
 */
export async function freePort(): Promise<number> {
  const [low, high] = [20_000, 32_000];
  for (let attempt = 0; attempt < 200; attempt++) {
    const port = low + Math.floor(Math.random() * (high - low));
    if (await canListen(port)) return port;
  }
  throw new Error(`no free port between ${low} and ${high}`);
}

function canListen(port: number): Promise<boolean> {
  return new Promise(resolve => {
    const server = net.createServer();
    server.once("error", () => resolve(false));
    server.listen(port, () => server.close(() => resolve(true)));
  });
}

export interface RunningProcess {
  child: ChildProcess;
  output: () => string;
  waitForOutput: (pattern: RegExp, timeoutMs?: number) => Promise<RegExpExecArray>;
  stop: (signal?: NodeJS.Signals) => Promise<void>;
}

/** Starts a command with a clean copy of the environment plus `env`, capturing everything it prints. */
export function startProcess(command: string, args: string[], env: Record<string, string>): RunningProcess {
  const child = spawn(command, args, {
    cwd: ROOT,
    // HTTP_DRAIN_IDLE_MS 0: a test's stop does not wait for its client's idle connections (the
    // operations e2e sets the production default, where the SIGTERM under load is tested).
    env: { PATH: process.env.PATH ?? "", HOME: process.env.HOME ?? "", LOG_LEVEL: "info", HTTP_DRAIN_IDLE_MS: "0", ...env },
    stdio: ["ignore", "pipe", "pipe"],
    // Its own process group, so that a signal reaches what `npm start` spawned as well.
    detached: true
  });
  let text = "";
  const waiters: Array<() => void> = [];
  const append = (chunk: Buffer) => {
    text += chunk.toString("utf8");
    waiters.forEach(w => w());
  };
  child.stdout!.on("data", append);
  child.stderr!.on("data", append);
  const exited = new Promise<void>(resolve => child.once("exit", () => resolve()));

  return {
    child,
    output: () => text,
    waitForOutput(pattern, timeoutMs = 30_000) {
      return new Promise((resolve, reject) => {
        const check = () => {
          const match = pattern.exec(text);
          if (match) {
            clearTimeout(timer);
            resolve(match);
          }
        };
        const timer = setTimeout(() => reject(new Error(`timed out waiting for ${pattern} in output:\n${text.slice(-3000)}`)), timeoutMs);
        waiters.push(check);
        child.once("exit", code => {
          if (!pattern.exec(text)) {
            clearTimeout(timer);
            reject(new Error(`process exited (${code}) before ${pattern}:\n${text.slice(-3000)}`));
          }
        });
        check();
      });
    },
    async stop(signal: NodeJS.Signals = "SIGTERM") {
      if (child.exitCode !== null || child.signalCode !== null) return;
      const kill = (sig: NodeJS.Signals) => {
        try {
          process.kill(-child.pid!, sig);
        } catch {
          // already gone
        }
      };
      kill(signal);
      const timer = setTimeout(() => kill("SIGKILL"), 15_000);
      await exited;
      // npm may exit before the node process it started; wait for the whole group.
      for (let i = 0; i < 150; i++) {
        try {
          process.kill(-child.pid!, 0);
        } catch {
          break;
        }
        await new Promise(r => setTimeout(r, 100));
      }
      clearTimeout(timer);
    }
  };
}

/**
 * How long a test waits for a fresh start (PGlite's first start creates its cluster): generous,
 * because two cores running several suites at once have taken over 60 s. A wait, not a measure.
 */
export const START_WAIT_MS = 150_000;

/** `node dist/bin/start.js` with the given environment; resolves once its broker has started. */
export async function startNode(env: Record<string, string>): Promise<RunningProcess> {
  const proc = startProcess(process.execPath, [path.join(ROOT, "dist", "bin", "start.js")], env);
  await proc.waitForOutput(/ServiceBroker with \d+ service\(s\) started successfully/, START_WAIT_MS);
  return proc;
}

export async function waitForHttp(url: string, timeoutMs = 30_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  let last: unknown;
  while (Date.now() < deadline) {
    try {
      const res = await fetch(url);
      if (res.status === 200) return;
      last = res.status;
    } catch (err) {
      last = err;
    }
    await new Promise(r => setTimeout(r, 200));
  }
  throw new Error(`${url} not ready: ${String(last)}`);
}
