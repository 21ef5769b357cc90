/**
 * Shape checks of the configuration values that are not plain numbers: each failure names the
 * variable, so that a pod with a wrong value stops at start (exit 2) with the reason in its log,
 * instead of starting, passing readiness and answering 500 to partners.
 */

export class ConfigError extends Error {}

function parsedUrl(name: string, raw: string): URL {
  try {
    return new URL(raw);
  } catch {
    throw new ConfigError(`${name} must be a URL (got something that does not parse as one)`);
  }
}

/** A URL with one of the given protocols and a host; the value itself is never echoed (it may hold a password). */
export function checkUrl(name: string, raw: string | null, protocols: string[], what: string): string | null {
  if (raw === null) return null;
  const url = parsedUrl(name, raw);
  if (!protocols.includes(url.protocol) || url.hostname === "") {
    throw new ConfigError(`${name} must be ${what} (${protocols.map(p => `${p}//…`).join(" or ")})`);
  }
  return raw;
}

export function checkDatabaseUrl(raw: string | null): string | null {
  if (checkUrl("DATABASE_URL", raw, ["postgres:", "postgresql:"], "a PostgreSQL URL") === null) return null;
  if (new URL(raw!).pathname.replace(/^\//, "") === "") {
    throw new ConfigError("DATABASE_URL must name a database (postgres://user:password@host:5432/relay)");
  }
  return raw;
}

/** The transporters this image carries a client for: NATS, Redis, and Moleculer's own TCP. */
/**
 * A transporter name or URL; for NATS, several servers separated by commas
 * (nats://nats-0:4222,nats://nats-1:4222,nats://nats-2:4222): the client connects to one and,
 * when it goes away, reconnects to another, without end (issue 46, Moleculer's own NATS option).
 */
export function checkTransporter(raw: string | null): string | null {
  if (raw === null || /^(nats|redis|tcp)$/i.test(raw)) return raw;
  const urls = raw.split(",");
  if (urls.length > 1) {
    for (const url of urls) checkUrl("TRANSPORTER", url, ["nats:"], "a list of NATS URLs");
    return raw;
  }
  return checkUrl("TRANSPORTER", raw, ["nats:", "redis:", "rediss:", "tcp:"], "a transporter URL");
}

/** An absolute http(s) URL without query or fragment (links are built by appending paths). */
export function checkBaseUrl(name: string, raw: string): string {
  const url = parsedUrl(name, raw);
  if ((url.protocol !== "http:" && url.protocol !== "https:") || url.search || url.hash) {
    throw new ConfigError(`${name} must be an absolute http(s) URL without query or fragment`);
  }
  return raw;
}

export function checkOneOf<T extends string>(name: string, raw: string | null, allowed: readonly T[], fallback: T): T {
  if (raw === null) return fallback;
  if (!(allowed as readonly string[]).includes(raw)) throw new ConfigError(`${name} must be one of ${allowed.join(", ")} (got "${raw}")`);
  return raw as T;
}

/** NAMESPACE becomes NATS subjects and Redis key prefixes: letters, digits, - and _ only; NODE_ID may be a host name. */
export function checkName(name: "NAMESPACE" | "NODE_ID", raw: string | null): string | null {
  const pattern = name === "NODE_ID" ? /^[A-Za-z0-9_.-]{1,128}$/ : /^[A-Za-z0-9_-]{1,64}$/;
  if (raw !== null && !pattern.test(raw)) {
    throw new ConfigError(
      `${name} must be letters, digits, "-" or "_"${name === "NODE_ID" ? ' or "."' : ""} (at most ${name === "NODE_ID" ? 128 : 64})`
    );
  }
  return raw;
}

export function checkFraction(name: string, raw: string | null, fallback: number): number {
  if (raw === null) return fallback;
  const value = Number(raw);
  if (!Number.isFinite(value) || value < 0 || value > 1) throw new ConfigError(`${name} must be a number between 0 and 1 (got "${raw}")`);
  return value;
}

/** Secrets: their shape only, never their value, goes into the message. */
export function checkSecret(name: string, raw: string | undefined, rule: "hex64" | "long"): string | undefined {
  if (raw === undefined) return undefined;
  if (rule === "hex64" && !/^[0-9a-fA-F]{64}$/.test(raw)) {
    throw new ConfigError(`${name} must be 64 hexadecimal characters (32 bytes; openssl rand -hex 32)`);
  }
  if (rule === "long" && raw.length < 16) throw new ConfigError(`${name} must be at least 16 characters long`);
  return raw;
}
