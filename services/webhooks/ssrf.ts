import dns, { LookupAddress } from "node:dns";
import net from "node:net";
import ipaddr from "ipaddr.js";
import { AppError } from "../../lib/errors";

/** The shape of `dns.promises.lookup(host, { all: true })`, injectable so tests need no DNS. */
export type LookupAll = (hostname: string, options: { all: true }) => Promise<LookupAddress[]>;

function refuse(message: string): never {
  throw new AppError("VALIDATION_FAILED", "invalid webhook URL", { details: [{ field: "url", message }] });
}

/**
 * Why an address is not reachable from the public internet, or null when it is. Only ipaddr.js's
 * "unicast" (what is left after every special range) counts as public; that also refuses
 * documentation, benchmarking and reserved blocks, and the IPv6 transition prefixes (NAT64,
 * 6to4, Teredo) that could carry a private IPv4 address inside.
 */
function nonPublicReason(ip: string): string | null {
  if (!ipaddr.isValid(ip)) return "not an IP address";
  // process() turns ::ffff:a.b.c.d into a.b.c.d, so ::ffff:127.0.0.1 is judged as 127.0.0.1.
  const address = ipaddr.process(ip);
  // The named range first, so that ::1 and :: say "loopback" and "unspecified".
  const range = address.range();
  if (range !== "unicast") return range;
  // ::a.b.c.d (IPv4-compatible, deprecated) reads as unicast in ipaddr.js, but some stacks still
  // tunnel it to the IPv4 address: ::127.0.0.1 must not be a way around the loopback check.
  if (address.kind() === "ipv6" && (address as ipaddr.IPv6).parts.slice(0, 6).every(part => part === 0)) {
    return "IPv4-compatible IPv6 address";
  }
  return null;
}

export function isPublicAddress(ip: string): boolean {
  return nonPublicReason(ip) === null;
}

/**
 * Refuses a webhook URL that the webhook sender must not call: anything other than http(s), user
 * info in the URL (it would leak into logs and the delivery log), and — unless private targets are
 * allowed (WEBHOOK_ALLOW_PRIVATE=true: a local receiver, tests) — a host that resolves to any non-public address. All resolved
 * addresses are checked, because the HTTP client may connect to any of them.
 *
 * This closes the configuration-time hole only. DNS can answer differently at send time, so the
 * sender should run this check again before each attempt and must not follow redirects.
 */
export async function assertPublicWebhookUrl(url: string, allowPrivate: boolean, lookup: LookupAll = dns.promises.lookup): Promise<void> {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return refuse("must be an absolute http or https URL");
  }
  if (parsed.protocol !== "http:" && parsed.protocol !== "https:") refuse("must use http or https");
  if (parsed.username !== "" || parsed.password !== "") refuse("must not contain credentials");
  if (allowPrivate) return;

  // WHATWG URL has already normalised odd IPv4 spellings (0x7f.1, 2130706433) to dotted form.
  const host = parsed.hostname.replace(/^\[(.*)\]$/, "$1");
  let addresses: string[];
  if (net.isIP(host) !== 0) {
    addresses = [host];
  } else {
    try {
      addresses = (await lookup(host, { all: true })).map(entry => entry.address);
    } catch {
      return refuse(`host ${host} cannot be resolved`);
    }
    if (addresses.length === 0) refuse(`host ${host} cannot be resolved`);
  }

  for (const address of addresses) {
    const reason = nonPublicReason(address);
    // The range name is enough for the operator; the resolved address itself is internal detail.
    if (reason !== null) refuse(`host ${host} resolves to a non-public address (${reason})`);
  }
}
