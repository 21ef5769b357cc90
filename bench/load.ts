import http from "node:http";

export interface LoadResult {
  requests: number;
  errors: number;
  seconds: number;
  p50: number;
  p99: number;
}

export interface RequestSpec {
  method: string;
  path: string;
  headers?: Record<string, string>;
  body?: () => string;
}

/** Sends `total` requests, `concurrency` at a time over keep-alive connections; latencies in ms. */
export async function load(baseUrl: string, spec: RequestSpec, total: number, concurrency: number): Promise<LoadResult> {
  const url = new URL(baseUrl);
  const agent = new http.Agent({ keepAlive: true, maxSockets: concurrency });
  const latencies: number[] = [];
  let errors = 0;
  let sent = 0;
  const one = () =>
    new Promise<void>(resolve => {
      const body = spec.body?.();
      const started = process.hrtime.bigint();
      const req = http.request(
        {
          host: url.hostname,
          port: url.port,
          method: spec.method,
          path: spec.path,
          agent,
          headers: {
            ...(spec.headers ?? {}),
            ...(body ? { "Content-Type": "application/json", "Content-Length": Buffer.byteLength(body) } : {})
          }
        },
        res => {
          res.resume();
          res.on("end", () => {
            latencies.push(Number(process.hrtime.bigint() - started) / 1e6);
            if ((res.statusCode ?? 500) >= 400) errors++;
            resolve();
          });
        }
      );
      req.on("error", () => {
        errors++;
        resolve();
      });
      req.end(body);
    });
  const t0 = process.hrtime.bigint();
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (sent < total) {
        sent++;
        await one();
      }
    })
  );
  const seconds = Number(process.hrtime.bigint() - t0) / 1e9;
  agent.destroy();
  latencies.sort((a, b) => a - b);
  const at = (q: number) => latencies[Math.min(latencies.length - 1, Math.floor(q * latencies.length))] ?? 0;
  return { requests: total, errors, seconds, p50: at(0.5), p99: at(0.99) };
}
