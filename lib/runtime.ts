import type { ServiceBroker } from "moleculer";
import { AppConfig, loadConfig } from "./config";
import { resolveSecrets } from "./secrets";

// Config stays out of broker metadata, which would carry secrets to every node.
const configs = new WeakMap<ServiceBroker, AppConfig>();

export function attachConfig(broker: ServiceBroker, config: AppConfig): void {
  configs.set(broker, config);
}

/** The config a broker was created with; a broker made elsewhere (REPL, runner) reads the environment. */
export function configOf(broker: ServiceBroker): AppConfig {
  let config = configs.get(broker);
  if (!config) {
    config = resolveSecrets(loadConfig());
    configs.set(broker, config);
  }
  return config;
}
