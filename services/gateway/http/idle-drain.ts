import type { Server } from "node:http";

/**
 * How the gateway lets go of idle kept-alive connections when it stops.
 *
 * Node's `server.close()` closes every idle kept-alive connection at once. A client that picked one
 * of them for its next request at that instant sees it closed before any answer ("other side
 * closed"), and a POST is not retried: the request fails although the gateway stopped gracefully.
 * Every close the server starts on an idle connection has that race; only the client's own close
 * has not. So on close the idle connections stay open up to `graceMs`: a request arriving on one is
 * answered, with `Connection: close` (gateway.service.ts), and that connection then closes; a client
 * that honours the keep-alive hint (`Keep-Alive: timeout=5`; undici closes a second before) closes
 * its idle ones itself meanwhile. Whatever is still idle after `graceMs` is closed then, as the
 * keep-alive timeout would have. 0 keeps Node's behaviour (HTTP_DRAIN_IDLE_MS).
 */
export function drainIdleConnectionsOnClose(server: Server, graceMs: number): void {
  if (graceMs <= 0) return;
  const closeIdleNow = server.closeIdleConnections.bind(server);
  server.closeIdleConnections = () => {
    const timer = setTimeout(closeIdleNow, graceMs);
    timer.unref();
    server.once("close", () => clearTimeout(timer));
  };
}
