import { spawnSync } from "node:child_process";
import path from "node:path";
import { ClusterUsageError } from "./settings";

/**
 * `npm run start:cluster -- --ha` (issue 46): the local high-availability stack (scripts/ha/start.sh:
 * etcd, Patroni with three PostgreSQL nodes in synchronous mode behind HAProxy, three NATS servers,
 * a Redis of its own), started unless it runs already, and the environment that points the
 * services at it. What the environment sets itself wins. The stack outlives the cluster;
 * `npm run ha:stop` stops it.
 */
export function haEnvironment(root: string, env: NodeJS.ProcessEnv): NodeJS.ProcessEnv {
  const run = spawnSync("bash", [path.join(root, "scripts", "ha", "start.sh")], { encoding: "utf8", stdio: ["ignore", "pipe", "inherit"] });
  if (run.status !== 0) throw new ClusterUsageError(`the HA stack did not start (scripts/ha/start.sh exited ${run.status})`);
  const stack: NodeJS.ProcessEnv = {};
  for (const line of run.stdout.split("\n")) {
    const match = /^([A-Z_]+)=(.+)$/.exec(line.trim());
    if (match) stack[match[1]] = match[2];
  }
  return { ...stack, ...Object.fromEntries(Object.entries(env).filter(([, value]) => value?.trim())) };
}
