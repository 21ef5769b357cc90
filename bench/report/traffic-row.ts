import type { Bench } from "../context";
import { countParcels } from "../seed";
import type { RunningSystem } from "../systems/system";
import { openTrafficReader, Traffic, trafficLines, trafficSince } from "./traffic";

/**
 * Runs a create row and prints its database round trips and NATS messages per create, by process
 * (report/traffic.ts). Creates are the parcels the row added; the warm-up's creates count on both
 * sides, and requests that created nothing count in the traffic only. Distributed only (read over
 * NATS); a failed read is printed, it never fails the row.
 */
export async function withTraffic<T>(bench: Bench, system: RunningSystem, title: string, run: () => Promise<T>): Promise<T> {
  const transport = system.transport;
  const databaseUrl = system.databaseUrl;
  if (!transport || !databaseUrl) return run();
  const failed = (err: unknown) => bench.progress.print(`${title}: round trips and NATS messages not read (${(err as Error).message})`);
  const reader = await openTrafficReader(transport.natsUrl, transport.namespace).catch(err => void failed(err));
  if (!reader) return run();
  try {
    let before: Traffic | null = null;
    let parcelsBefore = 0;
    try {
      before = await reader.read();
      parcelsBefore = await countParcels(databaseUrl);
    } catch (err) {
      failed(err);
    }
    const result = await run();
    if (before) {
      try {
        const after = await reader.read();
        const creates = (await countParcels(databaseUrl)) - parcelsBefore;
        for (const line of trafficLines(title, trafficSince(before, after), creates)) bench.progress.print(line);
      } catch (err) {
        failed(err);
      }
    }
    return result;
  } finally {
    await reader.close();
  }
}
