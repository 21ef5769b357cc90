import http from "node:http";
import type { ServiceBroker } from "moleculer";
import { PROBE_PATHS } from "../lib/endpoint";

/**
 * Kubernetes probes for every process, gateway or not: `/healthz` answers while the event loop
 * turns; `/readyz` once the broker has started all of this process's services and, with a
 * transporter, is connected to it.
 */
export function startHealthServer(broker: ServiceBroker, port: number): http.Server {
  const server = http.createServer((req, res) => {
    const send = (status: number, body: object) => {
      res.writeHead(status, { "Content-Type": "application/json" });
      res.end(JSON.stringify(body));
    };
    if (req.url === PROBE_PATHS.liveness) return send(200, { status: "ok" });
    if (req.url === PROBE_PATHS.readiness) {
      const connected = !broker.transit || broker.transit.connected;
      const ready = broker.started && connected;
      return send(ready ? 200 : 503, { status: ready ? "ok" : "starting", nodeID: broker.nodeID });
    }
    send(404, { code: "NOT_FOUND", message: "No such route", status: 404 });
  });
  server.listen(port, "0.0.0.0");
  return server;
}
