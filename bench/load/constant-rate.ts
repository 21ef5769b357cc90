import http from "node:http";
import { performance } from "node:perf_hooks";
import { answer, scriptInput } from "../scripts";
import { statsOfLatencies } from "../stats";
import { PlainRequest, send } from "./request";

/**
 * Open-loop load at a fixed rate, in its own process (Debian's wrk has no constant-rate mode, and
 * wrk2 is not packaged). Request i is due at start + i/rate whatever happened before, and its
 * latency is counted from that due time, not from when a free connection let it leave: a server
 * that stalls is charged for the queue it causes (no coordinated omission, as in wrk2).
 */
export interface ConstantRateInput {
  request: PlainRequest;
  rate: number;
  seconds: number;
  /** Connections the generator may open; requests wait for one when all are busy. */
  connections: number;
}

async function main(): Promise<void> {
  const input = scriptInput<ConstantRateInput>();
  const agent = new http.Agent({ keepAlive: true, maxSockets: input.connections });
  const total = Math.max(1, Math.round(input.rate * input.seconds));
  const interval = 1000 / input.rate;
  const latencies: number[] = [];
  /** How late each request was handed to the HTTP client: the generator's own lag, not the server's. */
  const lags: number[] = [];
  let errors = 0;
  const inFlight: Promise<void>[] = [];
  const start = performance.now();
  let next = 0;
  await new Promise<void>(resolve => {
    const tick = () => {
      const now = performance.now() - start;
      for (; next < total && next * interval <= now; next++) {
        const due = start + next * interval;
        lags.push(performance.now() - due);
        inFlight.push(
          send(agent, input.request).then(status => {
            if (status >= 200 && status < 400) latencies.push(performance.now() - due);
            else errors++;
          })
        );
      }
      if (next < total) setTimeout(tick, Math.max(0, Math.min(1, next * interval - now)));
      else resolve();
    };
    tick();
  });
  await Promise.all(inFlight);
  const seconds = (performance.now() - start) / 1000;
  agent.destroy();
  const stats = statsOfLatencies(latencies, seconds, errors);
  answer({ ...stats, intendedRate: input.rate, generatorLagP99Ms: statsOfLatencies(lags, seconds).p99Ms });
}

void main();
