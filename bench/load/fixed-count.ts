import http from "node:http";
import { performance } from "node:perf_hooks";
import { answer, scriptInput } from "../scripts";
import { statsOfLatencies } from "../stats";
import { PlainRequest, send } from "./request";

/** Sends each given request once, `concurrency` at a time, in its own process. */
export interface FixedCountInput {
  requests: PlainRequest[];
  concurrency: number;
}

async function main(): Promise<void> {
  const input = scriptInput<FixedCountInput>();
  const agent = new http.Agent({ keepAlive: true, maxSockets: input.concurrency });
  const latencies: number[] = [];
  const statuses: Record<string, number> = {};
  /** When each request was answered (epoch ms), by its index in the input. */
  const answeredAt: number[] = new Array(input.requests.length).fill(0);
  let errors = 0;
  let next = 0;
  const start = performance.now();
  await Promise.all(
    Array.from({ length: input.concurrency }, async () => {
      while (next < input.requests.length) {
        const index = next++;
        const request = input.requests[index];
        const sent = performance.now();
        const status = await send(agent, request);
        answeredAt[index] = performance.timeOrigin + performance.now();
        statuses[status] = (statuses[status] ?? 0) + 1;
        if (status >= 200 && status < 400) latencies.push(performance.now() - sent);
        else errors++;
      }
    })
  );
  const seconds = (performance.now() - start) / 1000;
  agent.destroy();
  answer({ ...statsOfLatencies(latencies, seconds, errors), statuses, answeredAt, startedAt: performance.timeOrigin + start });
}

void main();
