import type { Middleware, ServiceBroker } from "moleculer";
import type { ServiceName } from "./config";

/**
 * The services each one cannot answer without. Only hard dependencies: what the outbox hands
 * to webhooks and notifications waits there, and a missing label URL is null, so neither makes
 * parcels or the gateway unready.
 */
export const DEPENDS_ON: Record<ServiceName, ServiceName[]> = {
  gateway: ["auth", "wallet", "parcels"],
  auth: [],
  wallet: [],
  parcels: ["wallet"],
  labels: ["parcels", "auth"],
  notifications: ["parcels"],
  webhooks: [],
  logistics: ["parcels"]
};

let shuttingDown = false;
const announced = new WeakSet<ServiceBroker>();

/**
 * Moleculer tells the other nodes about a new node's services up to a second after they start
 * (a debounced INFO). A replacement that said "ready" before that would let a rolling update stop
 * the old pod while nobody knows the new one yet: every call in between fails. So once started,
 * the node announces itself at once, and only then counts as ready.
 */
export const AnnounceMiddleware: Middleware = {
  name: "Announce",
  async started(broker: ServiceBroker) {
    if (broker.transit) await broker.registry.discoverer.sendLocalNodeInfo();
    announced.add(broker);
  }
};

/** Called at SIGTERM/SIGINT (bin/start.ts), before Moleculer's own handler stops the broker. */
export function noteShutdown(): void {
  shuttingDown = true;
}

export interface Readiness {
  ready: boolean;
  /** Why not, for the probe's body and the logs: "stopping", "transporter disconnected", "wallet unreachable". */
  problems: string[];
}

/**
 * Ready = started (every local service started, so its schema is migrated: DbMixin runs the
 * migrations in `started`), not stopping, connected to the transporter, and every service the
 * local ones depend on has an available instance on the bus. Liveness asks none of this: a
 * dependency that is down must not get healthy pods restarted.
 */
export function readinessOf(broker: ServiceBroker, services: readonly ServiceName[]): Readiness {
  const problems: string[] = [];
  if (shuttingDown || broker.stopping) problems.push("stopping");
  else if (!broker.started || !announced.has(broker)) problems.push("starting");
  if (broker.transit && !broker.transit.connected) problems.push("transporter disconnected");
  const needed = new Set(services.flatMap(service => DEPENDS_ON[service]).filter(name => !services.includes(name)));
  if (needed.size > 0) {
    const available = new Set(broker.registry.getServiceList({ onlyAvailable: true, skipInternal: true }).map(s => s.name));
    for (const name of needed) if (!available.has(name)) problems.push(`${name} unreachable`);
  }
  return { ready: problems.length === 0, problems };
}
