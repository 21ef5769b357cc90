import net from "node:net";

export interface RawAnswer {
  status: number;
  headers: Record<string, string>;
  body: string;
  /** The server closed the connection after answering. */
  closed: boolean;
}

/**
 * Sends bytes exactly as given (what fetch cannot: a broken request line, oversized headers, a
 * body that stops half-way) and reads one answer. `pauseAfter` sends the first part, waits
 * (the server may answer meanwhile), and never sends the rest.
 */
export function rawRequest(baseUrl: string, bytes: string | Buffer, options: { timeoutMs?: number } = {}): Promise<RawAnswer> {
  const url = new URL(baseUrl);
  return new Promise((resolve, reject) => {
    const socket = net.connect({ host: url.hostname, port: Number(url.port) });
    const chunks: Buffer[] = [];
    const timer = setTimeout(() => {
      socket.destroy();
      reject(new Error(`no complete answer within ${options.timeoutMs ?? 20_000} ms:\n${Buffer.concat(chunks).toString()}`));
    }, options.timeoutMs ?? 20_000);
    socket.on("data", chunk => chunks.push(chunk));
    socket.on("error", err => {
      clearTimeout(timer);
      reject(err);
    });
    socket.on("close", () => {
      clearTimeout(timer);
      const text = Buffer.concat(chunks).toString("utf8");
      const [head, ...rest] = text.split("\r\n\r\n");
      const [statusLine, ...headerLines] = head.split("\r\n");
      const status = Number(/^HTTP\/1\.[01] (\d{3})/.exec(statusLine)?.[1] ?? 0);
      const headers: Record<string, string> = {};
      for (const line of headerLines) {
        const i = line.indexOf(":");
        if (i > 0) headers[line.slice(0, i).trim().toLowerCase()] = line.slice(i + 1).trim();
      }
      resolve({ status, headers, body: rest.join("\r\n\r\n"), closed: true });
    });
    socket.write(bytes);
  });
}
