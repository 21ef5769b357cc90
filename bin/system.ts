import { BrokerOptions, ServiceBroker } from "moleculer";
import type { AppConfig } from "../lib/config";
import { attachConfig } from "../mixins/config.mixin";
import { brokerOptions } from "../moleculer.config";
import { loadServiceSchema } from "../services";

/** A broker running the configured services (and loading only their code); used by the start script and by tests alike. */
export async function createSystem(config: AppConfig, overrides: Partial<BrokerOptions> = {}): Promise<ServiceBroker> {
  const broker = new ServiceBroker({ ...brokerOptions(config), ...overrides });
  attachConfig(broker, config);
  for (const name of config.services) broker.createService(await loadServiceSchema(name));
  return broker;
}
