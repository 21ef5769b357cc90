import fs from "node:fs";
import path from "node:path";
import { canConnect, ServerName } from "./servers";

const ALL: ServerName[] = ["postgres", "redis", "nats"];

/** Probes the local servers once per run; under CI a missing one fails the run instead of skipping. */
export default async function globalSetup(): Promise<void> {
  const up: ServerName[] = [];
  for (const name of ALL) if (await canConnect(name)) up.push(name);
  process.env.RELAY_TEST_SERVERS = up.join(",");
  const missing = ALL.filter(name => !up.includes(name));
  if (missing.length > 0 && process.env.CI === "true") {
    throw new Error(`CI=true but these servers are not reachable: ${missing.join(", ")}`);
  }
  if (!fs.existsSync(path.join(__dirname, "..", "..", "dist", "bin", "start.js"))) {
    throw new Error("dist/ is missing: run the tests with `npm test` (it builds first)");
  }
}
