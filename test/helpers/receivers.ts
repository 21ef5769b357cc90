import http from "node:http";
import type { AddressInfo } from "node:net";

export interface ReceivedRequest {
  method: string;
  path: string;
  headers: http.IncomingHttpHeaders;
  rawBody: string;
  receivedAt: number;
  /** When the answer was sent (the request was in flight from receivedAt to answeredAt). */
  answeredAt?: number;
}

export interface Answer {
  status: number;
  delayMs?: number;
  headers?: Record<string, string>;
  /** The response body; "{}" by default. */
  body?: string;
}

export interface Receiver {
  url: string;
  requests: ReceivedRequest[];
  /** Decides the answer to each request (its index among the requests on its path); 200 by default. */
  respond: (req: ReceivedRequest, indexOnPath: number) => Answer;
  /** Answers for one path, before `respond`. */
  behaviour: Map<string, (indexOnPath: number, req: ReceivedRequest) => Answer>;
  on: (path: string) => ReceivedRequest[];
  waitFor: (predicate: (requests: ReceivedRequest[]) => boolean, timeoutMs?: number) => Promise<void>;
  close: () => Promise<void>;
}

/** A real HTTP server on loopback that records every request with its raw body (webhooks, SMS gateway). */
export async function startReceiver(): Promise<Receiver> {
  const receiver = {
    requests: [] as ReceivedRequest[],
    respond: (() => ({ status: 200 })) as Receiver["respond"],
    behaviour: new Map()
  } as Receiver;
  receiver.on = path => receiver.requests.filter(r => r.path === path);
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
      const indexOnPath = receiver.on(record.path).length;
      receiver.requests.push(record);
      const answer = receiver.behaviour.get(record.path)?.(indexOnPath, record) ?? receiver.respond(record, indexOnPath);
      // Unref'd: an answer the client gave up on must not keep the test process alive.
      setTimeout(() => {
        record.answeredAt = Date.now();
        res.writeHead(answer.status, { "Content-Type": "application/json", ...(answer.headers ?? {}) });
        res.end(answer.body ?? "{}");
      }, answer.delayMs ?? 0).unref();
    });
  });
  await new Promise<void>(resolve => server.listen(0, "127.0.0.1", () => resolve()));
  receiver.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  receiver.waitFor = async (predicate, timeoutMs = 30_000) => {
    const deadline = Date.now() + timeoutMs;
    while (!predicate(receiver.requests)) {
      if (Date.now() > deadline)
        throw new Error(`receiver: condition not met after ${timeoutMs} ms (${receiver.requests.length} requests)`);
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

/** The most requests ever in flight at once among those `keyOf` groups together. */
export function maxInFlight(requests: ReceivedRequest[], keyOf: (r: ReceivedRequest) => string): number {
  const byKey = new Map<string, Array<[number, number]>>();
  for (const r of requests) byKey.set(keyOf(r), [...(byKey.get(keyOf(r)) ?? []), [r.receivedAt, r.answeredAt ?? Infinity]]);
  let most = 0;
  for (const spans of byKey.values()) {
    const events = spans.flatMap(([start, end]) => [[start, 1] as const, [end, -1] as const]).sort((a, b) => a[0] - b[0] || a[1] - b[1]);
    let now = 0;
    for (const [, delta] of events) most = Math.max(most, (now += delta));
  }
  return most;
}
