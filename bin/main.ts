import { ConfigError, loadConfig, ServiceName } from "../lib/config";
import { bootstrapDemo, demoBanner } from "./demo";
import { startHealthServer } from "./health-server";
import { resolveSecrets } from "../lib/secrets";
import { checkServiceConfig } from "./service-config";
import { noteShutdown } from "../lib/readiness";
import { createSystem } from "./system";

async function main(): Promise<void> {
  const loaded = loadConfig();
  // Embedded mode writes the database and secrets under DATA_DIR: for this user's eyes only.
  if (loaded.embedded) process.umask(0o077);
  const config = resolveSecrets(loaded);
  // Every variable is checked before anything starts: a bad one stops the pod here (exit 2).
  checkServiceConfig(config);
  const broker = await createSystem(config);
  // Readiness turns false first; Moleculer's own handler (registered by the broker) then stops it.
  for (const signal of ["SIGTERM", "SIGINT"] as const) process.once(signal, noteShutdown);
  if (config.healthPort) startHealthServer(broker, config.healthPort, config.services);
  await broker.start();

  const demoNeeds: ServiceName[] = ["gateway", "auth", "wallet"];
  const runsEverything = demoNeeds.every(name => config.services.includes(name));
  if (config.embedded && runsEverything) {
    const demo = await bootstrapDemo(broker, config);
    process.stdout.write(demoBanner(config, demo, broker));
  }
  if (process.argv.includes("--repl")) broker.repl();
}

main().catch(err => {
  if (err instanceof ConfigError) {
    process.stderr.write(`Configuration error: ${err.message}\n`);
    process.exit(2);
  }
  process.stderr.write(`Start-up failed: ${err instanceof Error ? err.stack : String(err)}\n`);
  process.exit(1);
});
