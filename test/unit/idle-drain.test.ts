import http from "node:http";
import type { AddressInfo } from "node:net";
import { drainIdleConnectionsOnClose } from "../../services/gateway/http/idle-drain";

/**
 * The gateway's stop under a kept-alive client (services/gateway/http/idle-drain.ts): a request
 * sent on an idle connection just as the gateway stops is answered, not cut off.
 */

function get(port: number, agent: http.Agent): Promise<{ status: number; body: string; reused: boolean; connection?: string }> {
  return new Promise((resolve, reject) => {
    const req = http.get({ host: "127.0.0.1", port, path: "/", agent }, res => {
      let body = "";
      res.setEncoding("utf8");
      res.on("data", chunk => (body += chunk));
      res.on("end", () => resolve({ status: res.statusCode ?? 0, body, reused: req.reusedSocket, connection: res.headers.connection }));
    });
    req.on("error", reject);
  });
}

async function startServer(graceMs: number): Promise<{ server: http.Server; port: number }> {
  const server = http.createServer((_req, res) => {
    // As the gateway does once stopping: the answer closes its connection.
    if (!server.listening) res.setHeader("Connection", "close");
    res.end("ok");
  });
  drainIdleConnectionsOnClose(server, graceMs);
  await new Promise<void>(resolve => server.listen(0, "127.0.0.1", resolve));
  return { server, port: (server.address() as AddressInfo).port };
}

/** A server with the drain and a client keeping one connection alive, its first request answered. */
async function keptAliveClient(graceMs: number, test: (server: http.Server, port: number, agent: http.Agent) => Promise<void>) {
  const { server, port } = await startServer(graceMs);
  const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
  try {
    expect((await get(port, agent)).status).toBe(200);
    await test(server, port, agent);
  } finally {
    agent.destroy();
  }
}

const closed = (server: http.Server) => new Promise<void>(resolve => server.close(() => resolve()));

describe("idle kept-alive connections when the gateway stops", () => {
  test("a request sent on an idle connection after the close began is answered, with Connection: close, and the close then completes", async () => {
    await keptAliveClient(60_000, async (server, port, agent) => {
      const closing = closed(server);
      expect(server.listening).toBe(false);
      // The client's next request goes out on the connection it kept.
      expect(await get(port, agent)).toEqual({ status: 200, body: "ok", reused: true, connection: "close" });
      await closing;
    });
  });

  test("what stays idle is closed once the grace has passed", async () => {
    await keptAliveClient(50, async server => {
      // Resolves only when every connection is gone: the idle one, closed by the server after 50 ms.
      await closed(server);
      expect(server.listening).toBe(false);
    });
  });

  test("0 keeps Node's behaviour: idle connections close with the server, and the kept one is no longer usable", async () => {
    await keptAliveClient(0, async (server, port, agent) => {
      await closed(server);
      await expect(get(port, agent)).rejects.toThrow();
    });
  });
});
