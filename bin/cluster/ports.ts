import net from "node:net";

/** `count` distinct free ports, held open together so that none is handed out twice. */
export async function freePorts(count: number): Promise<number[]> {
  const servers = await Promise.all(
    Array.from(
      { length: count },
      () =>
        new Promise<net.Server>((resolve, reject) => {
          const server = net.createServer();
          server.once("error", reject);
          server.listen(0, "127.0.0.1", () => resolve(server));
        })
    )
  );
  const ports = servers.map(server => (server.address() as net.AddressInfo).port);
  await Promise.all(servers.map(server => new Promise(resolve => server.close(resolve))));
  return ports;
}

/** `count` consecutive ports from `base`. */
export function consecutivePorts(base: number, count: number): number[] {
  return Array.from({ length: count }, (_, i) => base + i);
}
