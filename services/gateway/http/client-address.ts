import type { IncomingMessage } from "node:http";

/**
 * The address a request comes from, for limits that have no key to count by (label downloads,
 * public tracking). Behind `hops` trusted proxies (an ingress, a load balancer) it is the entry
 * that many places from the right of X-Forwarded-For; entries further left are the client's own
 * claims and are never trusted, so nobody escapes a limit by sending the header.
 */
export function clientAddress(req: IncomingMessage, hops: number): string {
  const socketAddress = req.socket.remoteAddress ?? "unknown";
  if (hops <= 0) return socketAddress;
  const header = req.headers["x-forwarded-for"];
  const chain = (Array.isArray(header) ? header.join(",") : (header ?? ""))
    .split(",")
    .map(entry => entry.trim())
    .filter(Boolean);
  return chain.length >= hops ? chain[chain.length - hops] : (chain[0] ?? socketAddress);
}
