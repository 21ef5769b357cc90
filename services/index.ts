import type { ServiceSchema } from "moleculer";
import type { ServiceName } from "../lib/config";

/**
 * Each service's module, loaded only when a process runs that service: a `SERVICES=gateway` pod
 * loads the gateway's code and no other service's (the gateway learns the others' endpoints
 * from the registry).
 */
const LOADERS: Record<ServiceName, () => Promise<{ default: object }>> = {
  gateway: () => import("./gateway.service"),
  auth: () => import("./auth.service"),
  wallet: () => import("./wallet.service"),
  parcels: () => import("./parcels.service"),
  labels: () => import("./labels.service"),
  notifications: () => import("./notifications.service"),
  webhooks: () => import("./webhooks.service"),
  logistics: () => import("./logistics.service")
};

/** Each service is typed with its own settings, methods and vars; the broker takes them untyped. */
export async function loadServiceSchema(name: ServiceName): Promise<ServiceSchema> {
  return (await LOADERS[name]()).default as ServiceSchema;
}
