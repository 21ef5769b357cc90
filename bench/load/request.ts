import http from "node:http";

export interface PlainRequest {
  method: string;
  url: string;
  headers?: Record<string, string>;
  body?: string;
}

/** One request on a keep-alive agent; resolves with the status (0 on a network error or time-out). */
export function send(agent: http.Agent, spec: PlainRequest, timeoutMs = 10_000): Promise<number> {
  return new Promise(resolve => {
    const url = new URL(spec.url);
    const headers: Record<string, string | number> = { ...(spec.headers ?? {}) };
    if (spec.body !== undefined) {
      headers["Content-Type"] ??= "application/json";
      headers["Content-Length"] = Buffer.byteLength(spec.body);
    }
    const req = http.request(
      { host: url.hostname, port: url.port, path: url.pathname + url.search, method: spec.method, agent, headers, timeout: timeoutMs },
      res => {
        res.resume();
        res.once("end", () => resolve(res.statusCode ?? 0));
        res.once("error", () => resolve(0));
      }
    );
    req.once("timeout", () => req.destroy(new Error("timeout")));
    req.once("error", () => resolve(0));
    req.end(spec.body);
  });
}
