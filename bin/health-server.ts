import http from "node:http";
import type { ServiceBroker } from "moleculer";
import type { ServiceName } from "../lib/config";
import { PROBE_PATHS } from "../lib/endpoint";
import { readinessOf } from "../lib/readiness";

/**
 * Kubernetes probes for every process, gateway or not: `/healthz` answers while the event loop
 * turns, whatever the dependencies do (no restart loop when the database or a service is away);
 * `/startedz` (startup probe) once every local service started, its schema migrated;
 * `/readyz` as lib/readiness.ts says: started (migrated), not stopping, on the bus, and what the
 * local services depend on reachable.
 */
export function startHealthServer(broker: ServiceBroker, port: number, services: readonly ServiceName[]): http.Server {
  const server = http.createServer((req, res) => {
    const send = (status: number, body: object) => {
      res.writeHead(status, { "Content-Type": "application/json" });
      res.end(JSON.stringify(body));
    };
    if (req.url === PROBE_PATHS.liveness) return send(200, { status: "ok" });
    if (req.url === PROBE_PATHS.startup) {
      const started = readinessOf(broker, []).problems.filter(problem => problem !== "transporter disconnected").length === 0;
      return send(started ? 200 : 503, { status: started ? "ok" : "starting", nodeID: broker.nodeID });
    }
    if (req.url === PROBE_PATHS.readiness) {
      const { ready, problems } = readinessOf(broker, services);
      return send(ready ? 200 : 503, { status: ready ? "ok" : "unavailable", nodeID: broker.nodeID, problems });
    }
    send(404, { code: "NOT_FOUND", message: "No such route", status: 404 });
  });
  server.listen(port, "0.0.0.0");
  return server;
}
