import { ALL_SERVICES, AppConfig, ServiceName } from "../../lib/config";
import type { ClusterSettings } from "./settings";

export interface ProcessPlan {
  /** Unique in the cluster: the service, numbered when it runs more than once (gateway-1). */
  name: string;
  service: ServiceName;
  healthPort: number;
  metricsPort: number | null;
  gatewayPort: number | null;
  env: Record<string, string>;
}

function replicasOf(service: ServiceName, settings: ClusterSettings): number {
  if (service === "gateway") return settings.gatewayPorts.length;
  if (service === "webhooks") return settings.webhooksWorkers;
  return 1;
}

/** The environment every process shares: the caller's, with the cluster's servers and secrets. */
export function sharedEnvironment(
  env: NodeJS.ProcessEnv,
  settings: ClusterSettings,
  secrets: AppConfig["secrets"]
): Record<string, string> {
  const inherited = Object.fromEntries(Object.entries(env).filter((entry): entry is [string, string] => entry[1] !== undefined));
  return {
    ...inherited,
    TRANSPORTER: settings.transporter,
    DATABASE_URL: settings.databaseUrl,
    REDIS_URL: settings.redisUrl,
    NAMESPACE: settings.namespace,
    DATA_DIR: settings.dataDir,
    PUBLIC_BASE_URL: settings.publicBaseUrl,
    BACKOFFICE_TOKEN: secrets.backofficeToken ?? "",
    ENCRYPTION_KEY: secrets.encryptionKey ?? "",
    LABEL_URL_SECRET: secrets.labelUrlSecret ?? "",
    PICKUP_PASS_SIGNING_KEY: secrets.pickupPassSigningKey ?? ""
  };
}

/**
 * One process per service instance, in ALL_SERVICES order (a new service joins the cluster by
 * itself), each with its own NODE_ID and ports; gateways last, as they front all the others.
 */
export function processPlan(settings: ClusterSettings, shared: Record<string, string>, healthPorts: number[]): ProcessPlan[] {
  const order = [...ALL_SERVICES.filter(s => s !== "gateway"), "gateway" as const];
  const instances = order.flatMap(service => {
    const count = replicasOf(service, settings);
    return Array.from({ length: count }, (_, i) => ({ service, index: i, name: count > 1 ? `${service}-${i + 1}` : service }));
  });
  if (healthPorts.length < instances.length) throw new Error(`${instances.length} health ports needed, ${healthPorts.length} given`);
  return instances.map(({ service, index, name }, position) => {
    const gatewayPort = service === "gateway" ? settings.gatewayPorts[index] : null;
    const metricsPort = settings.metricsPortBase === null ? null : settings.metricsPortBase + position;
    const env: Record<string, string> = { ...shared, SERVICES: service, NODE_ID: name, HEALTH_PORT: String(healthPorts[position]) };
    if (gatewayPort !== null) env.PORT = String(gatewayPort);
    if (metricsPort !== null) env.METRICS_PORT = String(metricsPort);
    else delete env.METRICS_PORT;
    return { name, service, healthPort: healthPorts[position], metricsPort, gatewayPort, env };
  });
}

export function instanceCount(settings: ClusterSettings): number {
  return ALL_SERVICES.reduce((sum, service) => sum + replicasOf(service, settings), 0);
}
