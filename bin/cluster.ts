import path from "node:path";
import { clusterBanner, ClusterInfo, readyLine } from "./cluster/banner";
import { DemoOutcome, ensureDemoMerchant } from "./cluster/demo-merchant";
import { Prefixer, wantsColour } from "./cluster/log-lines";
import { instanceCount, processPlan, ProcessPlan, sharedEnvironment } from "./cluster/plan";
import { consecutivePorts, freePorts } from "./cluster/ports";
import { assertReachable, ensureDatabase, PreflightError } from "./cluster/preflight";
import { waitUntilReady } from "./cluster/readiness";
import { clusterSecrets } from "./cluster/secrets";
import { ClusterUsageError, clusterSettings, USAGE } from "./cluster/settings";
import { haEnvironment } from "./cluster/ha-stack";
import { projectRoot } from "../lib/project-root";
import { ChildExit, cleanlyStopped, Supervisor } from "./cluster/supervisor";
import { PROBE_PATHS } from "../lib/endpoint";
import { fetchOperations } from "./backoffice-client";
import { PARTNER_DOCUMENT_PATH } from "../services/gateway/openapi/docs-page";

const RUNNER = "cluster";

/**
 * `npm run start:cluster`: every service in its own process on this machine, over the local NATS,
 * PostgreSQL and Redis. When a process dies unexpectedly, the whole cluster stops (see docs/operations/running-distributed.md).
 */
async function main(): Promise<number> {
  if (process.argv.includes("--help")) {
    process.stdout.write(USAGE + "\n");
    return 0;
  }
  const args = process.argv.slice(2);
  const env = args.includes("--ha") ? haEnvironment(projectRoot(), process.env) : process.env;
  const settings = clusterSettings(env, args);
  const count = instanceCount(settings);
  const healthPorts = settings.healthPortBase === null ? await freePorts(count) : consecutivePorts(settings.healthPortBase, count);

  // A list of NATS servers (--ha): the first one answering is enough to start.
  await assertReachable("NATS", "TRANSPORTER", settings.transporter.split(",")[0], 4222);
  await assertReachable("Redis", "REDIS_URL", settings.redisUrl, 6379);
  const database = await ensureDatabase(settings.databaseUrl);
  const secrets = clusterSecrets(process.env, settings.dataDir);
  const plan = processPlan(settings, sharedEnvironment(process.env, settings, secrets), healthPorts);

  const prefixer = new Prefixer(
    RUNNER,
    plan.map(p => p.name),
    wantsColour(process.stdout, process.env)
  );
  const say = (text: string) => process.stdout.write(prefixer.say(text) + "\n");
  const alarm = (text: string) => process.stderr.write(prefixer.alarm(text) + "\n");
  if (database === "created") say(`created database ${new URL(settings.databaseUrl).pathname.slice(1)}`);
  say(`starting ${plan.length} processes in namespace "${settings.namespace}" (secrets in ${settings.dataDir})`);

  let failure: ChildExit | null = null;
  const stopWaiting = new AbortController();
  let finished: (exits: ChildExit[]) => void = () => undefined;
  const allStopped = new Promise<ChildExit[]>(resolve => (finished = resolve));
  const stop = () => {
    stopWaiting.abort();
    if (!supervisor.isStopping) say("stopping every process (SIGTERM)…");
    void supervisor.stopAll().then(finished);
  };
  const supervisor = new Supervisor({
    graceMs: settings.stopGraceMs,
    onLine: (name, stream, line) => (stream === "stdout" ? process.stdout : process.stderr).write(prefixer.line(name, line) + "\n"),
    onUnexpectedExit: exit => {
      failure ??= exit;
      alarm(`${exit.name} (pid ${exit.pid}) exited unexpectedly (${exit.signal ?? `code ${exit.code}`}): stopping the cluster`);
      stop();
    }
  });
  // A second Ctrl-C (npm forwards one as well) changes nothing: the grace period ends in SIGKILL.
  process.on("SIGINT", stop);
  process.on("SIGTERM", stop);

  supervisor.start(plan);
  const ready = await waitUntilReady(readinessTargets(plan), {
    signal: stopWaiting.signal,
    onStillWaiting: names => say(`still waiting for: ${names.join(", ")}`)
  });
  if (ready) await announce(settings, plan, secrets.backofficeToken ?? "", supervisor, say, alarm);

  const exits = await allStopped;
  return summarize(exits, failure, say, alarm);
}

/** Every process's probe port, then the gateways' own /readyz (ready once what they front answers). */
function readinessTargets(plan: ProcessPlan[]) {
  return [
    ...plan.map(p => ({ name: p.name, url: `http://127.0.0.1:${p.healthPort}${PROBE_PATHS.readiness}` })),
    ...plan
      .filter(p => p.gatewayPort !== null)
      .map(p => ({ name: `${p.name} (HTTP)`, url: `http://127.0.0.1:${p.gatewayPort}${PROBE_PATHS.readiness}` }))
  ];
}

async function announce(
  settings: ReturnType<typeof clusterSettings>,
  plan: ProcessPlan[],
  backofficeToken: string,
  supervisor: Supervisor,
  say: (text: string) => void,
  alarm: (text: string) => void
): Promise<void> {
  let demo: DemoOutcome | null = null;
  const gateway = `http://127.0.0.1:${settings.gatewayPorts[0]}`;
  // The banner's examples take their paths from the served document: routes are declared once, on the actions.
  const partnerPaths = await fetchOperations(gateway, PARTNER_DOCUMENT_PATH).then(
    operations => ({ health: operations.get("getHealth")?.path ?? null, createParcel: operations.get("createParcel")?.path ?? null }),
    () => ({ health: null, createParcel: null })
  );
  try {
    demo = await ensureDemoMerchant(gateway, backofficeToken, settings.dataDir, settings.databaseUrl);
  } catch (err) {
    alarm(`no demo merchant: ${(err as Error).message}`);
  }
  if (supervisor.isStopping) return;
  const pids = new Map(supervisor.processes().map(p => [p.name, p.pid]));
  const info: ClusterInfo = {
    namespace: settings.namespace,
    transporter: settings.transporter,
    databaseUrl: settings.databaseUrl,
    publicBaseUrl: settings.publicBaseUrl,
    gatewayPorts: settings.gatewayPorts,
    backofficeToken,
    secretsFile: path.join(settings.dataDir, "secrets.json"),
    dataDir: settings.dataDir,
    processes: plan.map(p => ({ name: p.name, pid: pids.get(p.name) ?? -1, healthPort: p.healthPort, metricsPort: p.metricsPort })),
    demo,
    partnerPaths
  };
  // The machine's line first, so that the banner is what a person sees last.
  say(readyLine(info));
  process.stdout.write(clusterBanner(info));
}

function summarize(exits: ChildExit[], failure: ChildExit | null, say: (text: string) => void, alarm: (text: string) => void): number {
  for (const exit of exits) {
    const how = exit.killed
      ? "killed (SIGKILL) after the grace period"
      : exit.signal
        ? `ended by ${exit.signal}`
        : `exit code ${exit.code}`;
    (cleanlyStopped(exit) ? say : alarm)(`${exit.name} (pid ${exit.pid}): ${how}${exit.asked ? "" : ", unasked"}`);
  }
  const clean = failure === null && exits.every(cleanlyStopped);
  (clean ? say : alarm)(clean ? "every process stopped cleanly" : "the cluster did not stop cleanly");
  return clean ? 0 : 1;
}

main().then(
  code => process.exit(code),
  err => {
    if (err instanceof ClusterUsageError || err instanceof PreflightError) {
      process.stderr.write(`start:cluster: ${err.message}\n`);
      process.exit(2);
    }
    process.stderr.write(`start:cluster failed: ${err instanceof Error ? err.stack : String(err)}\n`);
    process.exit(1);
  }
);
