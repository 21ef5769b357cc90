import http from "node:http";
import type { AddressInfo } from "node:net";

/** One request the proxy saw, when, and with which headers. */
export interface ProxiedRequest {
  method: string;
  path: string;
  headers: http.IncomingHttpHeaders;
  receivedAt: number;
}

/**
 * What the proxy does with a request: pass it on ("forward"), pass it on and then cut the
 * connection before the answer reaches the client ("lose-answer": the server did the work, the
 * client never hears of it), answer itself without asking the server ("answer"), or pass it on and
 * hold the answer back ("delay").
 */
export type Fault =
  | { kind: "forward" }
  | { kind: "lose-answer" }
  | { kind: "answer"; status: number; headers?: Record<string, string>; body: unknown }
  | { kind: "delay"; ms: number };

export interface FaultProxy {
  url: string;
  requests: ProxiedRequest[];
  /** Decides each request's fate; `attempt` counts the requests seen so far with this method and path (0 for the first). */
  plan: (req: ProxiedRequest, attempt: number) => Fault;
  on: (method: string, pathPrefix: string) => ProxiedRequest[];
  close: () => Promise<void>;
}

/** A real HTTP proxy on loopback between the SDK and the system, injecting the faults a network makes. */
export async function startFaultProxy(upstream: string): Promise<FaultProxy> {
  const proxy = { requests: [] as ProxiedRequest[], plan: () => ({ kind: "forward" }) } as unknown as FaultProxy;
  proxy.on = (method, prefix) => proxy.requests.filter(r => r.method === method && r.path.startsWith(prefix));
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", c => chunks.push(c));
    req.on("end", async () => {
      const record: ProxiedRequest = { method: req.method ?? "", path: req.url ?? "", headers: req.headers, receivedAt: Date.now() };
      const attempt = proxy.requests.filter(r => r.method === record.method && r.path === record.path).length;
      proxy.requests.push(record);
      const fault = proxy.plan(record, attempt);
      if (fault.kind === "answer") {
        res.writeHead(fault.status, { "Content-Type": "application/json", ...fault.headers });
        res.end(JSON.stringify(fault.body));
        return;
      }
      const headers = { ...req.headers };
      delete headers.host;
      delete headers.connection;
      let answer: Response;
      try {
        answer = await fetch(upstream + record.path, {
          method: record.method,
          headers: headers as Record<string, string>,
          body: chunks.length > 0 ? Buffer.concat(chunks) : undefined
        });
      } catch {
        res.destroy();
        return;
      }
      const body = Buffer.from(await answer.arrayBuffer());
      if (fault.kind === "lose-answer") {
        res.destroy();
        return;
      }
      if (fault.kind === "delay") await new Promise(r => setTimeout(r, fault.ms));
      if (res.destroyed) return;
      const out: Record<string, string> = {};
      answer.headers.forEach((value, name) => {
        if (!["content-encoding", "content-length", "transfer-encoding", "connection"].includes(name)) out[name] = value;
      });
      res.writeHead(answer.status, out);
      res.end(body);
    });
  });
  await new Promise<void>(resolve => server.listen(0, "127.0.0.1", () => resolve()));
  proxy.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  proxy.close = () =>
    new Promise<void>(resolve => {
      server.closeAllConnections();
      server.close(() => resolve());
    });
  return proxy;
}
