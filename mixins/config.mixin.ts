import type { ServiceBroker, ServiceSchema, ServiceSettingSchema } from "moleculer";
import { AppConfig, loadConfig } from "../lib/config";
import { resolveSecrets } from "../lib/secrets";
import { TrafficMixin } from "./traffic.mixin";

// Config stays out of broker metadata, which would carry secrets to every node.
const configs = new WeakMap<ServiceBroker, AppConfig>();

/** Called by whoever builds the broker (bin/system.ts, tests) with the config it was built from. */
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

export interface ConfigVars {
  config: AppConfig;
}

const mixin: Partial<ServiceSchema<ServiceSettingSchema, object, ConfigVars>> = {
  // Every service has this mixin or DbMixin: both bring `<service>.processTraffic` for the bench.
  mixins: [TrafficMixin],
  created() {
    this.config = configOf(this.broker);
  }
};

/** `this.config` in every lifecycle handler and action of the service. */
export const ConfigMixin = mixin as Partial<ServiceSchema>;
