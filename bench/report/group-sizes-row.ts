import type { Bench } from "../context";
import type { RunningSystem } from "../systems/system";
import { groupSizeLines, readGroupSizes, since } from "./group-sizes";

/**
 * Runs a create row and prints the sizes of the create groups it made (decision 0037): the
 * histogram and the share of size-1 flushes. Distributed only (the counters are read over NATS);
 * a failed read is printed, it never fails the row.
 */
export async function withGroupSizes<T>(bench: Bench, system: RunningSystem, title: string, run: () => Promise<T>): Promise<T> {
  const transport = system.transport;
  if (!transport) return run();
  const read = () => readGroupSizes(transport.natsUrl, transport.namespace);
  const before = await read().catch(() => null);
  const result = await run();
  try {
    const after = await read();
    for (const line of groupSizeLines(title, since(before ?? {}, after))) bench.progress.print(line);
  } catch (err) {
    bench.progress.print(`${title}: group sizes not read (${(err as Error).message})`);
  }
  return result;
}
