import http from "node:http";
import type { AddressInfo } from "node:net";

export interface ReceivedRequest {
  method: string;
  path: string;
  headers: http.IncomingHttpHeaders;
  rawBody: string;
  receivedAt: number;
}

export interface Receiver {
  url: string;
  requests: ReceivedRequest[];
  /** Decides the answer to each request; 200 by default. */
  respond: (req: ReceivedRequest, index: number) => { status: number; delayMs?: number; headers?: Record<string, string> };
  waitFor: (predicate: (requests: ReceivedRequest[]) => boolean, timeoutMs?: number) => Promise<void>;
  close: () => Promise<void>;
}

/** A real HTTP server on loopback that records every request with its raw body (webhooks, SMS gateway). */
export async function startReceiver(): Promise<Receiver> {
  const receiver = {
    requests: [] as ReceivedRequest[],
    respond: (() => ({ status: 200 })) as Receiver["respond"]
  } as Receiver;
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", c => chunks.push(c));
    req.on("end", () => {
      const record: ReceivedRequest = {
        method: req.method ?? "",
        path: req.url ?? "",
        headers: req.headers,
        rawBody: Buffer.concat(chunks).toString("utf8"),
        receivedAt: Date.now()
      };
      const index = receiver.requests.push(record) - 1;
      const answer = receiver.respond(record, index);
      setTimeout(() => {
        res.writeHead(answer.status, { "Content-Type": "application/json", ...(answer.headers ?? {}) });
        res.end("{}");
      }, answer.delayMs ?? 0);
    });
  });
  await new Promise<void>(resolve => server.listen(0, "127.0.0.1", () => resolve()));
  receiver.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  receiver.waitFor = async (predicate, timeoutMs = 30_000) => {
    const deadline = Date.now() + timeoutMs;
    while (!predicate(receiver.requests)) {
      if (Date.now() > deadline) throw new Error(`receiver: condition not met after ${timeoutMs} ms (${receiver.requests.length} requests)`);
      await new Promise(r => setTimeout(r, 100));
    }
  };
  receiver.close = () =>
    new Promise<void>(resolve => {
      server.closeAllConnections();
      server.close(() => resolve());
    });
  return receiver;
}
