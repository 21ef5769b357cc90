import net from "node:net";
import type { CpuWatch } from "../cpu";
import type { Watch } from "../measure";
import type { Service } from "../proc";

/** The relay-parcels system under test, however it was started. */
export interface RunningSystem {
  mode: "embedded" | "distributed";
  baseUrl: string;
  backofficeToken: string;
  /** Every process of the system (RSS is their sum). */
  services: Service[];
  /** The PostgreSQL database of the distributed system (null when embedded). */
  databaseUrl: string | null;
  encryptionKey: string | null;
  /** The embedded system's DATA_DIR (its PGlite database is under pgdata/). */
  dataDir?: string;
  /** Its processes, and the servers it uses, for the CPU meter. */
  cpuWatches: CpuWatch[];
  /** The distributed system's NATS and namespace, for reading its create groups (report/group-sizes.ts). */
  transport?: { natsUrl: string; namespace: string };
  stop(): Promise<void>;
}

export function pidsOf(system: RunningSystem): number[] {
  return system.services.map(s => s.pid);
}

export function watchOf(system: RunningSystem): Watch {
  return { rssOf: pidsOf(system), cpu: system.cpuWatches };
}

export function watchProcess(label: string, pid: number): Watch {
  return { rssOf: [pid], cpu: [{ label, pids: () => [pid] }] };
}

export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.listen(0, "127.0.0.1", () => {
      const { port } = server.address() as net.AddressInfo;
      server.close(() => resolve(port));
    });
    server.once("error", reject);
  });
}
