/**
 * The CORS policy (`CORS_ORIGINS`): which browser origins may call the API from a web page.
 * None by default: an API key belongs on a merchant's server, not in a page's JavaScript where
 * every visitor can read it. A preflight is answered here and never reaches an action.
 */
export type CorsPolicy = { kind: "none" } | { kind: "any" } | { kind: "list"; origins: ReadonlySet<string> };

export const CORS_ALLOWED_HEADERS = "Authorization, X-API-Key, Content-Type, Content-Encoding, Idempotency-Key, X-Request-Id";
export const CORS_EXPOSED_HEADERS = "Location, Retry-After, X-RateLimit-Limit, X-RateLimit-Remaining, X-Request-Id";
export const CORS_MAX_AGE_SECONDS = 600;

/** `*`, or a comma list of origins (`https://shop.example.dz`); throws on anything else. */
export function parseCorsOrigins(raw: string | null): CorsPolicy {
  if (raw === null || raw.trim() === "") return { kind: "none" };
  if (raw.trim() === "*") return { kind: "any" };
  const origins = new Set<string>();
  for (const part of raw
    .split(",")
    .map(p => p.trim())
    .filter(Boolean)) {
    let url: URL;
    try {
      url = new URL(part);
    } catch {
      throw new Error(`"${part}" is not an origin such as https://shop.example.dz`);
    }
    if (!/^https?:$/.test(url.protocol) || url.origin !== part.replace(/\/$/, "")) {
      throw new Error(`"${part}" is not an origin (scheme://host[:port], no path)`);
    }
    origins.add(url.origin);
  }
  return { kind: "list", origins };
}

export function isOriginAllowed(policy: CorsPolicy, origin: string): boolean {
  if (policy.kind === "any") return true;
  if (policy.kind === "none") return false;
  return policy.origins.has(origin);
}

/** Headers of an allowed cross-origin answer (an actual request, not a preflight). */
export function corsResponseHeaders(origin: string): Record<string, string> {
  return {
    "Access-Control-Allow-Origin": origin,
    "Access-Control-Expose-Headers": CORS_EXPOSED_HEADERS,
    Vary: "Origin"
  };
}

export function preflightHeaders(origin: string, allowedMethods: string[]): Record<string, string> {
  return {
    "Access-Control-Allow-Origin": origin,
    "Access-Control-Allow-Methods": allowedMethods.join(", "),
    "Access-Control-Allow-Headers": CORS_ALLOWED_HEADERS,
    "Access-Control-Max-Age": String(CORS_MAX_AGE_SECONDS),
    Vary: "Origin"
  };
}
