import path from "node:path";
import type { BaselineBodies } from "./baselines/bodies";
import { Pgbench } from "./baselines/pgbench";
import type { LoadShape } from "./measure";
import type { BenchOptions } from "./options";
import { BENCH_DIST, Service, startService, waitForHttpOk, waitUntil } from "./proc";
import { inputEnv } from "./scripts";
import type { Progress } from "./progress";
import { makeRow, Row } from "./report/results";
import { resultsTable } from "./report/table";
import { freePort } from "./systems/system";

/** Baseline servers: each in its own process, started once per run, serving bodies captured from the system. */
export interface BaselineServers {
  nodeHttp: { url: string; pid: number };
  alias: { url: string; pid: number };
}

/** What every phase of a run shares. */
export class Bench {
  readonly rows: Row[] = [];
  readonly skipped: string[] = [];
  private readonly services: Service[] = [];
  private baselineServers: BaselineServers | null = null;
  private pgbenchDb: Pgbench | null = null;
  private receiver: { url: string } | null = null;
  private readonly warmed = new Set<string>();
  private readonly cleanups: Array<() => Promise<void>> = [];

  constructor(
    readonly options: BenchOptions,
    readonly progress: Progress,
    readonly logDir: string,
    readonly pgbenchUsable: boolean
  ) {}

  get shape(): LoadShape {
    return { connections: this.options.connections, seconds: this.options.seconds, warmupSeconds: this.options.warmupSeconds };
  }

  /** Something to stop however the run ends (Ctrl-C included): a system under test and its database. */
  onClose(cleanup: () => Promise<void>): void {
    this.cleanups.push(cleanup);
  }

  /** Warms a long-lived process (a baseline server) once per run, not before every row. */
  warmOnce(key: string, warm: () => Promise<unknown>): () => Promise<unknown> {
    return async () => {
      if (this.warmed.has(key)) return;
      this.warmed.add(key);
      await warm();
    };
  }

  addRow(row: Omit<Row, "verdict">): Row {
    const made = makeRow(row);
    this.rows.push(made);
    this.progress.print(resultsTable([made]).split("\n").slice(2).join("\n"));
    return made;
  }

  skip(what: string): void {
    this.skipped.push(what);
    this.progress.print(`(skipped: ${what})`);
  }

  private async startScript(name: string, script: string, input: object): Promise<Service> {
    const service = startService(name, process.execPath, [path.join(BENCH_DIST, script)], inputEnv(input), this.logDir);
    this.services.push(service);
    await waitUntil(`${name} to listen`, () => service.log().includes("listening"), 30_000, [service]);
    return service;
  }

  /** The bare node:http and moleculer-web servers, answering the bodies of the first system measured. */
  async baselines(bodies: Omit<BaselineBodies, "port" | "logLevel">): Promise<BaselineServers> {
    if (this.baselineServers) return this.baselineServers;
    this.progress.next("starting the baseline servers");
    const start = async (name: string, script: string) => {
      const port = await freePort();
      const service = await this.startScript(name, script, { ...bodies, port, logLevel: this.options.logLevel });
      await waitForHttpOk(`http://127.0.0.1:${port}/api/partner/v1/health`, 30_000, [service]);
      return { url: `http://127.0.0.1:${port}`, pid: service.pid };
    };
    this.baselineServers = {
      nodeHttp: await start("baseline-node-http", "baselines/node-http-server.js"),
      alias: await start("baseline-moleculer-web", "baselines/moleculer-web-server.js")
    };
    return this.baselineServers;
  }

  /** pgbench's database, initialised once per run; null when pgbench is not installed. */
  async pgbench(): Promise<Pgbench | null> {
    if (!this.pgbenchUsable) return null;
    if (!this.pgbenchDb) {
      this.progress.next("pgbench -i on a throw-away database");
      this.pgbenchDb = await Pgbench.init();
    }
    return this.pgbenchDb;
  }

  async webhookReceiver(): Promise<{ url: string }> {
    if (!this.receiver) {
      const port = await freePort();
      await this.startScript("webhook-receiver", "webhook-receiver.js", { port });
      this.receiver = { url: `http://127.0.0.1:${port}` };
    }
    return this.receiver;
  }

  async close(): Promise<void> {
    await Promise.all([...this.cleanups.map(c => c().catch(() => undefined)), ...this.services.map(s => s.stop())]);
    await this.pgbenchDb?.drop();
  }
}
