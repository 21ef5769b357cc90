import axios from "axios";
import { performance } from "node:perf_hooks";
import { answer, scriptInput } from "../scripts";

/** Plain axios (its defaults, keep-alive included): `count` POSTs of `body`, `concurrency` at a time. */
interface AxiosPostsInput {
  url: string;
  body: string;
  headers: Record<string, string>;
  count: number;
  concurrency: number;
}

async function main(): Promise<void> {
  const input = scriptInput<AxiosPostsInput>();
  let next = 0;
  let errors = 0;
  const latencies: number[] = [];
  const startedAt = Date.now();
  await Promise.all(
    Array.from({ length: input.concurrency }, async () => {
      while (next < input.count) {
        next++;
        const t = performance.now();
        try {
          await axios.post(input.url, input.body, { headers: { "Content-Type": "application/json", ...input.headers } });
          latencies.push(performance.now() - t);
        } catch {
          errors++;
        }
      }
    })
  );
  answer({ startedAt, finishedAt: Date.now(), errors, latencies });
}

void main();
