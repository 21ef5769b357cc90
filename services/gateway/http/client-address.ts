import ipaddr from "ipaddr.js";
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

/**
 * What a per-address limit counts by. One IPv6 client holds a whole prefix (a /64 at least, by
 * SLAAC or by its provider's delegation) and can pick a new address per request, so IPv6 counts
 * per prefix of `ipv6PrefixLength` bits; IPv4 counts per address, and an IPv4-mapped IPv6 address
 * (::ffff:a.b.c.d, how a dual-stack socket reports an IPv4 client) as that IPv4 address. Anything
 * that is no address (a proxy's "unknown") counts as itself.
 */
export function addressBucket(address: string, ipv6PrefixLength: number): string {
  if (!ipaddr.isValid(address)) return address;
  const parsed = ipaddr.process(address);
  if (parsed.kind() === "ipv4") return parsed.toString();
  const bytes = parsed.toByteArray();
  for (let bit = ipv6PrefixLength; bit < 128; bit++) bytes[bit >> 3] &= ~(0x80 >> (bit & 7));
  return `${ipaddr.fromByteArray(bytes).toString()}/${ipv6PrefixLength}`;
}
