import { ServiceBroker } from "moleculer";
import { brokerOptions } from "../moleculer.config";
import { SERVICE_SCHEMAS } from "../services";
import { AppConfig } from "./config";
import { attachConfig } from "./runtime";

/** A broker running the configured services; used by the start script and by tests alike. */
export function createSystem(config: AppConfig, overrides: Partial<import("moleculer").BrokerOptions> = {}): ServiceBroker {
  const broker = new ServiceBroker({ ...brokerOptions(config), ...overrides });
  attachConfig(broker, config);
  for (const name of config.services) broker.createService(SERVICE_SCHEMAS[name]);
  return broker;
}
