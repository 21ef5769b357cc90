import { apiResponseValidator } from "./openapi-validator";

export interface HttpResult<T = any> {
  status: number;
  headers: Headers;
  body: T;
  text: string;
}

/**
 * A kept-alive connection the server closed (its keep-alive timeout) as the client reused it is
 * "other side closed" before any answer; HTTP lets a client send an idempotent request again on a
 * new connection (RFC 9112 §9.3.1), as browsers do. Anything else, and any non-idempotent request,
 * fails as it came.
 */
async function fetchRetryingStaleSocket(url: string, init: RequestInit): Promise<Response> {
  try {
    return await fetch(url, init);
  } catch (err) {
    const cause = (err as { cause?: { code?: string } }).cause;
    if (!["GET", "HEAD"].includes(init.method ?? "GET") || cause?.code !== "UND_ERR_SOCKET") throw err;
    return fetch(url, init);
  }
}

export async function http<T = any>(
  baseUrl: string,
  method: string,
  path: string,
  options: { headers?: Record<string, string>; body?: unknown; rawBody?: string } = {}
): Promise<HttpResult<T>> {
  const headers: Record<string, string> = { ...(options.headers ?? {}) };
  let body: string | undefined = options.rawBody;
  if (options.body !== undefined) {
    body = JSON.stringify(options.body);
    headers["Content-Type"] = "application/json";
  }
  const res = await fetchRetryingStaleSocket(baseUrl + path, { method, headers, body });
  const text = await res.text();
  let parsed: unknown = text;
  if ((res.headers.get("content-type") ?? "").includes("application/json") && text) parsed = JSON.parse(text);
  // Every answer of a documented operation must be what the OpenAPI document says (issue 5):
  // a status, body or header it does not describe fails the test that received it.
  apiResponseValidator().assert({ method, path, status: res.status, headers: res.headers, body: parsed, text });
  return { status: res.status, headers: res.headers, body: parsed as T, text };
}

/** Back-office calls with the operator token. */
export function backoffice(baseUrl: string, token: string) {
  const call = <T = any>(method: string, path: string, body?: unknown) =>
    http<T>(baseUrl, method, `/api/backoffice/v1${path}`, { headers: { Authorization: `Bearer ${token}` }, body });
  return {
    call,
    async createOrganization(name: string): Promise<{ id: string; name: string }> {
      const res = await call("POST", "/organizations", { name });
      if (res.status !== 201) throw new Error(`createOrganization: ${res.status} ${res.text}`);
      return res.body;
    },
    async createKey(
      organizationId: string,
      options: { mode?: "live" | "sandbox"; scopes?: string[]; rateLimitPerMinute?: number } = {}
    ): Promise<{ id: string; key: string; keyPrefix: string; mode: string; scopes: string[] }> {
      const res = await call("POST", `/organizations/${organizationId}/api-keys`, { mode: "live", ...options });
      if (res.status !== 201) throw new Error(`createKey: ${res.status} ${res.text}`);
      return res.body;
    }
  };
}

export function partner(baseUrl: string, key: string) {
  return <T = any>(method: string, path: string, body?: unknown, headers: Record<string, string> = {}) =>
    http<T>(baseUrl, method, `/api/partner/v1${path}`, { headers: { Authorization: `ApiKey ${key}`, ...headers }, body });
}
