import { createEarlyReads } from "../shared/early-reads";

/**
 * The courier app's early reads (web/shared/early-reads.ts, decision 0049, as the counter app's):
 * the run and the cash aboard, started by prefetch.js while main.js is still downloading, taken by
 * the page's first loadDay (state.ts), so that the server's stops show about when the app can
 * show them instead of one Slow 4G round trip after.
 */
export const API = "/api/courier/v1";
export { readHeaders, TIMEOUT_MS } from "../shared/early-reads";

/** What the run's screen reads first (state.ts loadDay). */
export const RUN_PATHS = { run: "/run", cash: "/cash" } as const;

const early = createEarlyReads("__courierEarlyReads", API);
export const takeEarlyReads = early.takeEarlyReads;

export function startEarlyReads(courierKey: string): void {
  early.startEarlyReads(courierKey, [RUN_PATHS.run, RUN_PATHS.cash]);
}
